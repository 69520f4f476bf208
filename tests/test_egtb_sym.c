// SPDX-License-Identifier: GPL-3.0-or-later
/* Symmetric signatures (bench/egtb/egtb_sym.h, docs/egtb.md "Symmetric
 * signatures"): KRKR solved in memory with both colours in one frame, as
 * xiangqitb solves it, its rule loop run (it marks positions and, as in
 * xiangqitb's KRKR, settles none); the counts of xiangqitb's KRKR; Black to
 * move the turned image of Red to move; the one-table file written, read
 * back (Black filled from the turned Red) and probed by the engine with
 * Black to move; verify on the read-back table, and a corrupted value
 * caught; and KARKR, whose captures lead into KRKR, with xiangqitb's rule
 * verdicts. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egtb/egtb_probe.h"
#include "egtb_sym.h"
#include "egtb_test_tables.h"
#include "egtb_verify.h"
#include "egtb_xq.h"
#include "fen.h"

/* A KRKR loss in 6 plies (v = 7) with Black to move, drawn by `tuong-egtb
 * sample`; its turned image (Red to move) is the same loss. */
#define LOSS_FEN "3k5/5r3/9/9/9/9/9/9/3R5/3K5 b"
#define LOSS_TURNED_FEN "3k5/3r5/9/9/9/9/9/9/5R3/3K5 w"
enum { LOSS_V = 7 };

/* xiangqitb's KRKR, White (Red) to move, the only table its file keeps
 * (equal to ours at every legal index, docs/egtb.md "Cross-check"). */
enum { KRKR_WIN = 76104, KRKR_DRAW = 104397, KRKR_LOSS = 7659 };
/* Nodes our first marking flags in KRKR: the loop ran (it settles none,
 * as xiangqitb's). */
enum { KRKR_MARKED = 107073 };

static EgtbSet Set;
static EgtbSolveStats KrkrStats;

static int build_all(void **state) {
    (void)state;
    static const char *const subs[] = {"KRK"};
    egtb_set_init(&Set, "");
    if (!egtb_test_build(&Set, subs, 1, 2)) return -1;
    EgtbMaterial mat;
    char err[256];
    EgtbTable *t = malloc(sizeof *t);
    if (!t || !egtb_sig_parse(&mat, "KRKR", err, sizeof err) || !egtb_table_alloc(t, &mat, err, sizeof err) ||
        !egtb_solve(t, &Set, 2, &KrkrStats, err, sizeof err) || !egtb_set_add(&Set, t)) {
        free(t);
        return -1;
    }
    return 0;
}

static int free_all(void **state) {
    (void)state;
    egtb_set_free(&Set);
    return 0;
}

static uint16_t value_of(const EgtbTable *t, const char *fen, Color *side, uint64_t *idx) {
    Position pos;
    char err[256];
    if (!fen_parse(&pos, fen, err, sizeof err)) fail_msg("%s: %s", fen, err);
    *idx = egtb_index_of(&t->lay, &pos, side);
    return t->val[*side][*idx];
}

static void test_krkr_counts_match_xiangqitb(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKR");
    assert_int_equal(KrkrStats.win[RED], KRKR_WIN);
    assert_int_equal(KrkrStats.draw[RED], KRKR_DRAW);
    assert_int_equal(KrkrStats.loss[RED], KRKR_LOSS);
    assert_int_equal(KrkrStats.rule.marked, KRKR_MARKED);
    assert_null(t->order[RED]);
    assert_null(t->order[BLACK]);
}

/* The solve's Black to move is the turned Red to move, position by
 * position: at the sampled loss, and everywhere (egtb_sym_differences). */
static void test_black_is_turned_red(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKR");
    Color side;
    uint64_t idx;
    /* egtb_index_of turns a board with Black to move; with Red to move it
     * gives the board's own index, where the solve's Black side is. */
    Position pos;
    char err[256];
    assert_true(fen_parse(&pos, LOSS_FEN, err, sizeof err));
    pos.side = RED;
    uint64_t own = egtb_index_of(&t->lay, &pos, &side);
    assert_int_equal(t->val[BLACK][own], LOSS_V);
    assert_int_equal(value_of(t, LOSS_FEN, &side, &idx), LOSS_V);
    assert_int_equal(side, RED);
    uint64_t turned = idx;
    assert_int_equal(value_of(t, LOSS_TURNED_FEN, &side, &idx), LOSS_V);
    assert_int_equal(side, RED);
    assert_int_equal(idx, turned);
    assert_int_equal(egtb_sym_differences(t), 0);
    /* And one Black value changed is one difference. */
    EgtbTable *w = egtb_test_table(&Set, "KRKR");
    w->val[BLACK][own] = LOSS_V + 2;
    uint64_t differ = egtb_sym_differences(w);
    w->val[BLACK][own] = LOSS_V;
    assert_int_equal(differ, 1);
}

/* One table in the file; read back, Red is as solved and Black is filled
 * from it (equal to the solve's Black side); the engine probes the sampled
 * loss with Black to move; verify passes the read-back table and catches
 * one Red value made wrong. */
static void test_one_table_file(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKR");
    char dir[] = "/tmp/tuong-egtb-sym-XXXXXX", err[512], path[256];
    assert_non_null(mkdtemp(dir));
    if (!egtb_xq_write_wdl(t, dir, err, sizeof err) || !egtb_xq_write_dtc(t, dir, err, sizeof err)) fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/KRKR.lzdtc", dir);
    EgtbTable *back = malloc(sizeof *back);
    assert_non_null(back);
    if (!egtb_xq_read_table(back, path, &t->lay.mat, err, sizeof err)) fail_msg("%s", err);
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++)
            if (back->val[c][i] != t->val[c][i])
                fail_msg("index %llu side %d: read back %u, solved %u", (unsigned long long)i, c, back->val[c][i],
                         t->val[c][i]);

    assert_true(egtb_load(dir, NULL, NULL) >= 1);
    Position pos;
    assert_true(fen_parse(&pos, LOSS_FEN, err, sizeof err));
    EgtbDtc dtc;
    assert_true(egtb_probe_dtc(&pos, &dtc));
    assert_int_equal(dtc.v, LOSS_V);
    egtb_unload();

    /* Verify on a set that holds the read-back table and KRK. */
    EgtbSet set;
    egtb_set_init(&set, "");
    static const char *const subs[] = {"KRK"};
    assert_true(egtb_test_build(&set, subs, 1, 1));
    assert_true(egtb_set_add(&set, back));
    assert_int_equal(egtb_verify(&set, back, 2, stderr, err, sizeof err), 0);
    Color side;
    uint64_t idx;
    assert_int_equal(value_of(back, LOSS_TURNED_FEN, &side, &idx), LOSS_V);
    back->val[RED][idx] = LOSS_V + 2;
    FILE *quiet = fopen("/dev/null", "w");
    assert_non_null(quiet);
    assert_true(egtb_verify(&set, back, 2, quiet, err, sizeof err) > 0);
    fclose(quiet);
    egtb_set_free(&set);

    unlink(path);
    snprintf(path, sizeof path, "%s/KRKR.lzw", dir);
    unlink(path);
    rmdir(dir);
}

/* KARKR, whose captures of the advisor lead into KRKR: xiangqitb's file
 * has 3 461 entries of order above 0, orders up to 2, all perpetual
 * checks (1.5 million positions per side; left out of the slow sanitizer
 * and debug builds). */
enum { KARKR_DECIDED_RED = 2612, KARKR_DECIDED_BLACK = 849, KARKR_ORDERS = 2, KARKR_CHECK_LOSSES = 276 };

static void test_karkr_captures_into_krkr(void **state) {
    (void)state;
    if (running_slow()) skip();
    static const char *const subs[] = {"KRKA", "KARK"};
    assert_true(egtb_test_build(&Set, subs, 2, 2));
    EgtbMaterial mat;
    EgtbTable t;
    EgtbSolveStats st;
    char err[256];
    assert_true(egtb_sig_parse(&mat, "KARKR", err, sizeof err));
    assert_true(egtb_table_alloc(&t, &mat, err, sizeof err));
    if (!egtb_solve(&t, &Set, 2, &st, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(st.rule.decided[RED], KARKR_DECIDED_RED);
    assert_int_equal(st.rule.decided[BLACK], KARKR_DECIDED_BLACK);
    assert_int_equal(st.rule.orders, KARKR_ORDERS);
    assert_int_equal(st.rule.check_losses, KARKR_CHECK_LOSSES);
    assert_int_equal(st.rule.chase_losses, 0);
    egtb_table_free(&t);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_krkr_counts_match_xiangqitb),
        cmocka_unit_test(test_black_is_turned_red),
        cmocka_unit_test(test_one_table_file),
        cmocka_unit_test(test_karkr_captures_into_krkr),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
