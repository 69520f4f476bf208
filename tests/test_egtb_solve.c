// SPDX-License-Identifier: GPL-3.0-or-later
/* The retrograde solver (bench/egtb/egtb_solve.c): its tables equal, value
 * for value, those of the solver it replaced (which stored every quiet move
 * as an edge), and pass the move-by-move verify; its un-moves
 * (egtb_unmove.c) against the engine's forward move generator, and its
 * re-indexing (egtb_reindex.c) against egtb_index_of. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egtb/egtb_codec.h"
#include "egtb_capture.h"
#include "fen.h"
#include "egtb_reindex.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "egtb_unmove.h"
#include "egtb_verify.h"
#include "egtb_xq.h"
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
    /* With DTM too: each table's DTM solve follows its DTC solve, as in
     * build --dtm, and must pass egtb_dtm_check (same W/D/L, DTM >= DTC). */
    return egtb_test_build_dtm(&Set, names, OLD_NB, 2) ? 0 : -1;
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

/* Where the winner has nothing to capture (KRK, KNK, KPK: the loser has
 * no piece but its king) a mate is the only conversion: DTM is DTC. */
static void test_dtm_is_dtc_without_captures(void **state) {
    (void)state;
    const char *names[] = {"KRK", "KNK", "KPK"};
    for (int i = 0; i < 3; i++) {
        const EgtbTable *t = egtb_test_table(&Set, names[i]);
        for (int c = 0; c < COLOR_NB; c++)
            if (memcmp(t->val[c], t->dtm[c], t->lay.positions * sizeof(uint16_t)))
                fail_msg("%s: DTM differs from DTC", names[i]);
    }
}

/* Every table built: W/D/L of DTM is DTC's and DTM is never below DTC
 * (egtb_dtm_check, run again here so that a change to the setup cannot
 * skip it), and where captures lead somewhere the longest mate is longer
 * than the longest conversion (KNKA: 38 against 30, as xiangqitb). */
static void test_dtm_agrees_with_dtc(void **state) {
    (void)state;
    for (int i = 0; i < OLD_NB; i++) {
        char err[256];
        if (!egtb_dtm_check(egtb_test_table(&Set, Old[i].name), err, sizeof err)) fail_msg("%s", err);
    }
    const EgtbTable *t = egtb_test_table(&Set, "KNKA");
    uint16_t dtc = 0, dtm = 0;
    for (uint64_t k = 0; k < t->lay.positions; k++)
        if (t->val[RED][k] != EGTB_ILLEGAL) {
            if (t->val[RED][k] > dtc) dtc = t->val[RED][k];
            if (t->dtm[RED][k] > dtm) dtm = t->dtm[RED][k];
        }
    assert_int_equal(dtc, 30);
    assert_int_equal(dtm, 38);
}

/* The DTM minimax (docs/egtb.md, "DTM files") at every legal position of
 * t: no legal move a loss 1; a move to a lost child a win of one more
 * than the least such child; every move to a won child a loss of one
 * more than the largest; else a draw. A capture's child is read from the
 * smaller table's DTM, a quiet move's from t's own. Returns the faults. */
static int dtm_minimax_faults(const EgtbTable *t) {
    char err[256];
    EgtbCaptures caps;
    if (!egtb_captures_init(&caps, &Set, &t->lay.mat, true, err, sizeof err)) fail_msg("%s", err);
    Position *pos = malloc(sizeof *pos);
    assert_non_null(pos);
    MoveList list;
    int faults = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->dtm[c][i];
            if (!egtb_reindex_place(&t->lay, i, (Color)c, pos) || !egtb_decoded_legal(pos)) {
                faults += v != EGTB_ILLEGAL;
                continue;
            }
            pos->history[0].in_check = pos_compute_in_check(pos);
            gen_legal(pos, &list);
            unsigned least_lost = 0, most_won = 0;
            bool draw = false;
            for (int k = 0; k < list.count; k++) {
                Move m = list.moves[k];
                uint16_t cv;
                if (pos->board[move_to(m)] != NO_PIECE) {
                    cv = egtb_capture_value(&caps, pos, m);
                } else {
                    Piece pc = pos->board[move_from(m)];
                    pos_remove_piece(pos, move_from(m));
                    pos_put_piece(pos, pc, move_to(m));
                    pos->side = (Color) !pos->side;
                    cv = egtb_table_dtm(t, pos);
                    pos->side = (Color) !pos->side;
                    pos_remove_piece(pos, move_to(m));
                    pos_put_piece(pos, pc, move_from(m));
                }
                if (egtb_is_loss(cv) && (!least_lost || cv < least_lost)) least_lost = cv;
                if (egtb_is_win(cv) && cv > most_won) most_won = cv;
                draw |= egtb_is_draw(cv);
            }
            unsigned want = list.count == 0 ? 1 : least_lost ? least_lost + 1 : draw ? 0 : most_won + 1;
            faults += v != want;
        }
    free(pos);
    return faults;
}

static void test_dtm_is_the_minimax(void **state) {
    (void)state;
    for (int i = 0; i < OLD_NB; i++) {
        int faults = dtm_minimax_faults(egtb_test_table(&Set, Old[i].name));
        if (faults) fail_msg("%s: %d DTM values break the minimax", Old[i].name, faults);
    }
}

/* The move-by-move DTM verify passes every table, and finds each of these
 * changes to one KNKA entry at that entry: a win, a loss made 2 longer or
 * shorter, a win or a loss made a draw, a draw made a win, and the value of
 * a win by capture (a capture's child is lost, the win is 2) changed. */
static void test_dtm_verify(void **state) {
    (void)state;
    char err[256];
    for (int i = 0; i < OLD_NB; i++) {
        int64_t faults = egtb_verify_dtm(&Set, egtb_test_table(&Set, Old[i].name), 2, stderr, err, sizeof err);
        if (faults != 0) fail_msg("%s: %lld DTM faults %s", Old[i].name, (long long)faults, faults < 0 ? err : "");
    }
    EgtbTable *t = egtb_test_table(&Set, "KNKA");
    uint64_t win = 0, loss = 0, draw = 0, capwin = 0;
    for (uint64_t i = 0; i < t->lay.positions; i++) {
        uint16_t v = t->dtm[RED][i], d = t->val[RED][i], b = t->dtm[BLACK][i];
        if (egtb_is_win(v) && v > 10 && v > d && !win) win = i;
        if (egtb_is_win(v) && v == 2 && d == 2 && !capwin) capwin = i; /* mates or captures now */
        if (v == 0 && !draw) draw = i;
        if (egtb_is_loss(b) && b > 10 && !loss) loss = i;
    }
    assert_true(win && loss && draw && capwin);
    const struct {
        int side;
        uint64_t *index;
        int delta; /* added to the entry, unless zero (made a draw) or make_win (made win 2) */
        bool zero, make_win;
    } Change[] = {
        {RED, &win, 2, false, false},     {RED, &win, -2, false, false},   {BLACK, &loss, 2, false, false},
        {BLACK, &loss, -2, false, false}, {RED, &win, 0, true, false},     {BLACK, &loss, 0, true, false},
        {RED, &draw, 0, false, true},     {RED, &capwin, 2, false, false},
    };
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    for (size_t k = 0; k < sizeof Change / sizeof Change[0]; k++) {
        uint16_t *e = &t->dtm[Change[k].side][*Change[k].index], old = *e;
        *e = Change[k].zero ? 0 : Change[k].make_win ? 2 : (uint16_t)(old + Change[k].delta);
        int64_t faults = egtb_verify_dtm(&Set, t, 2, quiet, err, sizeof err);
        *e = old;
        if (faults <= 0) fail_msg("change %zu (entry %u, delta %d) not found", k, old, Change[k].delta);
    }
    fclose(quiet);
}

static uint16_t dtm_of(const char *fen) {
    Position *pos = malloc(sizeof *pos);
    char err[256];
    assert_non_null(pos);
    if (!fen_parse(pos, fen, err, sizeof err)) fail_msg("%s: %s", fen, err);
    uint16_t v = egtb_table_dtm(egtb_test_table(&Set, "KRK"), pos);
    free(pos);
    return v;
}

/* By hand, in KRK: red to move plays Ra2-d2, checking the black king on d10
 * down the d file (d9 is on it too, e10 faces the red king on e1): DTM 2,
 * a win mating with this move. After it black to move is mated: DTM 1.
 * One move before, black's king on d9 may step into that position
 * (Kd9-d10), so it loses, with DTM at least 3 (it may resist longer
 * elsewhere, never shorter). */
static void test_dtm_hand_checked_krk(void **state) {
    (void)state;
    assert_int_equal(dtm_of("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"), 2);
    assert_int_equal(dtm_of("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1"), 1);
    uint16_t before = dtm_of("9/3k5/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    assert_true(egtb_is_loss(before));
    assert_true(before >= 3);
}

/* NAME.lzdtm written and read back gives the solver's DTM at every index
 * (KNKA: captures and long mates; KCK: every position drawn, both sides
 * singular); a flipped byte is refused with a message. */
static void test_dtm_file_round_trip(void **state) {
    (void)state;
    char dir[] = "/tmp/tuong-dtm-XXXXXX", path[128], err[512];
    assert_non_null(mkdtemp(dir));
    const char *names[] = {"KNKA", "KCK"};
    for (int i = 0; i < 2; i++) {
        EgtbTable *t = egtb_test_table(&Set, names[i]);
        if (!egtb_xq_write_dtm(t, dir, err, sizeof err)) fail_msg("%s", err);
        EgtbTable copy = *t; /* the layout and DTC shared, DTM read afresh */
        copy.dtm[RED] = copy.dtm[BLACK] = NULL;
        snprintf(path, sizeof path, "%s/%s.lzdtm", dir, names[i]);
        if (!egtb_xq_read_dtm(&copy, path, err, sizeof err)) fail_msg("%s", err);
        for (int c = 0; c < COLOR_NB; c++) {
            assert_memory_equal(copy.dtm[c], t->dtm[c], t->lay.positions * sizeof(uint16_t));
            free(copy.dtm[c]);
        }
    }
    snprintf(path, sizeof path, "%s/KNKA.lzdtm", dir);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 200, SEEK_SET);
    int b = fgetc(f);
    fseek(f, 200, SEEK_SET);
    fputc(b ^ 0x10, f);
    fclose(f);
    EgtbTable copy = *egtb_test_table(&Set, "KNKA");
    copy.dtm[RED] = copy.dtm[BLACK] = NULL;
    assert_false(egtb_xq_read_dtm(&copy, path, err, sizeof err));
    assert_non_null(strstr(err, "KNKA.lzdtm"));
    assert_null(copy.dtm[RED]);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
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
        cmocka_unit_test(test_dtm_is_dtc_without_captures),
        cmocka_unit_test(test_dtm_agrees_with_dtc),
        cmocka_unit_test(test_dtm_is_the_minimax),
        cmocka_unit_test(test_dtm_verify),
        cmocka_unit_test(test_dtm_hand_checked_krk),
        cmocka_unit_test(test_dtm_file_round_trip),
        cmocka_unit_test(test_decoded_reindex_moves_forward),
        cmocka_unit_test(test_every_unmove_is_a_legal_move),
        cmocka_unit_test(test_every_quiet_move_is_an_unmove),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
