// SPDX-License-Identifier: GPL-3.0-or-later
/* The SPSA iteration and the runner that plays iterations on worker
 * threads (spsa.h has the formulas). */
#include "spsa.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "zobrist.h"

/* Distinct streams of the project's PRNG for the coins and the games. */
static const uint64_t FlipStream = 0x5350534131ULL, GameStream = 0x5350534132ULL;
static const uint64_t Golden = 0x9E3779B97F4A7C15ULL;

void spsa_schedule(SpsaState *s, double r_end, double c_end) {
    double n = s->iterations > 0 ? s->iterations : 1;
    s->c = c_end * pow(n, s->gamma);
    s->a = r_end * c_end * c_end * pow(s->A + n, s->alpha);
}

double spsa_gain_a(const SpsaState *s, int k) { return s->a / pow(s->A + k + 1, s->alpha); }

double spsa_gain_c(const SpsaState *s, int k) { return s->c / pow(k + 1, s->gamma); }

static uint64_t stream_start(const SpsaState *s, int k, uint64_t stream) {
    uint64_t st = (s->seed ^ stream) * Golden + (uint64_t)k;
    prng_next(&st); /* one step so that neighbouring k do not share bits */
    return st;
}

void spsa_flips(const SpsaState *s, int k, signed char *flip) {
    uint64_t st = stream_start(s, k, FlipStream), bits = 0;
    for (int i = 0; i < s->count; i++) {
        if (i % 64 == 0) bits = prng_next(&st);
        flip[i] = (bits >> (i % 64)) & 1 ? 1 : -1;
    }
}

uint64_t spsa_iteration_seed(const SpsaState *s, int k) {
    uint64_t st = stream_start(s, k, GameStream);
    return prng_next(&st);
}

static double clamp(double v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void spsa_point(const SpsaState *s, int k, const signed char *flip, int sign, int *values) {
    double ck = spsa_gain_c(s, k);
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->params[i];
        values[i] = (int)lround(clamp(p->theta + sign * ck * p->step * flip[i], p->min, p->max));
    }
}

void spsa_update(SpsaState *s, int k, const signed char *flip, Score3 result) {
    double gain = spsa_gain_a(s, k) / spsa_gain_c(s, k);
    int r = result.wins - result.losses;
    for (int i = 0; i < s->count; i++) {
        SpsaParam *p = &s->params[i];
        p->theta = clamp(p->theta + p->step * gain * r * flip[i], p->min, p->max);
    }
    s->score.wins += result.wins;
    s->score.draws += result.draws;
    s->score.losses += result.losses;
    s->done++;
}

/* The runner's shared state, guarded by lock. */
typedef struct {
    SpsaState *s;
    const SpsaRunner *r;
    pthread_mutex_t lock;
    int next_worker, next_k;
    bool failed;
    char err[512];
} Run;

static void run_fail(Run *run, const char *msg) {
    if (!run->failed) snprintf(run->err, sizeof run->err, "%s", msg);
    run->failed = true;
}

/* Take iterations until none is left: perturb under the lock, play without
 * it, apply under it. */
static void *run_worker(void *arg) {
    Run *run = arg;
    signed char flip[SPSA_MAX_PARAMS];
    int plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    char err[512];
    pthread_mutex_lock(&run->lock);
    SpsaMatch m = {.worker = run->next_worker++, .pairs = run->s->pairs, .count = run->s->count};
    m.plus = plus;
    m.minus = minus;
    while (!run->failed && run->next_k < run->s->iterations) {
        int k = m.iteration = run->next_k++;
        spsa_flips(run->s, k, flip);
        spsa_point(run->s, k, flip, 1, plus);
        spsa_point(run->s, k, flip, -1, minus);
        m.seed = spsa_iteration_seed(run->s, k);
        pthread_mutex_unlock(&run->lock);

        Score3 result = {0, 0, 0};
        err[0] = '\0';
        bool ok = run->r->play(run->r->play_ctx, &m, &result, err, sizeof err);

        pthread_mutex_lock(&run->lock);
        if (!ok) {
            run_fail(run, err[0] ? err : "the games failed");
            break;
        }
        spsa_update(run->s, k, flip, result);
        if (run->r->state_path && !spsa_state_save(run->s, run->r->state_path, err, sizeof err)) run_fail(run, err);
        if (run->r->report) run->r->report(run->r->report_ctx, run->s, k, result);
    }
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

bool spsa_run(SpsaState *s, const SpsaRunner *r, char *err, size_t errlen) {
    Run run = {.s = s, .r = r, .next_k = s->done};
    pthread_mutex_init(&run.lock, NULL);
    int workers = r->concurrency < 1 ? 1 : r->concurrency > SPSA_MAX_WORKERS ? SPSA_MAX_WORKERS : r->concurrency;
    if (workers == 1) {
        run_worker(&run); /* in this thread: simplest to debug and to test */
    } else {
        pthread_t threads[SPSA_MAX_WORKERS];
        int started = 0;
        for (; started < workers; started++)
            if (pthread_create(&threads[started], NULL, run_worker, &run)) break;
        if (!started) run_worker(&run);
        for (int i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
    }
    pthread_mutex_destroy(&run.lock);
    if (run.failed) snprintf(err, errlen, "%s", run.err);
    return !run.failed;
}
