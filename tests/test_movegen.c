// SPDX-License-Identifier: GPL-3.0-or-later
/* Move generation: every perft count of the reference table, and the
 * split generators agreeing with the full one. */
#include "test_support.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"

static void test_perft_reference_table(void **state) {
    (void)state;
    /* Counting every node costs about 20 ns in Release and 100x that with
     * sanitizers and per-move self-checks: keep the suite to minutes. */
    const uint64_t limit = running_slow() ? 3000000 : 300000000;
    static Position pos;
    FILE *f = open_data("perft.epd");
    PerftRecord rec;
    int checked = 0;
    while (read_perft_record(f, &rec)) {
        must_parse(&pos, rec.fen);
        for (int i = 0; i < rec.count; i++) {
            if (rec.nodes[i] > limit) continue;
            uint64_t got = perft(&pos, rec.depth[i]);
            if (got != rec.nodes[i])
                fail_msg("%s depth %d: %" PRIu64 " != %" PRIu64, rec.fen, rec.depth[i], got, rec.nodes[i]);
            checked++;
        }
    }
    fclose(f);
    assert_true(checked >= 40);
}

static bool list_has(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m) return true;
    return false;
}

/* Walk random games; at every node the generators must agree with each
 * other and with move_is_legal() over all 90x90 from-to pairs. */
static void test_generators_agree(void **state) {
    (void)state;
    static Position pos;
    uint64_t seed = 12345;
    int games = running_slow() ? 6 : 40;
    for (int g = 0; g < games; g++) {
        must_parse(&pos, START_FEN);
        for (int ply = 0; ply < 150 && !pos_history_full(&pos); ply++) {
            MoveList all, caps, quiets;
            gen_legal(&pos, &all);
            gen_captures(&pos, &caps);
            gen_quiets(&pos, &quiets);
            assert_int_equal(all.count, caps.count + quiets.count);
            for (int i = 0; i < caps.count; i++) {
                assert_true(list_has(&all, caps.moves[i]));
                assert_int_not_equal(pos_piece_on(&pos, move_to(caps.moves[i])), NO_PIECE);
            }
            for (int i = 0; i < quiets.count; i++) {
                assert_true(list_has(&all, quiets.moves[i]));
                assert_int_equal(pos_piece_on(&pos, move_to(quiets.moves[i])), NO_PIECE);
            }
            int legal_pairs = 0;
            for (Square from = 0; from < SQUARE_NB; from++)
                for (Square to = 0; to < SQUARE_NB; to++) {
                    Move m = make_move(from, to);
                    bool legal = move_is_legal(&pos, m);
                    legal_pairs += legal;
                    if (legal != list_has(&all, m)) {
                        char fen[FEN_MAX], mt[MOVE_TEXT_MAX];
                        fail_msg("%s: move_is_legal(%s) = %d disagrees with gen_legal", fen_write(&pos, fen),
                                 move_to_text(m, 0, mt), legal);
                    }
                }
            assert_int_equal(legal_pairs, all.count);
            if (all.count == 0) break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            pos_make_move(&pos, all.moves[(seed >> 33) % (uint64_t)all.count]);
        }
    }
}

static void test_no_legal_move_positions(void **state) {
    (void)state;
    static Position pos;
    MoveList l;
    must_parse(&pos, "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"); /* stalemate: loses in xiangqi */
    gen_legal(&pos, &l);
    assert_int_equal(l.count, 0);
    assert_false(pos_in_check(&pos));
    must_parse(&pos, "3k5/R8/9/9/9/9/9/9/9/3RK4 b - - 0 1"); /* mate */
    gen_legal(&pos, &l);
    assert_int_equal(l.count, 0);
    assert_true(pos_in_check(&pos));
}

static void test_divide_output(void **state) {
    (void)state;
    static Position pos;
    must_parse(&pos, START_FEN);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(perft_divide(&pos, 2, 0, out), 1920);
    fclose(out);
    assert_non_null(strstr(buf, "h2e2: 45\n"));
    assert_non_null(strstr(buf, "Nodes searched: 1920\n"));
    free(buf);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_reference_table),
        cmocka_unit_test(test_generators_agree),
        cmocka_unit_test(test_no_legal_move_positions),
        cmocka_unit_test(test_divide_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
