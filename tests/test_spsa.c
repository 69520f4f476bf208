// SPDX-License-Identifier: GPL-3.0-or-later
/* The SPSA tuner (bench/tune/spsa*.c): it finds the known optimum of a
 * noisy synthetic match, its state file survives a round trip and an
 * interruption, corrupt state files are refused, `apply` changes only the
 * defaults of search_params.h, and the command line refuses an engine that
 * is not a tuning build. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_params.h"
#include "spsa.h"
#include "zobrist.h"

enum { SYN_MAX = 4 };

/* A match whose expected score follows the logistic Elo curve of
 *   strength(theta) = -elo * sum(((theta_i - optimum_i) / scale_i)^2),
 * with a fixed share of draws; the noise comes from the iteration's seed. */
typedef struct {
    double optimum[SYN_MAX], scale[SYN_MAX], elo, draw;
    int fail_at; /* iteration that reports a failure (-1: none) */
} Synthetic;

static double strength(const Synthetic *syn, const int *v, int count) {
    double f = 0;
    for (int i = 0; i < count; i++) {
        double d = (v[i] - syn->optimum[i]) / syn->scale[i];
        f -= syn->elo * d * d;
    }
    return f;
}

static bool synthetic_play(void *ctx, const SpsaMatch *m, Score3 *r, char *err, size_t errlen) {
    const Synthetic *syn = ctx;
    if (m->iteration == syn->fail_at) return snprintf(err, errlen, "synthetic failure"), false;
    double diff = strength(syn, m->plus, m->count) - strength(syn, m->minus, m->count);
    double p = 1 / (1 + pow(10, -diff / 400));
    uint64_t st = m->seed;
    *r = (Score3){0, 0, 0};
    for (int g = 0; g < 2 * m->pairs; g++) {
        double u = (double)(prng_next(&st) >> 11) * 0x1.0p-53;
        if (u < syn->draw)
            r->draws++;
        else if (u < syn->draw + (1 - syn->draw) * p)
            r->wins++;
        else
            r->losses++;
    }
    return true;
}

/* Three parameters, each started 5 to 8 steps from its optimum. */
static const Synthetic Syn = {{140, 20, 9}, {20, 8, 6}, 60, 0.3, -1};

static void synthetic_state(SpsaState *s, int iterations, double r_end) {
    memset(s, 0, sizeof *s);
    const SpsaParam p[] = {
        {"ALPHA_MARGIN", 100, 100, 0, 300, 5}, {"BETA_DIV", 36, 36, 0, 100, 2}, {"GAMMA_PLY", -15, -15, -50, 50, 3}};
    s->count = 3;
    memcpy(s->params, p, sizeof p);
    s->iterations = iterations;
    s->pairs = 1;
    s->seed = 2026;
    s->alpha = SPSA_ALPHA;
    s->gamma = SPSA_GAMMA;
    s->A = SPSA_A_FRACTION * iterations;
    spsa_schedule(s, r_end, SPSA_C_END);
}

static double distance_in_steps(const SpsaState *s, int i) {
    return fabs(s->params[i].theta - Syn.optimum[i]) / s->params[i].step;
}

static void run_synthetic(SpsaState *s, const Synthetic *syn, int concurrency, const char *state_path, bool expect_ok) {
    SpsaRunner r = {synthetic_play, (void *)syn, NULL, NULL, concurrency, state_path};
    char err[512] = "";
    bool ok = spsa_run(s, &r, err, sizeof err);
    if (ok != expect_ok) fail_msg("spsa_run returned %d: %s", ok, err);
}

static void finds_the_optimum_of_a_synthetic_match(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    synthetic_state(s, 3000, 0.02);
    for (int i = 0; i < 3; i++)
        assert_true(distance_in_steps(s, i) >= 5);
    run_synthetic(s, &Syn, 1, NULL, true);
    assert_int_equal(s->done, 3000);
    assert_int_equal(stats_games(s->score), 6000);
    for (int i = 0; i < 3; i++)
        if (distance_in_steps(s, i) > 1.5)
            fail_msg("%s ended at %.2f, %.2f steps from the optimum %.0f", s->params[i].name, s->params[i].theta,
                     distance_in_steps(s, i), Syn.optimum[i]);
    free(s);
}

static void finds_it_with_two_workers_too(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    synthetic_state(s, 3000, 0.02);
    run_synthetic(s, &Syn, 2, NULL, true);
    assert_int_equal(s->done, 3000);
    for (int i = 0; i < 3; i++)
        assert_true(distance_in_steps(s, i) <= 2.0);
    free(s);
}

static void theta_stays_in_range_and_points_are_rounded(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    synthetic_state(s, 100, 0.002);
    s->params[0].theta = 299.6; /* near the top of [0, 300] */
    s->params[2].theta = -49.7; /* near the bottom of [-50, 50] */
    signed char flip[SPSA_MAX_PARAMS];
    int plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS];
    spsa_flips(s, 0, flip);
    int ups = 0;
    for (int k = 0; k < 64; k++) {
        signed char f[SPSA_MAX_PARAMS];
        spsa_flips(s, k, f);
        ups += f[0] == 1;
    }
    assert_in_range(ups, 16, 48); /* fair coins, not a constant */
    spsa_point(s, 0, flip, 1, plus);
    spsa_point(s, 0, flip, -1, minus);
    double ck = spsa_gain_c(s, 0);
    for (int i = 0; i < 3; i++) {
        const SpsaParam *p = &s->params[i];
        assert_true(flip[i] == 1 || flip[i] == -1);
        assert_true(plus[i] >= p->min && plus[i] <= p->max && minus[i] >= p->min && minus[i] <= p->max);
        double want = fmin(p->max, fmax(p->min, p->theta + ck * p->step * flip[i]));
        assert_int_equal(plus[i], (int)lround(want));
    }
    /* theta+ always wins: theta follows the flips, and stops at the ends. */
    flip[0] = 1;
    flip[2] = -1;
    double before = s->params[1].theta;
    for (int k = 0; k < 100; k++)
        spsa_update(s, k, flip, (Score3){2, 0, 0});
    assert_true(s->params[0].theta == 300);
    assert_true(s->params[2].theta == -50);
    assert_true(flip[1] == 1 ? s->params[1].theta > before : s->params[1].theta < before);
    assert_int_equal(s->done, 100);
    free(s);
}

static void temp_path(char *out, size_t size, const char *name) {
    snprintf(out, size, "%s/test_spsa_%s", TUONG_BUILD_DIR, name);
    remove(out);
}

static void state_file_round_trip(void **state) {
    (void)state;
    char path[1024], err[512];
    temp_path(path, sizeof path, "roundtrip.state");
    SpsaState *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    synthetic_state(a, 500, 0.01);
    run_synthetic(a, &Syn, 1, NULL, true);
    a->params[1].theta = 1.0 / 3.0; /* needs all 17 digits */
    assert_true(spsa_state_save(a, path, err, sizeof err));
    if (!spsa_state_load(b, path, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(b->count, a->count);
    assert_int_equal(b->done, 500);
    assert_int_equal(b->iterations, a->iterations);
    assert_int_equal(b->pairs, a->pairs);
    assert_true(b->seed == a->seed);
    assert_true(b->a == a->a && b->c == a->c && b->A == a->A && b->alpha == a->alpha && b->gamma == a->gamma);
    assert_memory_equal(&b->score, &a->score, sizeof a->score);
    for (int i = 0; i < a->count; i++) {
        assert_string_equal(b->params[i].name, a->params[i].name);
        assert_true(b->params[i].theta == a->params[i].theta); /* the same bits */
        assert_true(b->params[i].start == a->params[i].start);
        assert_int_equal(b->params[i].min, a->params[i].min);
        assert_int_equal(b->params[i].max, a->params[i].max);
        assert_int_equal(b->params[i].step, a->params[i].step);
    }
    FILE *tmp = fopen(path, "r");
    assert_non_null(tmp); /* and no temporary left beside it */
    fclose(tmp);
    char leftover[1100];
    snprintf(leftover, sizeof leftover, "%s.tmp", path);
    assert_null(fopen(leftover, "r"));
    remove(path);
    free(a);
    free(b);
}

static void resumed_run_ends_where_the_straight_run_does(void **state) {
    (void)state;
    char path[1024], err[512];
    temp_path(path, sizeof path, "resume.state");
    SpsaState *straight = malloc(sizeof *straight), *resumed = malloc(sizeof *resumed);
    synthetic_state(straight, 400, 0.02);
    run_synthetic(straight, &Syn, 1, NULL, true);

    /* The same run interrupted by a failure in iteration 150... */
    synthetic_state(resumed, 400, 0.02);
    Synthetic failing = Syn;
    failing.fail_at = 150;
    run_synthetic(resumed, &failing, 1, path, false);
    assert_int_equal(resumed->done, 150);
    /* ...and continued from its state file. */
    memset(resumed, 0, sizeof *resumed);
    if (!spsa_state_load(resumed, path, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(resumed->done, 150);
    run_synthetic(resumed, &Syn, 1, path, true);
    assert_int_equal(resumed->done, 400);
    assert_memory_equal(&resumed->score, &straight->score, sizeof straight->score);
    for (int i = 0; i < straight->count; i++)
        assert_true(resumed->params[i].theta == straight->params[i].theta);
    /* The file holds the end state too. */
    if (!spsa_state_load(resumed, path, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(resumed->done, 400);
    for (int i = 0; i < straight->count; i++)
        assert_true(resumed->params[i].theta == straight->params[i].theta);
    remove(path);
    free(straight);
    free(resumed);
}

/* A valid state text to break in various ways. */
static const char GoodState[] = "tuong-spsa-state 1\n"
                                "# comment\n"
                                "iterations 10\ndone 2\npairs 1\nseed 7\n"
                                "alpha 0.602\ngamma 0.101\nA 1\na 0.01\nc 1.2\n"
                                "score 1 2 1\n"
                                "param RFP_MARGIN 35.5 34 10 80 4\n"
                                "end\n";

static void refuses_corrupt_or_foreign_state(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    char err[512];
    assert_true(spsa_state_parse(s, GoodState, "good", err, sizeof err));
    assert_true(s->params[0].theta == 35.5);
    const struct {
        const char *from, *to, *says;
    } breaks[] = {
        {"tuong-spsa-state 1", "# tuong-tune weights", "not a tuong-tune spsa state file"},
        {"tuong-spsa-state 1", "tuong-spsa-state 2", "not a tuong-tune spsa state file"},
        {"end\n", "", "truncated"},
        {"param RFP_MARGIN 35.5", "param RFP_MARGIN 3x.5", "bad number"},
        {"param RFP_MARGIN 35.5", "param RFP_MARGIN 95.5", "outside its range"},
        {"score 1 2 1", "score 1 2 2", "games"},
        {"done 2", "done 11", "do not fit"},
        {"seed 7", "seed 7\nseed 8", "twice"},
        {"pairs 1\n", "", "no 'pairs' line"},
        {"a 0.01", "a -0.01", "positive"},
        {"c 1.2", "c nan", "bad value for c"},
        {"gamma 0.101", "gamma 0.101\nbeta 2", "unknown line"},
        {"end\n", "end\nparam X 1 1 0 2 1\n", "after 'end'"},
        {"param RFP_MARGIN 35.5 34 10 80 4", "param RFP_MARGIN 35.5 34 10 80 4\nparam RFP_MARGIN 35.5 34 10 80 4",
         "twice"},
    };
    for (size_t i = 0; i < sizeof breaks / sizeof breaks[0]; i++) {
        char text[1024];
        const char *at = strstr(GoodState, breaks[i].from);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - GoodState), GoodState, breaks[i].to,
                 at + strlen(breaks[i].from));
        err[0] = '\0';
        if (spsa_state_parse(s, text, "bad.state", err, sizeof err)) fail_msg("accepted break %zu", i);
        if (!strstr(err, breaks[i].says) || strncmp(err, "bad.state", 9))
            fail_msg("break %zu: message '%s' lacks '%s'", i, err, breaks[i].says);
        assert_null(strchr(err, '\n')); /* one line */
    }
    assert_false(spsa_state_parse(s, "", "empty", err, sizeof err));
    assert_false(spsa_state_load(s, "/nonexistent/spsa.state", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/spsa.state"));
    free(s);
}

/* The engine's own listing, as `tuong params` prints it. */
static char *params_listing(void) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    params_print(f);
    fclose(f);
    return text;
}

static void selects_parameters_by_glob(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    char *listing = params_listing(), err[512];
    assert_true(spsa_params_select(s, listing, NULL, err, sizeof err));
    assert_int_equal(s->count, SearchParamCount);
    assert_true(spsa_params_select(s, listing, "LMR_*,RFP_MARGIN", err, sizeof err));
    int lmr = 0;
    for (int i = 0; i < SearchParamCount; i++)
        lmr += !strncmp(SearchParams[i].name, "LMR_", 4);
    assert_int_equal(s->count, lmr + 1);
    const SearchParam *rfp = params_find("RFP_MARGIN");
    assert_string_equal(s->params[0].name, "RFP_MARGIN"); /* the listing's order */
    assert_true(s->params[0].theta == rfp->def && s->params[0].start == rfp->def);
    assert_int_equal(s->params[0].min, rfp->min);
    assert_int_equal(s->params[0].step, rfp->step);
    int tm = 0;
    for (int i = 0; i < SearchParamCount; i++)
        tm += !strncmp(SearchParams[i].name, "TM_", 3);
    assert_true(tm > 0);
    assert_true(spsa_params_select(s, listing, "-TM_*", err, sizeof err)); /* all but */
    assert_int_equal(s->count, SearchParamCount - tm);
    for (int i = 0; i < s->count; i++)
        assert_true(strncmp(s->params[i].name, "TM_", 3));
    assert_true(spsa_params_select(s, listing, "LMR_*,-LMR_PV", err, sizeof err));
    assert_int_equal(s->count, lmr - 1);
    assert_false(spsa_params_select(s, listing, "LMR_PV,-LMR_*", err, sizeof err));
    assert_non_null(strstr(err, "leaves no parameter"));
    assert_false(spsa_params_select(s, listing, "LMR_*,NO_SUCH_*", err, sizeof err));
    assert_non_null(strstr(err, "NO_SUCH_*"));
    assert_false(spsa_params_select(s, "RFP_MARGIN,34,10\n", NULL, err, sizeof err));
    free(listing);
    free(s);
}

/* Text of engine/search_params.h from the source tree. */
static char *params_header(void) {
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/engine/search_params.h", TUONG_SOURCE_DIR);
    char *text = spsa_read_file(path, err, sizeof err);
    if (!text) fail_msg("%s", err);
    return text;
}

static int line_count(const char *text) {
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* The n-th line (0-based) of text, copied into out. */
static void nth_line(const char *text, int n, char *out, size_t size) {
    while (n-- > 0)
        text = strchr(text, '\n') + 1;
    snprintf(out, size, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Read the X line of name in text: its default, min, max, step. */
static bool find_xline(const char *text, const char *name, long f[4]) {
    char want[80];
    snprintf(want, sizeof want, "X(%s,", name);
    const char *at = strstr(text, want);
    return at && sscanf(at + strlen(want), " %ld, %ld, %ld, %ld)", &f[0], &f[1], &f[2], &f[3]) == 4;
}

static void set_theta(SpsaState *s, const char *name, double theta) {
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->params[i].name, name)) {
            s->params[i].theta = theta;
            return;
        }
    fail_msg("no parameter %s", name);
}

static void apply_rewrites_only_the_defaults(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    char *listing = params_listing(), *header = params_header(), err[512];
    assert_true(spsa_params_select(s, listing, "RFP_MARGIN,LMR_BASE,QS_SEE_MARGIN,NMP_BASE", err, sizeof err));
    set_theta(s, "RFP_MARGIN", 41.4);
    set_theta(s, "LMR_BASE", 1234.6);     /* a digit more */
    set_theta(s, "QS_SEE_MARGIN", -12.5); /* negative; NMP_BASE stays */
    int changed = -1;
    char *out = spsa_apply_text(s, header, &changed, NULL, err, sizeof err);
    if (!out) fail_msg("%s", err);
    assert_int_equal(changed, 3);
    long f[4], g[4];
    assert_true(find_xline(out, "RFP_MARGIN", f) && f[0] == 41);
    assert_true(find_xline(out, "LMR_BASE", f) && f[0] == 1235);
    assert_true(find_xline(out, "QS_SEE_MARGIN", f) && f[0] == -13);
    /* Line by line: the same lines, same lengths (columns kept), and the
     * only differences are inside the default field of those three. */
    assert_int_equal(line_count(out), line_count(header));
    int differing = 0;
    for (int i = 0; i < line_count(header); i++) {
        char a[512], b[512];
        nth_line(header, i, a, sizeof a);
        nth_line(out, i, b, sizeof b);
        if (!strcmp(a, b)) continue;
        differing++;
        assert_int_equal(strlen(a), strlen(b));
        const char *name = strstr(a, "X(") + 2;
        char n[64];
        snprintf(n, sizeof n, "%.*s", (int)strcspn(name, ","), name);
        assert_true(find_xline(header, n, f) && find_xline(out, n, g));
        assert_true(f[1] == g[1] && f[2] == g[2] && f[3] == g[3]);                             /* min, max, step kept */
        assert_string_equal(strchr(strchr(a, ',') + 1, ','), strchr(strchr(b, ',') + 1, ',')); /* tail kept */
    }
    assert_int_equal(differing, 3);
    /* A second run with the same values changes nothing... */
    char *again = spsa_apply_text(s, out, &changed, NULL, err, sizeof err);
    assert_int_equal(changed, 0);
    assert_string_equal(again, out);
    /* ...and the start values give back the original bytes. */
    for (int i = 0; i < s->count; i++)
        s->params[i].theta = s->params[i].start;
    char *back = spsa_apply_text(s, out, &changed, NULL, err, sizeof err);
    assert_int_equal(changed, 3);
    assert_string_equal(back, header);
    free(again);
    free(back);
    free(out);
    free(listing);
    free(header);
    free(s);
}

static void apply_grows_a_narrow_field_and_needs_every_parameter(void **state) {
    (void)state;
    SpsaState *s = malloc(sizeof *s);
    char err[512];
    int changed;
    assert_true(spsa_params_select(s, "FOO,1,0,100000,1\n", NULL, err, sizeof err));
    s->params[0].theta = 12345;
    char *out =
        spsa_apply_text(s, "  X(FOO, 1, 0, 100000, 1) \\\n  X(BAR, 2, 0, 9, 1)\n", &changed, NULL, err, sizeof err);
    assert_non_null(out);
    assert_string_equal(out, "  X(FOO, 12345, 0, 100000, 1) \\\n  X(BAR, 2, 0, 9, 1)\n");
    free(out);
    assert_null(spsa_apply_text(s, "  X(BAR, 2, 0, 9, 1)\n", &changed, NULL, err, sizeof err));
    assert_non_null(strstr(err, "FOO"));
    free(s);
}

static void apply_file_rewrites_a_copy(void **state) {
    (void)state;
    char copy[1024], err[512];
    temp_path(copy, sizeof copy, "search_params.h");
    char *header = params_header(), *listing = params_listing();
    assert_true(spsa_write_atomic(copy, header, strlen(header), err, sizeof err));
    SpsaState *s = malloc(sizeof *s);
    assert_true(spsa_params_select(s, listing, NULL, err, sizeof err));
    int changed = -1;
    assert_true(spsa_apply_file(s, copy, copy, &changed, NULL, err, sizeof err));
    assert_int_equal(changed, 0); /* tuned values equal to the defaults: the same bytes */
    char *text = spsa_read_file(copy, err, sizeof err);
    assert_string_equal(text, header);
    free(text);
    remove(copy);
    free(s);
    free(listing);
    free(header);
}

/* Run tuong-tune with args (stderr folded in); its exit status. */
static char Output[1 << 16];
static int run_tool(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s/tuong-tune %s 2>&1", TUONG_BUILD_DIR, args);
    return run_command(cmd, Output, sizeof Output);
}

static void command_line_checks_engine_and_state(void **state) {
    (void)state;
    char path[1024], args[4096];
    temp_path(path, sizeof path, "cli.state");
    snprintf(args, sizeof args, "spsa --engine %s --state %s --iterations 2 --nodes 300 --concurrency 2 --params RFP_*",
             TUONG_BINARY, path);
    int rc = run_tool(args);
    if (!params_tunable()) {
        /* A normal build ignores the options: refuse it, say why, write nothing. */
        assert_int_equal(rc, 2);
        assert_non_null(strstr(Output, "is not a tuning build"));
        assert_null(fopen(path, "r"));
    } else {
        if (rc != 0) fail_msg("tuong-tune spsa failed (%d):\n%s", rc, Output);
        assert_non_null(strstr(Output, "iter 2/2 games 4"));
        SpsaState *s = malloc(sizeof *s);
        char err[512];
        if (!spsa_state_load(s, path, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(s->done, 2);
        free(s);
        /* A second start without --resume would overwrite it: refused. */
        assert_int_equal(run_tool(args), 2);
        assert_non_null(strstr(Output, "--resume"));
        remove(path);
    }
    /* apply and show refuse a corrupt state with one line. */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("tuong-spsa-state 1\niterations 10\n", f);
    fclose(f);
    snprintf(args, sizeof args, "spsa show %s", path);
    assert_int_equal(run_tool(args), 2);
    assert_non_null(strstr(Output, "truncated"));
    snprintf(args, sizeof args, "spsa apply %s --out %s.h", path, path);
    assert_int_equal(run_tool(args), 2);
    assert_int_equal((int)(strchr(Output, '\n') - Output + 1), (int)strlen(Output));
    remove(path);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_the_optimum_of_a_synthetic_match),
        cmocka_unit_test(finds_it_with_two_workers_too),
        cmocka_unit_test(theta_stays_in_range_and_points_are_rounded),
        cmocka_unit_test(state_file_round_trip),
        cmocka_unit_test(resumed_run_ends_where_the_straight_run_does),
        cmocka_unit_test(refuses_corrupt_or_foreign_state),
        cmocka_unit_test(selects_parameters_by_glob),
        cmocka_unit_test(apply_rewrites_only_the_defaults),
        cmocka_unit_test(apply_grows_a_narrow_field_and_needs_every_parameter),
        cmocka_unit_test(apply_file_rewrites_a_copy),
        cmocka_unit_test(command_line_checks_engine_and_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
