// SPDX-License-Identifier: GPL-3.0-or-later
/* move_gives_check: its answer before a move against the position after it,
 * and its shortcut for moves far from the king against the full test. */
#include "test_support.h"

#include <string.h>

#include "checks.h"
#include "fen.h"
#include "movegen.h"

static uint64_t next_random(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Every pseudo-legal move of pos: the shortcut agrees with the full test;
 * every legal one: both agree with whether the other king stands in check
 * once the move is made. Returns how many legal moves gave check. */
static int check_every_move(Position *pos) {
    MoveList pseudo;
    pseudo.count = 0;
    gen_pseudo_captures(pos, &pseudo);
    gen_pseudo_quiets(pos, &pseudo);
    int checks = 0;
    for (int i = 0; i < pseudo.count; i++) {
        Move m = pseudo.moves[i];
        bool fast = move_gives_check(pos, m);
        assert_int_equal(fast, move_gives_check_full(pos, m));
        if (!move_is_legal(pos, m)) continue;
        pos_make_move(pos, m);
        bool checked = pos_in_check(pos);
        pos_unmake_move(pos);
        if (checked != fast) fail_msg("move %d -> %d: gives_check %d, after the move in check %d", move_from(m),
                                      move_to(m), fast, checked);
        checks += checked;
    }
    return checks;
}

static void test_random_games(void **state) {
    (void)state;
    static Position pos;
    static const char *const Starts[] = {
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        "3k5/4P2R1/3P5/9/9/9/5c3/4B4/4Ap2n/2BAK3c b - - 0 1",
    };
    int seeds = running_slow() ? 20 : 200;
    long positions = 0, checks = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        uint64_t rng = (uint64_t)seed;
        must_parse(&pos, Starts[seed % 5]);
        for (int played = 0; played < 200; played++) {
            checks += check_every_move(&pos);
            positions++;
            MoveList l;
            gen_legal(&pos, &l);
            if (!l.count) break;
            pos_make_move(&pos, l.moves[next_random(&rng) % (uint64_t)l.count]);
        }
    }
    /* The walk must have met enough positions and checks to prove something. */
    assert_true(positions > seeds * 50);
    assert_true(checks > positions / 10);
}

/* One move, its expected answer, and the position after it. */
static void expect_gives_check(const char *fen, const char *from, const char *to, bool expected) {
    static Position pos;
    must_parse(&pos, fen);
    Square f = make_square(from[0] - 'a', from[1] - '0'), t = make_square(to[0] - 'a', to[1] - '0');
    Move m = make_move(f, t);
    assert_true(move_is_legal(&pos, m));
    assert_int_equal(move_gives_check(&pos, m), expected);
    pos_make_move(&pos, m);
    assert_int_equal(pos_in_check(&pos), expected);
}

/* The kinds of check the shortcut must not skip, and moves it may. The
 * black king is on e9 in each; its diagonal neighbours are d8 and f8. */
static void test_checks_near_and_far(void **state) {
    (void)state;
    /* A horse stepping to a horse's step from the king, both points off
     * its rank and file: a check, unless the leg is blocked. */
    expect_gives_check("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "b6", "c8", true);
    expect_gives_check("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "b6", "d7", true);
    expect_gives_check("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "b6", "a8", false);
    expect_gives_check("4k4/3n5/9/9/2N6/9/9/9/9/3K5 w - - 0 1", "c5", "d7", false);
    /* A move far from every line and leg. */
    expect_gives_check("4k4/9/9/1N7/9/9/9/9/9/3K5 w - - 0 1", "d0", "d1", false);
    /* A pawn leaving a leg (d8) to a point off the lines frees the horse on d7. */
    expect_gives_check("4k4/3P5/3N5/9/9/9/9/9/9/3K5 w - - 0 1", "d8", "c8", true);
    /* A horse leaving the king's file uncovers a chariot. */
    expect_gives_check("4k4/9/9/9/4N4/9/9/9/4R4/5K3 w - - 0 1", "e5", "c4", true);
    /* A horse arriving on the king's file becomes a cannon's screen. */
    expect_gives_check("4k4/9/9/9/9/9/3N5/9/4C4/5K3 w - - 0 1", "d3", "e5", true);
    /* A horse leaving a cannon's line of two screens leaves it one. */
    expect_gives_check("4k4/9/4n4/9/4N4/9/9/9/4C4/5K3 w - - 0 1", "e5", "c4", true);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_checks_near_and_far),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
