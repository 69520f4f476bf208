// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-tune spsa simulate`: the tuner against a simulated match, to choose
 * --r-end and --c-end for a game budget before spending hours of games on
 * it (docs/tuning.md has the table this prints). Each parameter's optimum
 * lies a random number of steps (up to --offset) from its start; missing
 * it by d steps costs elo3 * (d / 3)^2 Elo, and a game's score follows the
 * logistic Elo curve with a fixed draw share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spsa.h"
#include "tune.h"
#include "zobrist.h"

typedef struct {
    int count;
    double optimum[SPSA_MAX_PARAMS]; /* in steps */
    double elo3, draw;
} SimMatch;

enum { SIM_STEP = 10 };

/* Elo lost by values v (in parameter units) against the optimum. */
static double sim_loss(const SimMatch *sim, const double *v) {
    double loss = 0;
    for (int i = 0; i < sim->count; i++) {
        double d = v[i] / SIM_STEP - sim->optimum[i];
        loss += sim->elo3 * d * d / 9;
    }
    return loss;
}

static bool sim_play(void *ctx, const SpsaMatch *m, Score3 *r, char *err, size_t errlen) {
    (void)err, (void)errlen;
    const SimMatch *sim = ctx;
    double plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    for (int i = 0; i < m->count; i++)
        plus[i] = m->plus[i], minus[i] = m->minus[i];
    double p = 1 / (1 + pow(10, -(sim_loss(sim, minus) - sim_loss(sim, plus)) / 400));
    uint64_t st = m->seed;
    *r = (Score3){0, 0, 0};
    for (int g = 0; g < 2 * m->pairs; g++) {
        double u = (double)(prng_next(&st) >> 11) * 0x1.0p-53;
        if (u < sim->draw)
            r->draws++;
        else if (u < sim->draw + (1 - sim->draw) * p)
            r->wins++;
        else
            r->losses++;
    }
    return true;
}

typedef struct {
    int params, iterations, seeds;
    double r_end, c_end, elo3, offset, draw;
} SimOptions;

static bool sim_parse(SimOptions *o, int argc, char **argv) {
    *o = (SimOptions){20, 3000, 8, SPSA_R_END, SPSA_C_END, 3, 4, 0.3};
    for (int i = 0; i + 1 < argc; i += 2) {
        const char *a = argv[i];
        char *end;
        double v = strtod(argv[i + 1], &end);
        if (*end || end == argv[i + 1]) return false;
        if (!strcmp(a, "--params") && v >= 1 && v <= SPSA_MAX_PARAMS)
            o->params = (int)v;
        else if (!strcmp(a, "--iterations") && v >= 1 && v <= 1e7)
            o->iterations = (int)v;
        else if (!strcmp(a, "--seeds") && v >= 1 && v <= 1000)
            o->seeds = (int)v;
        else if (!strcmp(a, "--r-end") && v > 0)
            o->r_end = v;
        else if (!strcmp(a, "--c-end") && v > 0)
            o->c_end = v;
        else if (!strcmp(a, "--elo3") && v > 0)
            o->elo3 = v;
        else if (!strcmp(a, "--offset") && v >= 0 && v <= 50)
            o->offset = v;
        else if (!strcmp(a, "--draw") && v >= 0 && v < 1)
            o->draw = v;
        else
            return false;
    }
    return argc % 2 == 0;
}

/* One simulated run; adds its start loss, end loss and mean miss in steps. */
static void sim_run(const SimOptions *o, int seed, double *start, double *end, double *miss) {
    SpsaState *s = calloc(1, sizeof *s);
    SimMatch sim = {.count = o->params, .elo3 = o->elo3, .draw = o->draw};
    uint64_t st = 1000 + (uint64_t)seed;
    double v[SPSA_MAX_PARAMS] = {0};
    s->count = o->params;
    for (int i = 0; i < o->params; i++) {
        SpsaParam *p = &s->params[i];
        *p = (SpsaParam){.step = SIM_STEP, .min = -100 * SIM_STEP, .max = 100 * SIM_STEP};
        snprintf(p->name, sizeof p->name, "P%d", i);
        sim.optimum[i] = ((double)(prng_next(&st) >> 11) * 0x1.0p-53 * 2 - 1) * o->offset;
    }
    *start += sim_loss(&sim, v);
    s->iterations = o->iterations;
    s->pairs = 1;
    s->seed = (uint64_t)seed + 1;
    s->alpha = SPSA_ALPHA;
    s->gamma = SPSA_GAMMA;
    s->A = floor(SPSA_A_FRACTION * o->iterations);
    spsa_schedule(s, o->r_end, o->c_end);
    SpsaRunner runner = {sim_play, &sim, NULL, NULL, 1, NULL};
    char err[64];
    spsa_run(s, &runner, err, sizeof err);
    for (int i = 0; i < o->params; i++) {
        v[i] = s->params[i].theta;
        *miss += fabs(v[i] / SIM_STEP - sim.optimum[i]) / o->params;
    }
    *end += sim_loss(&sim, v);
    free(s);
}

int cmd_spsa_simulate(int argc, char **argv) {
    SimOptions o;
    if (!sim_parse(&o, argc, argv)) {
        fputs("usage: tuong-tune spsa simulate [--params N] [--iterations N] [--r-end R] [--c-end C]\n"
              "                                [--elo3 E] [--offset STEPS] [--draw D] [--seeds K]\n",
              stderr);
        return 2;
    }
    double start = 0, end = 0, miss = 0;
    for (int seed = 0; seed < o.seeds; seed++)
        sim_run(&o, seed, &start, &end, &miss);
    printf("%d params, %d iterations, r_end %g, c_end %g, %g Elo at 3 steps, optima within %g steps: "
           "loss %.1f -> %.1f Elo, miss %.2f steps (mean of %d runs)\n",
           o.params, o.iterations, o.r_end, o.c_end, o.elo3, o.offset, start / o.seeds, end / o.seeds, miss / o.seeds,
           o.seeds);
    return 0;
}
