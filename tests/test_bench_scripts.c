// SPDX-License-Identifier: GPL-3.0-or-later
/* The analysis scripts of bench/scripts on inputs whose answers are known:
 * decided_at.awk on a small hand-made PGN (tests/data/scripts/decided.pgn:
 * four games, one without the engine, comments wrapped over lines, Black
 * to move first in one), levels_fit.awk on a three-level ladder. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs cmd through the shell; its stdout (and stderr) into out. Returns the exit code. */
static int run(const char *cmd, char *out, size_t outlen) {
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* decided_at.awk with args on the fixture PGN (stderr too); its exit code. */
static int decided_at(const char *args, char *out, size_t outlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "awk -f '%s/bench/scripts/decided_at.awk' %s '%s/scripts/decided.pgn' 2>&1",
             TUONG_SOURCE_DIR, args, TUONG_DATA_DIR);
    return run(cmd, out, outlen);
}

/* levels_fit.awk with level 0 held at 1000 on ladder rows (no single quotes); its exit code. */
static int levels_fit(const char *rows, char *out, size_t outlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "printf '%%s' '%s' | awk -f '%s/bench/scripts/levels_fit.awk' -v anchor=0 -v elo=1000 2>&1", rows,
             TUONG_SOURCE_DIR);
    return run(cmd, out, outlen);
}

static void test_decided_at_finds_the_deciding_moves(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("-v engine=A -v band=5", out, sizeof out), 0);
    /* Game 1: A wins, its score stays >= 150 from its 4th move (the 3rd fell back to 100).
     * Game 2: A loses, <= -150 from its 6th move; it had led by 160 on its 2nd.
     * Game 3: a draw A had led by 200 (Black, A, moves first). Game 4: C vs D, not counted. */
    const char *want = "A: 3 games, 1 wins, 1 draws, 1 losses; decided at a margin of 150\n"
                       "moves       wins losses\n"
                       "1-5            1      0\n"
                       "6-10           0      1\n"
                       "never          0      0\n"
                       "led by 150 and did not win: 1 draws, 1 losses\n";
    assert_string_equal(out, want);
}

/* A larger margin: game 2's lead of 160 no longer counts, and game 1 is decided later. */
static void test_decided_at_margin(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("-v engine=A -v margin=250 -v band=5", out, sizeof out), 0);
    assert_non_null(strstr(out, "1-5            1      0\n")); /* game 1 from its 4th move (+300) */
    assert_non_null(strstr(out, "6-10           0      1\n")); /* game 2 from its 8th (-29990) */
    assert_non_null(strstr(out, "led by 250 and did not win: 0 draws, 0 losses\n"));
}

static void test_decided_at_needs_an_engine(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("", out, sizeof out), 2);
    assert_string_equal(out, "decided_at: error: give -v engine=NAME\n");
}

/* Three pairings of three levels with equal intervals: the least squares
 * with level 0 held at 1000 has the solution 1110 and 1220 (the steps 100
 * and 100 against 230 for the two together share the 30), each level
 * within 1.96 * sqrt(2/3) * 50 / 1.96 = 41. */
static void test_levels_fit_solves_the_least_squares(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(levels_fit("| 0 vs 1 | 200 | +1 =0 -1 | 100 \302\261 50 | L1 100 |\n"
                                "| 1 vs 2 | 200 | +1 =0 -1 | 100 \302\261 50 | L2 200 |\n"
                                "| 0 vs 2 | 200 | +1 =0 -1 | 230 \302\261 50 | L2 230 |\n",
                                out, sizeof out),
                     0);
    assert_string_equal(out, "0 1000 \302\261 0 (anchor)\n1 1110 \302\261 41\n2 1220 \302\261 41\n");
}

/* A level that no pairing links to the anchor has no Elo: an error, not a guess. */
static void test_levels_fit_refuses_an_unlinked_level(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(levels_fit("| 0 vs 1 | 200 | +1 =0 -1 | 100 \302\261 50 | L1 100 |\n"
                                "| 2 vs 3 | 200 | +1 =0 -1 | 100 \302\261 50 | L3 100 |\n",
                                out, sizeof out),
                     2);
    assert_non_null(strstr(out, "levels_fit: error: level "));
    assert_non_null(strstr(out, " is not linked to the anchor\n"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decided_at_finds_the_deciding_moves),
        cmocka_unit_test(test_decided_at_margin),
        cmocka_unit_test(test_decided_at_needs_an_engine),
        cmocka_unit_test(test_levels_fit_solves_the_least_squares),
        cmocka_unit_test(test_levels_fit_refuses_an_unlinked_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
