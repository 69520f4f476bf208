// SPDX-License-Identifier: GPL-3.0-or-later
/* Make/unmake, Zobrist keys, check and pin detection over random games. */
#include "test_support.h"

#include <string.h>

#include "fen.h"
#include "movegen.h"

/* The board part of a position: everything but the history records. */
static void assert_same_board(const Position *a, const Position *b) {
    assert_memory_equal(a, b, offsetof(Position, history));
    assert_int_equal(pos_key(a), pos_key(b));
}

static uint64_t next_random(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static void test_random_playouts_restore(void **state) {
    (void)state;
    static Position pos, start;
    static const char *const Starts[] = {
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    };
    int seeds = running_slow() ? 30 : 400;
    long total_moves = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        uint64_t rng = (uint64_t)seed;
        must_parse(&start, Starts[seed % 4]);
        memcpy(&pos, &start, sizeof pos);
        int played = 0;
        for (; played < 300; played++) {
            MoveList l;
            gen_legal(&pos, &l);
            if (!l.count) break;
            Move m = l.moves[next_random(&rng) % (uint64_t)l.count];
            pos_make_move(&pos, m);
            assert_int_equal(pos_key(&pos), pos_compute_key(&pos));
            assert_true(pos_is_ok(&pos));
            assert_int_equal(pos_in_check(&pos), pos_compute_in_check(&pos));
            /* The side that just moved never stands in check. */
            assert_false(pos_attacked(&pos, pos.king_sq[!pos.side], pos.side, pos.occ, pos.occ_t, 0));
            assert_false(pos_kings_face(&pos));
            /* A null move round trip changes nothing but is keyed apart. */
            if (!pos_in_check(&pos)) {
                Key k = pos_key(&pos);
                pos_make_null(&pos);
                assert_int_equal(pos_key(&pos), pos_compute_key(&pos));
                assert_int_not_equal(pos_key(&pos), k);
                pos_unmake_null(&pos);
                assert_int_equal(pos_key(&pos), k);
            }
        }
        total_moves += played;
        while (pos.game_ply > 0) pos_unmake_move(&pos);
        assert_same_board(&pos, &start);
    }
    assert_true(total_moves > seeds * 50);
}

static void test_pinned_pieces(void **state) {
    (void)state;
    static Position pos;
    /* Red chariot e1 pinned by the black chariot on e8 (kings on e0/f9). */
    must_parse(&pos, "5k3/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_true(bb_test(pos_pinned(&pos, RED), make_square(4, 1)));
    /* A lone cannon screen gives check; it is not pinned: moving it away
     * ends the attack. */
    must_parse(&pos, "3k5/9/4c4/9/9/9/9/9/4A4/4K4 w - - 0 1");
    assert_true(pos_in_check(&pos));
    assert_false(bb_test(pos_pinned(&pos, RED), make_square(4, 1)));
    /* Two pieces between cannon and king: each is pinned, since removing
     * one leaves the other as the screen. */
    must_parse(&pos, "3k5/9/4c4/9/9/9/4P4/9/4A4/4K4 w - - 0 1");
    Bitboard pinned = pos_pinned(&pos, RED);
    assert_true(bb_test(pinned, make_square(4, 3)));
    assert_true(bb_test(pinned, make_square(4, 1)));
    /* Horse leg: the black horse on f2 would hit e0 over its leg f1, which
     * a red chariot blocks: that chariot is pinned. */
    must_parse(&pos, "3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1");
    assert_true(bb_test(pos_pinned(&pos, RED), make_square(5, 1)));
    /* Flying general: the only piece between the kings is pinned. */
    must_parse(&pos, "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
    assert_true(bb_test(pos_pinned(&pos, RED), make_square(4, 5)));
}

static void test_attackers_to(void **state) {
    (void)state;
    static Position pos;
    must_parse(&pos, START_FEN);
    /* e3 pawn: defended by nothing red except... attacked by nobody black. */
    assert_int_equal(bb_popcount(pos_attackers_to(&pos, make_square(4, 3), BLACK)), 0);
    /* Black's cannon b7 hits b0 (horse) over b2. */
    assert_true(bb_test(pos_attackers_to(&pos, make_square(1, 0), BLACK), make_square(1, 7)));
    /* Red elephant c0 and advisor d0 guard e... c0 guards e2 and a2. */
    assert_true(bb_test(pos_attackers_to(&pos, make_square(4, 2), RED), make_square(2, 0)));
    assert_true(bb_test(pos_attackers_to(&pos, make_square(4, 1), RED), make_square(3, 0)));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_playouts_restore),
        cmocka_unit_test(test_pinned_pieces),
        cmocka_unit_test(test_attackers_to),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
