// SPDX-License-Identifier: GPL-3.0-or-later
/* Strength levels in play: short tuong-match runs between levels 0, 4 and
 * 8 at fixed nodes (docs/levels.md). The steps measured there are about
 * 300 Elo (0-4, an 85 % score) and 580 Elo (4-8, 97 %), so the stronger
 * level must take more than half the points of every pairing; the closest
 * pairing plays 16 games, where the weaker side would need eight points
 * (about 1 in 1,000 at that gap). Level 8 stops at 4,800 nodes a move, so
 * the whole test costs a few seconds of processor time. The levels are
 * node-capped, one thread each and seeded by the position, so the run is
 * reproducible: it gives the same games every time. */
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
             "-each proto=ucci option.hashsize=4 option.usebook=false -openings %s/openings/ecco10.epd "
             "-games %d -nodes 20000 -concurrency 2 -maxplies 240 -resign movecount=2 score=400 -quiet",
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_0_4_8_are_ordered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
