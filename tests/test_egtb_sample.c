// SPDX-License-Identifier: GPL-3.0-or-later
/* Positions drawn from a table (bench/egtb/egtb_sample.h): the same seed
 * gives the same positions and another seed others; every position drawn
 * is legal, has the asked side to move and, read back from its FEN,
 * probes to the asked value; no position comes twice; each candidate is
 * about equally likely; asking for more than there are is refused with a
 * message. A piece put en prise before a table position (egtb_en_prise)
 * leaves a legal position whose capture leads back to it, in every way
 * there is and in no other. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "egtb_sample.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

/* Smaller tables first: the solver reads them after captures. */
static const char *const Built[] = {"KRK", "KNK", "KRKA", "KNKA"};
enum { BUILT_NB = sizeof Built / sizeof Built[0], PICKS_MAX = 20000 };

static EgtbSet Set;
static EgtbPick Picks[PICKS_MAX], Again[PICKS_MAX];

static EgtbTable *table(const char *name) { return egtb_test_table(&Set, name); }

static int build_all(void **state) {
    (void)state;
    engine_init();
    egtb_set_init(&Set, "");
    return egtb_test_build(&Set, Built, BUILT_NB, 1) ? 0 : -1;
}

static int free_all(void **state) {
    (void)state;
    egtb_set_free(&Set);
    return 0;
}

static void sample_or_fail(const EgtbTable *t, EgtbWant want, EgtbMover mover, int n, uint64_t seed, EgtbPick *out) {
    char err[256];
    if (!egtb_sample(t, want, mover, n, seed, out, err, sizeof err)) fail_msg("%s", err);
}

static void test_same_seed_same_positions(void **state) {
    (void)state;
    const EgtbTable *t = table("KRKA");
    sample_or_fail(t, EGTB_WANT_WIN, EGTB_MOVER_ANY, 50, 7, Picks);
    sample_or_fail(t, EGTB_WANT_WIN, EGTB_MOVER_ANY, 50, 7, Again);
    assert_memory_equal(Picks, Again, 50 * sizeof Picks[0]);
    sample_or_fail(t, EGTB_WANT_WIN, EGTB_MOVER_ANY, 50, 8, Again);
    int same = 0;
    for (int i = 0; i < 50; i++) same += Picks[i].index == Again[i].index && Picks[i].side == Again[i].side;
    assert_true(same < 5); /* of 14 000 won positions, a few coincidences at most */
}

/* Every position drawn, written as a FEN and read back as the opening
 * reader reads it, is legal and probes to the asked value with the asked
 * side to move; none comes twice. */
static void check_picks(const EgtbTable *t, EgtbWant want, EgtbMover mover, int n) {
    static Position pos, back;
    char fen[FEN_MAX], err[256];
    sample_or_fail(t, want, mover, n, 1, Picks);
    for (int i = 0; i < n; i++) {
        assert_true(egtb_decode(&t->lay, Picks[i].index, Picks[i].side, &pos));
        assert_true(egtb_decoded_legal(&pos));
        if (!fen_parse(&back, fen_write(&pos, fen), err, sizeof err)) fail_msg("%s: %s", fen, err);
        uint16_t v;
        if (!egtb_probe(&Set, &back, &v, err, sizeof err)) fail_msg("%s: %s", fen, err);
        bool ok = want == EGTB_WANT_WIN ? egtb_is_win(v) : want == EGTB_WANT_DRAW ? egtb_is_draw(v) : egtb_is_loss(v);
        if (!ok) fail_msg("%s: value %u, asked for %d", fen, v, (int)want);
        if (mover != EGTB_MOVER_ANY) assert_int_equal(back.side, mover == EGTB_MOVER_STRONG ? RED : BLACK);
        for (int j = 0; j < i; j++)
            if (Picks[j].index == Picks[i].index && Picks[j].side == Picks[i].side) fail_msg("%s drawn twice", fen);
    }
}

static void test_positions_have_the_asked_value(void **state) {
    (void)state;
    check_picks(table("KRKA"), EGTB_WANT_WIN, EGTB_MOVER_ANY, 300);
    check_picks(table("KRKA"), EGTB_WANT_LOSS, EGTB_MOVER_WEAK, 300);
    check_picks(table("KNKA"), EGTB_WANT_DRAW, EGTB_MOVER_ANY, 300);
    check_picks(table("KNKA"), EGTB_WANT_DRAW, EGTB_MOVER_STRONG, 30); /* all of them */
    check_picks(table("KNKA"), EGTB_WANT_WIN, EGTB_MOVER_STRONG, 300);
}

/* Asking for all candidates gives each once: every legal entry of the value
 * is reachable. */
static void test_all_candidates_once(void **state) {
    (void)state;
    const EgtbTable *t = table("KNKA");
    uint64_t n = egtb_sample_count(t, EGTB_WANT_DRAW, EGTB_MOVER_ANY);
    assert_true(n > 30 && n < PICKS_MAX);
    sample_or_fail(t, EGTB_WANT_DRAW, EGTB_MOVER_ANY, (int)n, 3, Picks);
    uint64_t seen = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            if (!egtb_is_draw(t->val[c][i])) continue;
            int hits = 0;
            for (uint64_t j = 0; j < n; j++) hits += Picks[j].index == i && Picks[j].side == (Color)c;
            assert_int_equal(hits, 1);
            seen++;
        }
    assert_int_equal(seen, n);
}

/* One position from the 30 drawn KNKA positions with the horse to move,
 * 6000 times with seeds 0..5999: each comes about 200 times (a binomial
 * with a standard deviation of 14; the bounds are 5 of them away). */
static void test_draws_are_uniform(void **state) {
    (void)state;
    const EgtbTable *t = table("KNKA");
    assert_int_equal(egtb_sample_count(t, EGTB_WANT_DRAW, EGTB_MOVER_STRONG), 30);
    EgtbPick all[30];
    sample_or_fail(t, EGTB_WANT_DRAW, EGTB_MOVER_STRONG, 30, 0, all);
    int hits[30] = {0};
    for (uint64_t seed = 0; seed < 6000; seed++) {
        EgtbPick one;
        sample_or_fail(t, EGTB_WANT_DRAW, EGTB_MOVER_STRONG, 1, seed, &one);
        int k = 0;
        while (k < 30 && all[k].index != one.index) k++;
        assert_true(k < 30);
        hits[k]++;
    }
    for (int k = 0; k < 30; k++)
        if (hits[k] < 130 || hits[k] > 270) fail_msg("position %d drawn %d times of 6000, want about 200", k, hits[k]);
}

static void test_too_many_refused(void **state) {
    (void)state;
    char err[256] = "";
    assert_false(egtb_sample(table("KNKA"), EGTB_WANT_DRAW, EGTB_MOVER_STRONG, 31, 1, Picks, err, sizeof err));
    assert_non_null(strstr(err, "KNKA: 30 drawn positions with the stronger side to move, 31 asked for"));
    assert_false(egtb_sample(table("KRKA"), EGTB_WANT_WIN, EGTB_MOVER_WEAK, 1, 1, Picks, err, sizeof err));
    assert_non_null(strstr(err, "KRKA: 0 won positions with the weaker side to move"));
}

/* KRK with Black to move and a black pawn to be taken: the rook takes it
 * on a0 coming from a1..a8 (a9 would check the black king) or b0, c0; the
 * king on d0 coming from d1 (from e0 it would face the other king), so 11
 * ways, each drawn for some seed. */
static void test_en_prise_every_way(void **state) {
    (void)state;
    static Position p, q;
    char err[256], text[MOVE_TEXT_MAX];
    if (!fen_parse(&p, "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1", err, sizeof err)) fail_msg("%s", err);
    static const char *const Ways[] = {"a1a0", "a2a0", "a3a0", "a4a0", "a5a0", "a6a0",
                                       "a7a0", "a8a0", "b0a0", "c0a0", "d1d0"};
    int seen[11] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        uint64_t st = seed;
        Move m;
        assert_true(egtb_en_prise(&p, make_piece(BLACK, PAWN), &st, &q, &m));
        move_to_text(m, 0, text);
        int k = 0;
        while (k < 11 && strcmp(Ways[k], text)) k++;
        if (k == 11) fail_msg("%s is not a way to take the pawn", text);
        seen[k]++;
        assert_int_equal(q.side, RED);
        assert_int_equal(q.board[move_to(m)], make_piece(BLACK, PAWN));
        assert_true(pos_is_ok(&q));
    }
    for (int k = 0; k < 11; k++)
        if (!seen[k]) fail_msg("%s never drawn", Ways[k]);
    uint64_t st = 1;
    Move m;
    /* Not the owner to move, a king, or a third rook: none. */
    assert_false(egtb_en_prise(&p, make_piece(RED, PAWN), &st, &q, &m));
    assert_false(egtb_en_prise(&p, make_piece(BLACK, KING), &st, &q, &m));
    if (!fen_parse(&p, "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1", err, sizeof err)) fail_msg("%s", err);
    assert_false(egtb_en_prise(&p, make_piece(RED, ROOK), &st, &q, &m));
}

/* Drawn KNKA positions with the horse to move, a red pawn put en prise:
 * each is legal with Black to move, and taking the pawn with the drawn
 * move gives back the table position exactly (its value a draw). */
static void test_en_prise_leads_back(void **state) {
    (void)state;
    const EgtbTable *t = table("KNKA");
    static Position p, q, back;
    char fen[FEN_MAX], err[256];
    sample_or_fail(t, EGTB_WANT_DRAW, EGTB_MOVER_STRONG, 30, 5, Picks);
    uint64_t st = 5;
    int made = 0;
    for (int i = 0; i < 30; i++) {
        assert_true(egtb_decode(&t->lay, Picks[i].index, Picks[i].side, &p));
        Move m;
        if (!egtb_en_prise(&p, make_piece(RED, PAWN), &st, &q, &m)) continue;
        made++;
        if (!fen_parse(&back, fen_write(&q, fen), err, sizeof err)) fail_msg("%s: %s", fen, err);
        assert_true(egtb_decoded_legal(&back));
        assert_int_equal(back.side, BLACK);
        assert_true(move_is_legal(&back, m));
        pos_make_move(&back, m);
        assert_int_equal(back.side, p.side);
        assert_memory_equal(back.board, p.board, sizeof p.board);
        uint16_t v;
        if (!egtb_probe(&Set, &back, &v, err, sizeof err)) fail_msg("%s: %s", fen, err);
        assert_true(egtb_is_draw(v));
    }
    assert_true(made > 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_positions), cmocka_unit_test(test_positions_have_the_asked_value),
        cmocka_unit_test(test_all_candidates_once),      cmocka_unit_test(test_draws_are_uniform),
        cmocka_unit_test(test_too_many_refused),        cmocka_unit_test(test_en_prise_every_way),
        cmocka_unit_test(test_en_prise_leads_back),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
