// SPDX-License-Identifier: GPL-3.0-or-later
/* Sharded matches (bench/match/results.h): three shards merged give the
 * report of the one-machine run with -concurrency 1 and its games in game
 * order; the result file's parser refuses cut and malformed files; merge
 * refuses missing, duplicated, foreign and truncated shards by name. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "results.h"

static char Dir[512];
static char Output[1 << 16];

static const char *path_of(const char *name) {
    static char paths[8][700];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", Dir, name);
    return p;
}

/* tuong-match ARGS with stdout to Output (stderr to Dir/stderr). */
static int match(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s/tuong-match %s 2>'%s/stderr'", TUONG_BUILD_DIR, args, Dir);
    return run_command(cmd, Output, sizeof Output);
}

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* stderr is one line containing want. */
static void expect_error(const char *want) {
    size_t n;
    char *text = slurp(path_of("stderr"), &n);
    char *nl = strchr(text, '\n');
    if (!strstr(text, want) || !nl || nl[1]) fail_msg("stderr '%s' is not one line with '%s'", text, want);
    free(text);
}

/* PGN text without what the clock decides: the Date tag and the seconds
 * in the move comments; blanks and line breaks folded to one space. */
static void normalise_pgn(char *s) {
    char *out = s;
    for (char *p = s; *p;) {
        if (!strncmp(p, "[Date \"", 7)) {
            char *nl = strchr(p, '\n');
            p = nl ? nl + 1 : p + strlen(p);
            continue;
        }
        if (*p == ' ' && p[1] >= '0' && p[1] <= '9') { /* " 0.01s}" */
            char *q = p + 1;
            while (*q >= '0' && *q <= '9')
                q++;
            if (*q == '.') {
                char *r = q + 1;
                while (*r >= '0' && *r <= '9')
                    r++;
                if (r[0] == 's' && r[1] == '}') {
                    p = r + 1;
                    continue;
                }
            }
        }
        if (*p == ' ' || *p == '\n') {
            if (out == s || out[-1] != ' ') *out++ = ' ';
            p++;
            continue;
        }
        *out++ = *p++;
    }
    *out = '\0';
}

static char Common[3000];

static void sharded_match_merges_into_the_whole_match(void **state) {
    (void)state;
    snprintf(Common, sizeof Common,
             "-engine name=a cmd=%s -engine name=b cmd=%s option.Hash=8 -each proto=uci option.Hash=16 "
             "-openings %s/openings/xiangqi.epd -order random -seed 3 -games 8 -depth 2 -maxplies 100 "
             "-sprt elo0=0 elo1=300 alpha=0.3 beta=0.3 -quiet",
             TUONG_BINARY, TUONG_BINARY, TUONG_DATA_DIR);
    char args[4096];
    remove(path_of("whole.pgn"));
    snprintf(args, sizeof args, "%s -concurrency 1 -pgnout '%s'", Common, path_of("whole.pgn"));
    assert_int_equal(match(args), 0);
    char *whole_report = strdup(strstr(Output, "\n=== "));
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "%s -concurrency 2 -shard %d/3 -results '%s/r%d.txt'", Common, k, Dir, k);
        assert_int_equal(match(args), 0);
    }
    remove(path_of("merged.pgn"));
    snprintf(args, sizeof args, "merge -pgnout '%s' '%s' '%s' '%s'", path_of("merged.pgn"), path_of("r1.txt"),
             path_of("r2.txt"), path_of("r0.txt"));
    assert_int_equal(match(args), 0);
    assert_string_equal(Output, whole_report);
    size_t n;
    char *a = slurp(path_of("whole.pgn"), &n), *b = slurp(path_of("merged.pgn"), &n);
    normalise_pgn(a);
    normalise_pgn(b);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(whole_report);
}

static void merge_refuses_bad_sets(void **state) {
    (void)state;
    char args[4096];
    snprintf(args, sizeof args, "merge '%s' '%s'", path_of("r0.txt"), path_of("r1.txt"));
    assert_int_equal(match(args), 1);
    expect_error("shard 2/3 is missing");
    snprintf(args, sizeof args, "merge '%s' '%s' '%s'", path_of("r0.txt"), path_of("r0.txt"), path_of("r2.txt"));
    assert_int_equal(match(args), 1);
    expect_error("r0.txt are both shard 0/3");
    snprintf(args, sizeof args, "%s -seed 4 -shard 2/3 -results '%s/other.txt'", Common, Dir);
    assert_int_equal(match(args), 0);
    snprintf(args, sizeof args, "merge '%s' '%s' '%s'", path_of("r0.txt"), path_of("r1.txt"), path_of("other.txt"));
    assert_int_equal(match(args), 1);
    expect_error("other.txt is a shard of another run");
    size_t n;
    char *text = slurp(path_of("r2.txt"), &n);
    FILE *f = fopen(path_of("cut.txt"), "wb");
    fwrite(text, 1, n - 10, f);
    fclose(f);
    free(text);
    snprintf(args, sizeof args, "merge '%s' '%s' '%s'", path_of("r0.txt"), path_of("r1.txt"), path_of("cut.txt"));
    assert_int_equal(match(args), 1);
    expect_error("cut.txt: truncated");
    snprintf(args, sizeof args, "%s -shard 0/3", Common);
    assert_int_equal(match(args), 2);
    expect_error("-shard needs -results");
}

/* A match carried over sessions: merge -prefix reports the shards played so
 * far as the match of their games, and says which shard comes next. */
static void merge_prefix_reports_the_games_so_far(void **state) {
    (void)state;
    char common[3000], args[4096];
    snprintf(common, sizeof common,
             "-engine name=a cmd=%s -engine name=b cmd=%s -each proto=uci option.Hash=16 "
             "-openings %s/openings/xiangqi.epd -order random -seed 5 -games 6 -depth 1 -maxplies 60 -quiet",
             TUONG_BINARY, TUONG_BINARY, TUONG_DATA_DIR);
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "%s -concurrency 1 -shard %d/3 -results '%s/p%d.txt'", common, k, Dir, k);
        assert_int_equal(match(args), 0);
    }
    snprintf(args, sizeof args, "merge -prefix '%s' '%s'", path_of("p1.txt"), path_of("p0.txt"));
    assert_int_equal(match(args), 0);
    assert_non_null(strstr(Output, "=== 4 games, depth 1 ==="));
    assert_non_null(strstr(Output, "a vs b: games 4, "));
    assert_non_null(strstr(Output, "\nPrefix: shards 0-1 of 3, games 1-4 of 6; shard 2/3 comes next\n"));
    /* All three: the whole match, no prefix line. */
    snprintf(args, sizeof args, "merge -prefix '%s' '%s' '%s'", path_of("p0.txt"), path_of("p1.txt"),
             path_of("p2.txt"));
    assert_int_equal(match(args), 0);
    assert_non_null(strstr(Output, "a vs b: games 6, "));
    assert_null(strstr(Output, "Prefix:"));
    /* A gap is refused. */
    snprintf(args, sizeof args, "merge -prefix '%s' '%s'", path_of("p0.txt"), path_of("p2.txt"));
    assert_int_equal(match(args), 1);
    expect_error("shard 1/3 is missing: a prefix is shards 0 to 1/3 without a gap");
}

static bool parses(const char *text, char *err, size_t errlen) {
    MatchResults r;
    bool ok = results_parse(text, strlen(text), &r, err, errlen);
    results_free(&r);
    return ok;
}

static void parser_refuses_bad_files(void **state) {
    (void)state;
    const char *head = "tuong-match-results 1\nrun 00000000000000ff shard 1/2 games 4 first 2 count 2\nengines 2\n"
                       "engine a\nengine b\ntc depth 2\ntimed 0 margin 500\nsprt 0 0 5 0.05 0.05\n";
    char text[2048], err[300];
    snprintf(text, sizeof text, "%sgame 3 1 0 0 0 0 4\nreason x\nPGN\ngame 2 3 0 0 0 0 0\nreason y\nend 2\n", head);
    assert_true(parses(text, err, sizeof err));
    struct {
        const char *body, *why;
    } bad[] = {
        {"game 3 1 0 0 0 0 4\nreason x\nPGN\n", "no end line"},
        {"game 3 1 0 0 0 0 4\nreason x\nPGN\nend 1\n", "truncated"},
        {"game 3 1 0 0 0 0 4\nreason x\nPGN\ngame 3 1 0 0 0 0 0\nreason x\nend 2\n", "twice"},
        {"game 1 1 0 0 0 0 0\nreason x\nend 1\n", "not in this shard"},
        {"game 3 7 0 0 0 0 0\nreason x\nend 1\n", "bad result"},
        {"game 3 1 0 0 0 0 99\nreason x\nPGN\n", "cut short"},
        {"game 3 1 0 0 0 0 0\nend 1\n", "no reason line"},
        {"game 3 1 0 0 0 0 0\nreason x\ngame 2 1 0 0 0 0 0\nreason y\nend 2\nextra", "after the end line"},
        {"nonsense\n", "neither"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i].body);
        assert_false(parses(text, err, sizeof err));
        if (!strstr(err, bad[i].why)) fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].why);
    }
    assert_false(parses("tuong-match-results 2\n", err, sizeof err));
    assert_false(parses("tuong-match-results 1\nrun 1 shard 1/2 games 4 first 0 count 2\n", err, sizeof err));
    assert_non_null(strstr(err, "holds games 2..3"));
    assert_false(parses("", err, sizeof err));
}

static SprtModel model_of(const char *sprt_line) {
    char text[1024], err[300];
    snprintf(text, sizeof text,
             "tuong-match-results 1\nrun 00000000000000ff shard 0/1 games 1 first 0 count 1\nengines 2\n"
             "engine a\nengine b\ntc depth 2\ntimed 0 margin 500\n%s\ngame 0 3 0 0 0 0 0\nreason x\nend 1\n",
             sprt_line);
    MatchResults r;
    bool ok = results_parse(text, strlen(text), &r, err, sizeof err);
    SprtModel m = r.tally.sprt.model;
    results_free(&r);
    if (!ok) fail_msg("'%s' refused: %s", sprt_line, err);
    return m;
}

/* Files written before the pentanomial model name none and stay
 * trinomial; a model is read as written, an unknown one refused. */
static void sprt_model_in_the_header(void **state) {
    (void)state;
    assert_int_equal(model_of("sprt 1 0 10 0.05 0.05"), SPRT_TRINOMIAL);
    assert_int_equal(model_of("sprt 1 0 10 0.05 0.05 model pentanomial"), SPRT_PENTANOMIAL);
    assert_int_equal(model_of("sprt 1 0 10 0.05 0.05 model trinomial"), SPRT_TRINOMIAL);
    const char *bad[] = {"sprt 1 0 10 0.05 0.05 model binomial", "sprt 1 0 10 0.05 0.05 model",
                         "sprt 1 0 10 0.05 0.05 model pentanomial x", "sprt 1 0 10 0.05 0.05 pentanomial"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[1024], err[300];
        snprintf(text, sizeof text,
                 "tuong-match-results 1\nrun 00000000000000ff shard 0/1 games 1 first 0 count 1\nengines 2\n"
                 "engine a\nengine b\ntc depth 2\ntimed 0 margin 500\n%s\ngame 0 3 0 0 0 0 0\nreason x\nend 1\n",
                 bad[i]);
        assert_false(parses(text, err, sizeof err));
        if (!strstr(err, "sprt 0|1")) fail_msg("'%s': '%s'", bad[i], err);
    }
}

/* The report says which model decided and counts the game pairs. */
static void report_names_the_model_and_the_pairs(void **state) {
    (void)state;
    char args[4096];
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args,
                 "-engine name=a cmd=%s -engine name=b cmd=%s -each proto=uci option.Hash=16 "
                 "-openings %s/openings/xiangqi.epd -order random -seed 5 -games 4 -depth 1 -maxplies 40 "
                 "-sprt elo0=0 elo1=300 alpha=0.3 beta=0.3%s -quiet -concurrency 1",
                 TUONG_BINARY, TUONG_BINARY, TUONG_DATA_DIR, k ? " model=trinomial" : "");
        assert_int_equal(match(args), 0);
        if (!strstr(Output, k ? ", trinomial: LLR" : ", pentanomial: LLR")) fail_msg("report: %s", Output);
        if (!strstr(Output, "Game pairs by a's points 0, 1/2, 1, 3/2, 2: ")) fail_msg("report: %s", Output);
    }
    snprintf(args, sizeof args, "-engine name=a cmd=%s -engine name=b cmd=%s -sprt elo0=0 elo1=5 model=binomial",
             TUONG_BINARY, TUONG_BINARY);
    assert_int_not_equal(match(args), 0);
    expect_error("model=pentanomial|trinomial");
}

static int setup(void **state) {
    (void)state;
    snprintf(Dir, sizeof Dir, "%s/test_match_results.d", TUONG_BUILD_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", Dir, Dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parser_refuses_bad_files),
        cmocka_unit_test(sprt_model_in_the_header),
        cmocka_unit_test(report_names_the_model_and_the_pairs),
        cmocka_unit_test(sharded_match_merges_into_the_whole_match),
        cmocka_unit_test(merge_refuses_bad_sets),
        cmocka_unit_test(merge_prefix_reports_the_games_so_far),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
