// SPDX-License-Identifier: GPL-3.0-or-later
/* Strength levels in play: short tuong-match runs between levels 0, 4 and
 * 8 at fixed nodes (docs/levels.md). The ladder measured there puts them
 * about 390 Elo (0-4) and 600 Elo (4-8) apart, so the stronger level must
 * take more than half the points of every pairing. The openings are random
 * lines of xiangqi.epd (seed 1), as in the ladder: the ten ECCO main lines
 * of ecco10.epd gave level 0 6.5 of 16 points against level 4 (32.5 % over
 * 100 games, which repeat those 20 games), where random lines give it
 * 15.5 % over 100 (docs/levels.md, "In the tests"). Level 8 stops at 4,800
 * nodes a move, so the whole test costs a few seconds of processor time.
 * The levels are node-capped, one thread each and seeded by the position,
 * so the run is reproducible: it gives the same games every time. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char Output[1 << 16];

static int run_match(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s/tuong-match %s 2>&1", TUONG_BUILD_DIR, args);
    return run_command(cmd, Output, sizeof Output);
}

/* Play `games` games of level a against level b; the points of a. */
static double level_points(int a, int b, int games) {
    char args[4096], head[64];
    snprintf(args, sizeof args,
             "-engine name=L%d cmd=%s option.level=%d -engine name=L%d cmd=%s option.level=%d "
             "-each proto=ucci option.hashsize=4 option.usebook=false "
             "-openings %s/openings/xiangqi.epd -order random -seed 1 -games %d -nodes 20000 -concurrency 2 "
             "-maxplies 240 -resign movecount=2 score=400 -quiet",
             a, TUONG_BINARY, a, b, TUONG_BINARY, b, TUONG_DATA_DIR, games);
    int rc = run_match(args);
    if (rc != 0) fail_msg("tuong-match failed (%d):\n%s", rc, Output);
    print_message("%s", Output);
    assert_null(strstr(Output, "illegal"));
    assert_null(strstr(Output, "crashed"));
    snprintf(head, sizeof head, "L%d vs L%d: games ", a, b);
    const char *p = strstr(Output, head);
    if (!p) fail_msg("no '%s' in:\n%s", head, Output);
    int n, w, d, l;
    if (sscanf(p + strlen(head), "%d, +%d =%d -%d", &n, &w, &d, &l) != 4) fail_msg("cannot read '%.80s'", p);
    assert_int_equal(n, games);
    assert_int_equal(w + d + l, games);
    return w + d / 2.0;
}

static void levels_0_4_8_are_ordered(void **state) {
    (void)state;
    assert_true(level_points(0, 4, 16) < 16 / 2.0);
    assert_true(level_points(4, 8, 6) < 6 / 2.0);
    assert_true(level_points(0, 8, 4) < 4 / 2.0);
}

/* bench/scripts/levels_ladder.sh, the ladder of docs/levels.md: one row per
 * pairing with the games played, and a running sum of the steps. */
static int run_ladder(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "bash %s/bench/scripts/levels_ladder.sh -e %s -m %s/tuong-match -o %s/ladder-test %s 2>&1",
             TUONG_SOURCE_DIR, TUONG_BINARY, TUONG_BUILD_DIR, TUONG_BUILD_DIR, args);
    return run_command(cmd, Output, sizeof Output);
}

static void ladder_script_tabulates_the_steps(void **state) {
    (void)state;
    int rc = run_ladder("-g 4 -s 5 0 4 8");
    print_message("%s", Output);
    assert_int_equal(rc, 0);
    int n1, w1, d1, l1, step1, sum1, n2, w2, d2, l2, step2, sum2;
    const char *row1 = strstr(Output, "| 0 vs 4 | ");
    const char *row2 = strstr(Output, "| 4 vs 8 | ");
    if (!row1 || !row2) fail_msg("missing rows in:\n%s", Output);
    /* "| 0 vs 4 | 4 | +0 =1 −3 | 191 ± 1033 | L4 191 |" (the minus sign is U+2212) */
    assert_int_equal(sscanf(row1, "| 0 vs 4 | %d | +%d =%d \xe2\x88\x92%d | %d \xc2\xb1 %*d | L4 %d |", &n1, &w1, &d1,
                            &l1, &step1, &sum1),
                     6);
    assert_int_equal(sscanf(row2, "| 4 vs 8 | %d | +%d =%d \xe2\x88\x92%d | %d \xc2\xb1 %*d | L8 %d |", &n2, &w2, &d2,
                            &l2, &step2, &sum2),
                     6);
    assert_int_equal(n1, 4);
    assert_int_equal(w1 + d1 + l1, 4);
    assert_int_equal(n2, 4);
    assert_int_equal(w2 + d2 + l2, 4);
    assert_int_equal(sum1, step1);
    assert_int_equal(sum2, step1 + step2);
}

static void ladder_script_refuses_bad_levels(void **state) {
    (void)state;
    assert_int_equal(run_ladder("0 21"), 2);
    assert_non_null(strstr(Output, "levels_ladder: error: level 21 is above 20"));
    assert_int_equal(run_ladder("0 x"), 2);
    assert_non_null(strstr(Output, "levels_ladder: error: 'x' is not a level"));
    assert_int_equal(run_ladder("4"), 2);
    assert_int_equal(run_ladder("-n 0 0 4"), 2);
    assert_non_null(strstr(Output, "levels_ladder: error: '0' is not a node count"));
    assert_int_equal(run_ladder("-n 5k 0 4"), 2);
    assert_non_null(strstr(Output, "levels_ladder: error: '5k' is not a node count"));
}

/* -n bounds level 20, which has no node cap of its own: the match is run with
 * it (tuong-match's first line names the limit). */
static void ladder_script_passes_the_node_bound(void **state) {
    (void)state;
    int rc = run_ladder("-g 2 -s 5 -n 700 0 20");
    print_message("%s", Output);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(Output, "| 0 vs 20 | 2 | "));
    char log[8192];
    snprintf(log, sizeof log, "cat %s/ladder-test/levels-0-20.log", TUONG_BUILD_DIR);
    assert_int_equal(run_command(log, Output, sizeof Output), 0);
    assert_non_null(strstr(Output, "nodes 700,"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_0_4_8_are_ordered),
        cmocka_unit_test(ladder_script_tabulates_the_steps),
        cmocka_unit_test(ladder_script_refuses_bad_levels),
        cmocka_unit_test(ladder_script_passes_the_node_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
