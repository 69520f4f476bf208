// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-tune spsa`: the command line of the SPSA tuner (spsa.h,
 * docs/tuning.md). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spsa.h"
#include "spsa_games.h"
#include "tune.h"

#ifndef TUONG_DEFAULT_OPENINGS
#define TUONG_DEFAULT_OPENINGS "openings/xiangqi.epd"
#endif
#ifndef TUONG_DEFAULT_PARAMS_HEADER
#define TUONG_DEFAULT_PARAMS_HEADER "engine/search_params.h"
#endif

static const char Usage[] =
    "usage: tuong-tune spsa [--engine PATH] [--params GLOB,...] [--iterations N] [--pairs P]\n"
    "                       [--concurrency N] [--tc BASE+INC | --nodes N | --depth N]\n"
    "                       [--openings EPD] [--seed S] [--state FILE] [--resume]\n"
    "                       [--r-end R] [--c-end C] [--A N] [--alpha X] [--gamma X]\n"
    "                       [--hash MB] [--option NAME=VALUE ...] [--timemargin MS]\n"
    "                       [--pgnout FILE] [--log FILE] [--progress N]\n"
    "       tuong-tune spsa apply STATE [--in FILE] [--out FILE]\n"
    "       tuong-tune spsa show [--options] STATE\n"
    "       tuong-tune spsa simulate [--params N] [--iterations N] [--r-end R] [--c-end C] [--elo3 E] ...\n"
    "  --engine      a tuning build (cmake -DTUONG_TUNING=ON); default: tuong beside this tool\n"
    "  --params      parameters to tune: globs on the names of `tuong params`, '-GLOB' excludes\n"
    "                (e.g. 'LMR_*,RFP_*' or '-TM_*'; default: all)\n"
    "  --iterations  planned iterations (default 1000); each is --pairs game pairs (default 1)\n"
    "  --concurrency iterations played at once (default 2)\n"
    "  --tc          clock per game in seconds (default 2+0.02)\n"
    "  --state       state file, rewritten after every iteration (default spsa.state);\n"
    "                --resume continues it (--iterations may then raise the plan)\n"
    "  --r-end, --c-end  learning rate and perturbation (in steps) at the last iteration\n"
    "                (defaults 0.002 and 1); --A (default 10%% of --iterations), --alpha 0.602,\n"
    "                --gamma 0.101 as in Spall's SPSA\n"
    "  --hash        engine hash in MB (default 16); --option sets any other engine option\n"
    "  --progress    print a progress line every N iterations (default 1)\n"
    "  --pgnout, --log  append the games as PGN / write a transcript of the engines' I/O\n"
    "  apply         rewrite the defaults of search_params.h (default: the source tree's) with\n"
    "                the state's values; --out writes elsewhere\n"
    "  show          the state as a table; --options: only the tuong-match words option.NAME=VALUE\n"
    "  simulate      the tuner against a simulated match (docs/tuning.md: choosing r_end, c_end)\n";

typedef struct {
    const char *engine, *params, *openings, *state, *pgnout, *log;
    int iterations, pairs, concurrency, progress, hash, timemargin;
    uint64_t seed;
    double r_end, c_end, A, alpha, gamma;
    bool resume;
    const char *fixed_flag; /* a flag that --resume takes from the state instead */
    bool iterations_given;
    TimeControl tc;
    char tc_text[64];
    int option_count;
    const char *options[ENGINE_OPTIONS_MAX];
    char engine_buf[PATH_MAX];
} SpsaOptions;

static int fail(const char *fmt, const char *arg) {
    fprintf(stderr, "tuong-tune spsa: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

static bool parse_long(const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || errno || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

/* "BASE[+INC]" in seconds. */
static bool parse_clock(const char *s, TimeControl *tc) {
    char body[64];
    double base, inc = 0;
    if (!s || strlen(s) >= sizeof body) return false;
    snprintf(body, sizeof body, "%s", s);
    char *plus = strchr(body, '+');
    if (plus) *plus = '\0';
    if (!parse_double(body, 0.01, 86400, &base) || (plus && !parse_double(plus + 1, 0, 3600, &inc))) return false;
    tc->base_ms = (int64_t)(base * 1000 + 0.5);
    tc->inc_ms = (int64_t)(inc * 1000 + 0.5);
    return true;
}

/* The tuong binary in this tool's own directory. */
static const char *default_engine(SpsaOptions *o) {
    ssize_t n = readlink("/proc/self/exe", o->engine_buf, sizeof o->engine_buf - 8);
    if (n <= 0) return "tuong";
    o->engine_buf[n] = '\0';
    char *slash = strrchr(o->engine_buf, '/');
    snprintf(slash ? slash + 1 : o->engine_buf, 8, "tuong");
    return o->engine_buf;
}

static void set_defaults(SpsaOptions *o) {
    memset(o, 0, sizeof *o);
    o->openings = TUONG_DEFAULT_OPENINGS;
    o->state = "spsa.state";
    o->iterations = 1000;
    o->pairs = 1;
    o->concurrency = 2;
    o->progress = 1;
    o->hash = 16;
    o->timemargin = 500;
    o->seed = 1;
    o->r_end = SPSA_R_END;
    o->c_end = SPSA_C_END;
    o->A = -1; /* 10% of the iterations */
    o->alpha = SPSA_ALPHA;
    o->gamma = SPSA_GAMMA;
    parse_clock("2+0.02", &o->tc);
    snprintf(o->tc_text, sizeof o->tc_text, "tc 2+0.02");
}

/* Options with a whole-number value; false if a is not one of them. */
static bool int_option(SpsaOptions *o, const char *a, const char *v, bool *bad) {
    const struct {
        const char *flag;
        long lo, hi;
        int *dst;
    } table[] = {
        {"--iterations", 1, 100000000, &o->iterations},
        {"--pairs", 1, 1000, &o->pairs},
        {"--concurrency", 1, SPSA_MAX_WORKERS, &o->concurrency},
        {"--progress", 1, 1000000, &o->progress},
        {"--hash", 1, 32768, &o->hash},
        {"--timemargin", 0, 3600000, &o->timemargin},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(a, table[i].flag)) continue;
        long k;
        *bad = !parse_long(v, table[i].lo, table[i].hi, &k);
        if (!*bad) *table[i].dst = (int)k;
        return true;
    }
    return false;
}

/* The schedule's real-valued options. */
static bool schedule_option(SpsaOptions *o, const char *a, const char *v, bool *bad) {
    const struct {
        const char *flag;
        double lo, hi, *dst;
    } table[] = {
        {"--r-end", 1e-9, 100, &o->r_end}, {"--c-end", 1e-3, 1000, &o->c_end}, {"--A", 0, 1e9, &o->A},
        {"--alpha", 0.01, 2, &o->alpha},   {"--gamma", 0.001, 2, &o->gamma},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(a, table[i].flag)) continue;
        *bad = !parse_double(v, table[i].lo, table[i].hi, table[i].dst);
        return true;
    }
    return false;
}

/* --tc, --nodes, --depth: each replaces the limit set before. */
static bool limit_option(SpsaOptions *o, const char *a, const char *v, bool *bad) {
    bool tc = !strcmp(a, "--tc"), nodes = !strcmp(a, "--nodes");
    if (!tc && !nodes && strcmp(a, "--depth")) return false;
    TimeControl *t = &o->tc;
    t->base_ms = t->inc_ms = t->nodes = 0;
    t->depth = 0;
    long k = 0;
    if (tc)
        *bad = !parse_clock(v, t);
    else
        *bad = !parse_long(v, 1, nodes ? 2000000000L : 100, &k);
    if (nodes)
        t->nodes = k;
    else if (!tc)
        t->depth = (int)k;
    snprintf(o->tc_text, sizeof o->tc_text, "%s %s", tc ? "tc" : nodes ? "nodes" : "depth", v ? v : "");
    return true;
}

static bool text_option(SpsaOptions *o, const char *a, const char *v) {
    const char **dst = !strcmp(a, "--engine")     ? &o->engine
                       : !strcmp(a, "--params")   ? &o->params
                       : !strcmp(a, "--openings") ? &o->openings
                       : !strcmp(a, "--state")    ? &o->state
                       : !strcmp(a, "--pgnout")   ? &o->pgnout
                       : !strcmp(a, "--log")      ? &o->log
                                                  : NULL;
    if (dst) *dst = v;
    return dst != NULL;
}

static int parse_args(SpsaOptions *o, int argc, char **argv) {
    set_defaults(o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool bad = false;
        if (!strcmp(a, "--resume")) {
            o->resume = true;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return fputs(Usage, stdout), 1;
        if (!strcmp(a, "--seed")) {
            char *end = NULL;
            errno = 0;
            o->seed = v ? strtoull(v, &end, 10) : 0;
            bad = !v || end == v || *end || errno || v[0] == '-';
        } else if (!strcmp(a, "--option")) {
            bad = !v || !strchr(v, '=') || o->option_count == ENGINE_OPTIONS_MAX - 2;
            if (!bad) o->options[o->option_count++] = v;
        } else if (!int_option(o, a, v, &bad) && !schedule_option(o, a, v, &bad) && !limit_option(o, a, v, &bad) &&
                   !text_option(o, a, v)) {
            return fail("unknown option '%s' (tuong-tune spsa --help lists them)", a);
        }
        if (bad || !v) return fail("bad or missing value for %s (see --help)", a);
        if (!strcmp(a, "--iterations")) o->iterations_given = true;
        const char *fixed[] = {"--params", "--pairs", "--seed", "--r-end", "--c-end", "--A", "--alpha", "--gamma"};
        for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
            if (!strcmp(a, fixed[k])) o->fixed_flag = fixed[k];
        i++;
    }
    if (!o->engine) o->engine = default_engine(o);
    return 0;
}

/* --- the run --- */

typedef struct {
    const SpsaOptions *o;
    SpsaGames *games;
    int first_done; /* iterations done when this process started */
    struct timespec started;
} Progress;

static double seconds_since(const struct timespec *t) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static void print_values(FILE *out, const SpsaState *s) {
    for (int i = 0; i < s->count; i++)
        fprintf(out, " %s=%.1f", s->params[i].name, s->params[i].theta);
}

static void report(void *ctx, const SpsaState *s, int k, Score3 r) {
    Progress *p = ctx;
    if (s->done % p->o->progress && s->done != s->iterations) return;
    double per = seconds_since(&p->started) / (s->done - p->first_done);
    double eta = per * (s->iterations - s->done) / 60;
    Score3 t = s->score;
    printf("iter %d/%d games %d: +%d =%d -%d (%.1f%%), last %g-%g, c_k %.2f, %.1f s/iter, eta %.0f min |", s->done,
           s->iterations, stats_games(t), t.wins, t.draws, t.losses, 100 * stats_score(t), r.wins + 0.5 * r.draws,
           r.losses + 0.5 * r.draws, spsa_gain_c(s, k), per, eta);
    int failures = spsa_games_failures(p->games);
    if (failures) printf(" failures %d |", failures);
    print_values(stdout, s);
    printf("\n");
    fflush(stdout);
}

/* A new state: the chosen parameters of the engine and the schedule. */
static bool new_state(const SpsaOptions *o, const char *listing, SpsaState *s, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    if (!spsa_params_select(s, listing, o->params, err, errlen)) return false;
    s->iterations = o->iterations;
    s->pairs = o->pairs;
    s->seed = o->seed;
    s->alpha = o->alpha;
    s->gamma = o->gamma;
    s->A = o->A >= 0 ? o->A : floor(SPSA_A_FRACTION * o->iterations);
    spsa_schedule(s, o->r_end, o->c_end);
    return true;
}

/* The state to run: loaded (--resume) or new; either way its parameters
 * must exist in the engine with the same ranges. */
static bool prepare_state(const SpsaOptions *o, const char *listing, SpsaState *s, char *err, size_t errlen) {
    if (!o->resume) {
        if (!access(o->state, F_OK))
            return snprintf(err, errlen, "%s exists: add --resume to continue it, or remove it to start afresh",
                            o->state),
                   false;
        return new_state(o, listing, s, err, errlen);
    }
    if (o->fixed_flag)
        return snprintf(err, errlen,
                        "--resume takes %s (like the parameters, schedule, pairs and seed) from %s; "
                        "only --iterations may change the plan",
                        o->fixed_flag, o->state),
               false;
    if (!spsa_state_load(s, o->state, err, errlen)) return false;
    if (o->iterations_given && o->iterations < s->done)
        return snprintf(err, errlen, "--iterations %d is below the %d already done", o->iterations, s->done), false;
    if (o->iterations_given) s->iterations = o->iterations;
    SpsaState engine;
    if (!spsa_params_select(&engine, listing, NULL, err, errlen)) return false;
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->params[i], *q = NULL;
        for (int j = 0; j < engine.count && !q; j++)
            if (!strcmp(engine.params[j].name, p->name)) q = &engine.params[j];
        if (!q || q->min != p->min || q->max != p->max)
            return snprintf(err, errlen, "%s: parameter %s is %s in the engine", o->state, p->name,
                            q ? "of another range" : "missing"),
                   false;
    }
    return true;
}

static bool games_config(const SpsaOptions *o, SpsaGamesConfig *c, char *err, size_t errlen) {
    char word[ENGINE_TEXT_MAX + 16], quoted[ENGINE_TEXT_MAX];
    spsa_shell_quote(o->engine, quoted, sizeof quoted - 16);
    snprintf(word, sizeof word, "cmd=%s", quoted);
    bool ok =
        engine_config_set(&c->engine, word, err, errlen) && engine_config_set(&c->engine, "proto=ucci", err, errlen);
    snprintf(word, sizeof word, "option.hashsize=%d", o->hash);
    ok = ok && engine_config_set(&c->engine, word, err, errlen);
    for (int i = 0; ok && i < o->option_count; i++) {
        snprintf(word, sizeof word, "option.%s", o->options[i]);
        ok = engine_config_set(&c->engine, word, err, errlen);
    }
    c->tc = o->tc;
    c->tc.margin_ms = o->timemargin;
    c->tc.move_timeout_ms = 60000;
    c->rules.repetitions = 3;
    c->rules.nocapture_plies = 120;
    c->handshake_ms = 10000;
    return ok && openings_load(&c->book, o->openings, err, errlen);
}

static void print_header(const SpsaOptions *o, const SpsaState *s, int openings) {
    printf("tuong-tune spsa: %d parameters of %s, iterations %d..%d of %d pairs, %s, concurrency %d, "
           "%d openings\n",
           s->count, o->engine, s->done + 1, s->iterations, s->pairs, o->tc_text, o->concurrency, openings);
    printf("schedule: A %g alpha %g gamma %g a %.4g c %.4g (c_k %.3f now, %.3f at the end; a_k/c_k^2 at the "
           "end %.4g); seed %" PRIu64 "; state %s\n",
           s->A, s->alpha, s->gamma, s->a, s->c, spsa_gain_c(s, s->done), spsa_gain_c(s, s->iterations - 1),
           spsa_gain_a(s, s->iterations - 1) / pow(spsa_gain_c(s, s->iterations - 1), 2), s->seed, o->state);
    bool tm = false;
    for (int i = 0; i < s->count; i++)
        tm |= !strncmp(s->params[i].name, "TM_", 3);
    if (tm && (o->tc.nodes || o->tc.depth))
        printf("note: the TM_* parameters act only under a clock; with --%s they drift at random\n",
               o->tc.nodes ? "nodes" : "depth");
    fflush(stdout);
}

static void print_summary(const SpsaState *s, const char *state_path) {
    Score3 t = s->score;
    printf("\nfinished %d iterations, %d games, theta+ +%d =%d -%d\n", s->done, stats_games(t), t.wins, t.draws,
           t.losses);
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->params[i];
        printf("  %-22s %6g -> %9.2f (%ld)\n", p->name, p->start, p->theta, lround(p->theta));
    }
    printf("write them into engine/search_params.h with: tuong-tune spsa apply %s\n", state_path);
}

/* The PGN and transcript files, if asked for. */
static bool open_outputs(const SpsaOptions *o, SpsaGamesConfig *cfg, char *err, size_t errlen) {
    cfg->pgn = o->pgnout ? fopen(o->pgnout, "a") : NULL;
    cfg->log = o->log ? fopen(o->log, "w") : NULL;
    if (cfg->log) setvbuf(cfg->log, NULL, _IOLBF, 0);
    if ((!o->pgnout || cfg->pgn) && (!o->log || cfg->log)) return true;
    snprintf(err, errlen, "cannot write %s", o->pgnout && !cfg->pgn ? o->pgnout : o->log);
    return false;
}

static void close_outputs(SpsaGamesConfig *cfg) {
    if (cfg->pgn) fclose(cfg->pgn);
    if (cfg->log) fclose(cfg->log);
}

static int run(const SpsaOptions *o) {
    char err[1024];
    if (access(o->engine, X_OK)) return fail("engine %s: not an executable file (see --engine)", o->engine);
    SpsaState *s = malloc(sizeof *s);
    char *listing = spsa_engine_listing(o->engine, err, sizeof err);
    SpsaGamesConfig cfg = {0};
    bool ok = s && listing && prepare_state(o, listing, s, err, sizeof err) &&
              spsa_engine_check_options(o->engine, s, err, sizeof err) && games_config(o, &cfg, err, sizeof err) &&
              open_outputs(o, &cfg, err, sizeof err);
    free(listing);
    int openings = cfg.book.count;
    SpsaGames *games = ok ? spsa_games_new(&cfg, s, o->concurrency, err, sizeof err) : NULL;
    if (!games) {
        if (!ok) openings_free(&cfg.book); /* spsa_games_new frees it otherwise */
        close_outputs(&cfg);
        int rc = fail("%s", s ? err : "out of memory");
        free(s);
        return rc;
    }
    print_header(o, s, openings);
    Progress progress = {o, games, s->done, {0, 0}};
    clock_gettime(CLOCK_MONOTONIC, &progress.started);
    SpsaRunner runner = {spsa_games_play, games, report, &progress, o->concurrency, o->state};
    ok = s->done == s->iterations || spsa_state_save(s, o->state, err, sizeof err);
    ok = ok && spsa_run(s, &runner, err, sizeof err);
    spsa_games_free(games);
    close_outputs(&cfg);
    if (ok) print_summary(s, o->state);
    free(s);
    return ok ? 0 : fail("%s (the state file keeps the iterations done)", err);
}

/* --- apply and show --- */

static int cmd_apply(int argc, char **argv) {
    if (argc < 1 || argv[0][0] == '-') return fail("apply needs a state file%s", "");
    const char *in = TUONG_DEFAULT_PARAMS_HEADER, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--in"))
            in = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--out"))
            out = argv[++i];
        else
            return fail("apply: unknown or incomplete option '%s'", argv[i]);
    }
    char err[1024];
    SpsaState *s = malloc(sizeof *s);
    int changed = 0;
    bool ok = s && spsa_state_load(s, argv[0], err, sizeof err) &&
              spsa_apply_file(s, in, out ? out : in, &changed, stderr, err, sizeof err);
    if (ok)
        printf("%s: %d of %d tuned defaults changed (%d iterations, %d games)\n", out ? out : in, changed, s->count,
               s->done, stats_games(s->score));
    free(s);
    return ok ? 0 : fail("%s", err);
}

static void print_options(const SpsaState *s) {
    for (int i = 0; i < s->count; i++)
        printf("%soption.%s=%ld", i ? " " : "", s->params[i].name, lround(s->params[i].theta));
    printf("\n");
}

/* `show STATE` (a table) or `show --options STATE` (tuong-match words only). */
static int cmd_show(int argc, char **argv) {
    bool only_options = argc == 2 && !strcmp(argv[0], "--options");
    if ((argc != 1 && !only_options) || !strcmp(argv[argc - 1], "--options"))
        return fail("show needs one state file (and optionally --options first)%s", "");
    char err[1024];
    SpsaState *s = malloc(sizeof *s);
    if (!s || !spsa_state_load(s, argv[argc - 1], err, sizeof err)) {
        int rc = fail("%s", s ? err : "out of memory");
        free(s);
        return rc;
    }
    if (!only_options) {
        printf("%d/%d iterations of %d pairs, seed %" PRIu64 ", theta+ +%d =%d -%d\n", s->done, s->iterations, s->pairs,
               s->seed, s->score.wins, s->score.draws, s->score.losses);
        printf("%-22s %8s %10s %8s %8s %6s\n", "name", "start", "theta", "min", "max", "step");
        for (int i = 0; i < s->count; i++) {
            const SpsaParam *p = &s->params[i];
            printf("%-22s %8g %10.2f %8d %8d %6d\n", p->name, p->start, p->theta, p->min, p->max, p->step);
        }
        printf("as tuong-match options: ");
    }
    print_options(s);
    free(s);
    return 0;
}

int cmd_spsa(int argc, char **argv) {
    if (argc >= 1 && !strcmp(argv[0], "apply")) return cmd_apply(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "show")) return cmd_show(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "simulate")) return cmd_spsa_simulate(argc - 1, argv + 1);
    SpsaOptions *o = malloc(sizeof *o);
    if (!o) return fail("out of memory%s", "");
    int rc = parse_args(o, argc, argv);
    if (rc == 0)
        rc = run(o);
    else if (rc == 1)
        rc = 0; /* --help */
    free(o);
    return rc;
}
