// SPDX-License-Identifier: GPL-3.0-or-later
/* The retrograde solver (bench/egtb/egtb_solve.c): its tables equal, value
 * for value, those of the solver it replaced (which stored every quiet move
 * as an edge), and pass the move-by-move verify; its un-moves
 * (egtb_unmove.c) against the engine's forward move generator, and its
 * re-indexing (egtb_reindex.c) against egtb_index_of. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_codec.h"
#include "egtb_reindex.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "egtb_unmove.h"
#include "egtb_verify.h"
#include "movegen.h"

/* XXH64 (seed 0) of both value arrays, Red to move then Black, as the
 * edge-storing solver (commit a264cb0) made them: a horse, a pawn and two
 * attackers together, and the defences that give long conversions. */
typedef struct {
    const char *name;
    uint64_t hash;
} Reference;

static const Reference Old[] = {
    {"KRK", 0xc6dbe25f08425dc7ull},  {"KNK", 0x012a365ebf99d5d6ull},   {"KPK", 0x804e129dbd566e4full},
    {"KCK", 0xace6216cc3128af8ull},  {"KRKA", 0xe82605163c399606ull},  {"KNKA", 0x05979082397433ffull},
    {"KNKB", 0xc66146dbcf8390f8ull}, {"KPKA", 0xd5de47651b3a50acull},  {"KPKB", 0x62f87cc7c2f03c79ull},
    {"KCKA", 0x8d6d936bf89d91aeull}, {"KNKAB", 0xe991627d1cd8ea0full}, {"KPPK", 0x505e09c6d62bd468ull},
    {"KNPK", 0x755c0a759fdcd8b3ull},
};
enum { OLD_NB = sizeof Old / sizeof Old[0] };

static EgtbSet Set;

static int build_all(void **state) {
    (void)state;
    const char *names[OLD_NB];
    for (int i = 0; i < OLD_NB; i++)
        names[i] = Old[i].name;
    egtb_set_init(&Set, "");
    return egtb_test_build(&Set, names, OLD_NB, 2) ? 0 : -1;
}

static int free_all(void **state) {
    (void)state;
    egtb_set_free(&Set);
    return 0;
}

static uint64_t values_hash(const EgtbTable *t) {
    size_t bytes = t->lay.positions * sizeof(uint16_t);
    return egtb_xxh64(t->val[BLACK], bytes, egtb_xxh64(t->val[RED], bytes, 0));
}

static void test_values_equal_the_edge_solver(void **state) {
    (void)state;
    for (int i = 0; i < OLD_NB; i++) {
        uint64_t h = values_hash(egtb_test_table(&Set, Old[i].name));
        if (h != Old[i].hash) fail_msg("%s: values hash %016llx", Old[i].name, (unsigned long long)h);
    }
}

/* Two attackers and a mixed defence pass the move-by-move check (the
 * sanitizer builds: the smaller one only). */
static void test_two_attacker_tables_pass_verify(void **state) {
    (void)state;
    const char *names[] = {"KPPK", "KNPK"};
    for (int i = 0; i < (running_slow() ? 1 : 2); i++) {
        char err[256];
        int64_t faults = egtb_verify(&Set, egtb_test_table(&Set, names[i]), 2, stderr, err, sizeof err);
        if (faults != 0) fail_msg("%s: %lld faults %s", names[i], (long long)faults, faults < 0 ? err : "");
    }
}

/* Signatures for the un-move checks: horses, pawns crossed and not (both
 * colours, so both directions), chariots, cannons, advisors and elephants
 * of both sides. The solver only builds tables where one side attacks, but
 * the un-moves know no sides. */
static const char *const UnmoveSigs[] = {"KNPKAB", "KRCKAB", "KPPKBB", "KNNKAA", "KCPKNP", "KABNKABP"};
enum { UNMOVE_SIGS = sizeof UnmoveSigs / sizeof UnmoveSigs[0], UNMOVE_TRIES = 4000, UNMOVE_TRIES_SLOW = 400 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void) { /* xorshift64 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void layout_of(EgtbLayout *lay, const char *name) {
    EgtbMaterial mat;
    char err[256];
    if (!egtb_sig_parse(&mat, name, err, sizeof err)) fail_msg("%s", err);
    if (!egtb_layout_init(lay, &mat)) fail_msg("%s: no layout", name);
}

/* A random legal position of lay with a random side to move. */
static void random_legal(const EgtbLayout *lay, Position *pos) {
    for (;;) {
        if (egtb_decode(lay, rng_next() % lay->positions, (Color)(rng_next() & 1), pos) && egtb_decoded_legal(pos))
            return;
    }
}

/* x with un-move m taken back: the position before it. */
static void take_back(Position *x, Move m) {
    Piece pc = x->board[move_to(m)];
    pos_remove_piece(x, move_to(m));
    pos_put_piece(x, pc, move_from(m));
    x->side = (Color)!x->side;
    pos_finish_setup(x);
}

static bool same_board(const Position *a, const Position *b) {
    return !memcmp(a->board, b->board, sizeof a->board) && a->side == b->side;
}

/* A position decoded with egtb_reindex_decode carries the re-index that
 * egtb_reindex_set gives it (the same placements and sums, the same group
 * per point), and the re-index of each legal quiet move forward, as
 * verify reads its children, is egtb_index_of's, mirror flag included. */
static void test_decoded_reindex_moves_forward(void **state) {
    (void)state;
    static Position x, full;
    MoveList list;
    int tries = running_slow() ? UNMOVE_TRIES_SLOW : UNMOVE_TRIES;
    long moves = 0;
    for (int k = 0; k < UNMOVE_SIGS; k++) {
        EgtbLayout lay;
        layout_of(&lay, UnmoveSigs[k]);
        for (int i = 0; i < tries; i++) {
            uint64_t idx = rng_next() % lay.positions;
            Color side = (Color)(rng_next() & 1);
            EgtbReindex r, set;
            bool placed = egtb_reindex_decode(&lay, idx, side, &x, &r);
            assert_int_equal(placed, egtb_decode(&lay, idx, side, &full));
            if (!placed || !egtb_decoded_legal(&full)) continue;
            assert_true(same_board(&x, &full));
            egtb_reindex_set(&lay, &x, &set);
            assert_memory_equal(r.place, set.place, lay.ngroups * sizeof r.place[0]);
            assert_memory_equal(r.sum, set.sum, sizeof r.sum);
            assert_memory_equal(r.group_at, set.group_at, sizeof r.group_at);
            gen_legal(&full, &list);
            for (int j = 0; j < list.count; j++) {
                Move m = list.moves[j];
                if (full.board[move_to(m)] != NO_PIECE) continue;
                bool mirrored, re_mirrored;
                uint64_t got =
                    egtb_reindex_move(&lay, &r, full.board[move_from(m)], move_from(m), move_to(m), &re_mirrored);
                pos_make_move(&full, m);
                Color child_side;
                uint64_t want = egtb_index_of_mirrored(&lay, &full, &child_side, &mirrored);
                pos_unmake_move(&full);
                assert_int_equal(got, want);
                assert_int_equal(re_mirrored, mirrored);
                assert_int_equal(child_side, (Color)!side);
                moves++;
            }
        }
        egtb_layout_free(&lay);
    }
    assert_true(moves > (long)tries * UNMOVE_SIGS);
}

/* Every un-move leads back to where it was taken from; where the position
 * before it is legal it is a legal quiet move there (the solver finds the
 * others marked illegal in its table); and the re-index of the position
 * before is egtb_index_of's. */
static void test_every_unmove_is_a_legal_move(void **state) {
    (void)state;
    static Position x, before, back, mirror;
    MoveList list;
    int tries = running_slow() ? UNMOVE_TRIES_SLOW : UNMOVE_TRIES;
    long legal = 0, illegal = 0;
    for (int k = 0; k < UNMOVE_SIGS; k++) {
        EgtbLayout lay;
        layout_of(&lay, UnmoveSigs[k]);
        for (int i = 0; i < tries; i++) {
            random_legal(&lay, &x);
            EgtbReindex r;
            egtb_reindex_set(&lay, &x, &r);
            egtb_unmoves(&x, &list);
            for (int j = 0; j < list.count; j++) {
                Move m = list.moves[j];
                before = x;
                take_back(&before, m);
                Color side;
                bool mirrored, re_mirrored;
                uint64_t idx = egtb_index_of_mirrored(&lay, &before, &side, &mirrored);
                assert_int_equal(side, (Color)!x.side);
                assert_int_equal(
                    egtb_reindex_move(&lay, &r, x.board[move_to(m)], move_to(m), move_from(m), &re_mirrored), idx);
                assert_int_equal(re_mirrored, mirrored);
                /* Its index decodes to this position, or to its mirror
                 * image when the index was taken from that. */
                assert_true(egtb_decode(&lay, idx, side, &back));
                pos_clear(&mirror);
                for (Square s = 0; s < SQUARE_NB; s++)
                    if (before.board[s])
                        pos_put_piece(&mirror, before.board[s], make_square(8 - file_of(s), rank_of(s)));
                mirror.side = before.side;
                assert_true(same_board(&back, mirrored ? &mirror : &before));
                if (!egtb_decoded_legal(&before)) {
                    illegal++;
                    continue;
                }
                assert_int_equal(before.board[move_to(m)], NO_PIECE); /* quiet */
                assert_true(move_is_legal(&before, m));
                pos_make_move(&before, m);
                assert_true(same_board(&before, &x));
                legal++;
            }
        }
        egtb_layout_free(&lay);
    }
    assert_true(legal > 10 * UNMOVE_SIGS * (long)tries / 2);
    assert_true(illegal > 0);
}

/* Every legal quiet move of a legal position shows up among the un-moves
 * of the position it leads to: a horse's leg taken next to the wrong
 * point, or a pawn stepping back the wrong way, would lose some. */
static void test_every_quiet_move_is_an_unmove(void **state) {
    (void)state;
    static Position p;
    MoveList moves, back;
    int tries = running_slow() ? UNMOVE_TRIES_SLOW : UNMOVE_TRIES;
    long checked = 0;
    for (int k = 0; k < UNMOVE_SIGS; k++) {
        EgtbLayout lay;
        layout_of(&lay, UnmoveSigs[k]);
        for (int i = 0; i < tries; i++) {
            random_legal(&lay, &p);
            gen_quiets(&p, &moves);
            for (int j = 0; j < moves.count; j++) {
                Move m = moves.moves[j];
                pos_make_move(&p, m);
                egtb_unmoves(&p, &back);
                bool found = false;
                for (int b = 0; b < back.count; b++)
                    found |= back.moves[b] == m;
                pos_unmake_move(&p);
                if (!found)
                    fail_msg("%s: quiet move %d-%d of a legal position is no un-move", UnmoveSigs[k], move_from(m),
                             move_to(m));
                checked++;
            }
        }
        egtb_layout_free(&lay);
    }
    assert_true(checked > 10 * UNMOVE_SIGS * (long)tries / 2);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_equal_the_edge_solver),
        cmocka_unit_test(test_two_attacker_tables_pass_verify),
        cmocka_unit_test(test_decoded_reindex_moves_forward),
        cmocka_unit_test(test_every_unmove_is_a_legal_move),
        cmocka_unit_test(test_every_quiet_move_is_an_unmove),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
