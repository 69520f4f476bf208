// SPDX-License-Identifier: GPL-3.0-or-later
/* The rule loop (bench/egtb/egtb_rule_loop.c) on KRKN, built in memory: the
 * worked example of docs/egtb.md (White wins at index 15044 only because
 * Black's one way on is a perpetual check), the counts of rule-decided
 * entries in xiangqitb's own KRKN (312 White wins, 315 + 970 Black
 * losses, all of order 1), KCKN where the loop runs and finds nothing (as
 * xiangqitb's), verify on the orders (and a wrong order caught), the
 * orders through our DTC file to the loader and the engine's prober,
 * KNKPP's counts, chase verdicts among them, and that neither the thread
 * count nor the children cache's budget changes a value or an order. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egtb/egtb_probe.h"
#include "egtb_rule_loop.h"
#include "egtb_test_tables.h"
#include "egtb_verify.h"
#include "egtb_xq.h"
#include "fen.h"

/* docs/egtb.md, "Worked example (KRKN, from the tables)": White in check
 * from the horse; Kd2 (index 15043, Black to move) is lost for Black at
 * order 1 since its only move that does not lose is Nf1+, again and
 * again. */
#define EXAMPLE_FEN "9/9/5k3/9/9/1R7/9/4K4/9/3n5 w"
#define EXAMPLE_AFTER_KD2 "9/9/5k3/9/9/1R7/9/3K5/9/3n5 b"
enum { EXAMPLE_INDEX = 15044, EXAMPLE_AFTER_KD2_INDEX = 15043 };

static EgtbSet Set;

static int build_all(void **state) {
    (void)state;
    static const char *const names[] = {"KRK", "KNK", "KCK", "KRKN", "KCKN"};
    egtb_set_init(&Set, "");
    return egtb_test_build(&Set, names, sizeof names / sizeof names[0], 2) ? 0 : -1;
}

static int free_all(void **state) {
    (void)state;
    egtb_set_free(&Set);
    return 0;
}

/* The index of FEN in t and its value and order there. */
static uint64_t lookup(const EgtbTable *t, const char *fen, uint16_t *v, unsigned *order) {
    Position pos;
    char err[256];
    if (!fen_parse(&pos, fen, err, sizeof err)) fail_msg("%s: %s", fen, err);
    Color side;
    uint64_t idx = egtb_index_of(&t->lay, &pos, &side);
    *v = t->val[side][idx];
    *order = egtb_table_order(t, side, idx);
    return idx;
}

static void test_worked_example(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKN");
    uint16_t v;
    unsigned order;
    assert_int_equal(lookup(t, EXAMPLE_FEN, &v, &order), EXAMPLE_INDEX);
    assert_int_equal(v, 2); /* White wins: Kd2, then Black can only check for ever */
    assert_int_equal(order, 1);
    assert_int_equal(lookup(t, EXAMPLE_AFTER_KD2, &v, &order), EXAMPLE_AFTER_KD2_INDEX);
    assert_int_equal(v, 1); /* the perpetual checker's loss */
    assert_int_equal(order, 1);
}

/* Entries per side to move with order > 0, by value: xiangqitb's KRKN has
 * 312 White wins v = 2, and 315 Black losses v = 1 and 970 v = 3. */
static void test_krkn_counts_match_xiangqitb(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKN");
    uint64_t red_win2 = 0, black_loss1 = 0, black_loss3 = 0, other = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            unsigned order = egtb_table_order(t, c, i);
            if (order == 0) continue;
            uint16_t v = t->val[c][i];
            if (order == 1 && c == RED && v == 2)
                red_win2++;
            else if (order == 1 && c == BLACK && v == 1)
                black_loss1++;
            else if (order == 1 && c == BLACK && v == 3)
                black_loss3++;
            else
                other++;
        }
    assert_int_equal(red_win2, 312);
    assert_int_equal(black_loss1, 315);
    assert_int_equal(black_loss3, 970);
    assert_int_equal(other, 0);
}

/* KCKN: the first marking flags positions and order 1 runs, but no side is
 * ever forced to check or chase (xiangqitb's KCKN has no order above 0). */
static void test_kckn_has_no_rule_verdict(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KCKN");
    assert_null(t->order[RED]);
    assert_null(t->order[BLACK]);
}

/* Verify accepts KRKN with its orders, and catches the worked example's
 * win put back to order 0: from what was known at order 0, Kd2 led to an
 * open position, not a loss; and a Black loss v = 3 of order 1 (horse
 * b1) then lacks its order-1 resistance of value 2 (the move into 15044). */
static void test_verify_checks_orders(void **state) {
    (void)state;
    EgtbTable *t = egtb_test_table(&Set, "KRKN");
    char err[256];
    assert_non_null(t->order[RED]);
    assert_int_equal(egtb_verify(&Set, t, 2, stderr, err, sizeof err), 0);
    t->order[RED][EXAMPLE_INDEX] = 0;
    int64_t faults = egtb_verify(&Set, t, 2, stderr, err, sizeof err);
    t->order[RED][EXAMPLE_INDEX] = 1;
    assert_int_equal(faults, 2);
}

/* Our DTC file holds order << 10 | v: read back by the generator's loader
 * and by the engine's prober, the orders are the solver's. */
static void test_orders_through_the_file(void **state) {
    (void)state;
    const EgtbTable *t = egtb_test_table(&Set, "KRKN");
    char dir[] = "/tmp/tuong-egtb-rule-loop-XXXXXX", err[512], path[256];
    assert_non_null(mkdtemp(dir));
    if (!egtb_xq_write_wdl(t, dir, err, sizeof err) || !egtb_xq_write_dtc(t, dir, err, sizeof err)) fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/KRKN.lzdtc", dir);
    EgtbTable back;
    if (!egtb_xq_read_table(&back, path, &t->lay.mat, err, sizeof err)) fail_msg("%s", err);
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++)
            if (back.val[c][i] != t->val[c][i] || egtb_table_order(&back, c, i) != egtb_table_order(t, c, i))
                fail_msg("index %llu side %d: read back %u order %u", (unsigned long long)i, c, back.val[c][i],
                         egtb_table_order(&back, c, i));
    egtb_table_free(&back);

    assert_true(egtb_load(dir, NULL, NULL) >= 1);
    Position pos;
    assert_true(fen_parse(&pos, EXAMPLE_FEN, err, sizeof err));
    EgtbDtc dtc;
    assert_true(egtb_probe_dtc(&pos, &dtc));
    assert_int_equal(dtc.v, 2);
    assert_int_equal(dtc.order, 1);
    egtb_unload();

    unlink(path);
    snprintf(path, sizeof path, "%s/KRKN.lzw", dir);
    unlink(path);
    rmdir(dir);
}

/* Chase verdicts, which no four-piece table has: KNKPP (5.6 million
 * positions per side; left out of the slow sanitizer and debug builds).
 * xiangqitb's KNKPP has 206 036 White-to-move and 275 447 Black-to-move
 * entries of order above 0, orders up to 6, and 9 055 rule losses v = 1;
 * of those our loop decides 4 223 by the chase pair (the rest by check). */
static void test_knkpp_chase_verdicts(void **state) {
    (void)state;
    if (running_slow()) skip();
    static const char *const subs[] = {"KPK", "KNK", "KPPK", "KNKP"};
    EgtbSet set;
    egtb_set_init(&set, "");
    assert_true(egtb_test_build(&set, subs, sizeof subs / sizeof subs[0], 2));
    EgtbMaterial mat;
    EgtbTable t;
    EgtbSolveStats st;
    char err[256];
    assert_true(egtb_sig_parse(&mat, "KNKPP", err, sizeof err));
    assert_true(egtb_table_alloc(&t, &mat, err, sizeof err));
    if (!egtb_solve(&t, &set, 2, &st, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(st.rule.decided[RED], 206036);
    assert_int_equal(st.rule.decided[BLACK], 275447);
    assert_int_equal(st.rule.orders, 6);
    assert_int_equal(st.rule.check_losses + st.rule.chase_losses, 9055);
    assert_int_equal(st.rule.chase_losses, 4223);
    uint64_t rule_losses = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t.lay.positions; i++)
            rule_losses += t.val[c][i] == 1 && egtb_table_order(&t, c, i) > 0;
    assert_int_equal(rule_losses, 9055);
    egtb_table_free(&t);
    egtb_set_free(&set);
}

/* Solve sig (its smaller tables in Set) with `threads` threads and the
 * loop's children cache limited to cache_bytes. */
static void solve_with(EgtbTable *t, const char *sig, int threads, uint64_t cache_bytes, EgtbSolveStats *st) {
    EgtbMaterial mat;
    char err[256];
    assert_true(egtb_sig_parse(&mat, sig, err, sizeof err));
    assert_true(egtb_table_alloc(t, &mat, err, sizeof err));
    uint64_t saved = egtb_rule_cache_bytes;
    egtb_rule_cache_bytes = cache_bytes;
    bool ok = egtb_solve(t, &Set, threads, st, err, sizeof err);
    egtb_rule_cache_bytes = saved;
    if (!ok) fail_msg("%s", err);
}

/* The first marking runs on the build's threads and the passes read kept
 * children where the budget allows: KRKN (rule verdicts of order 1) and
 * KCKN come out the same, value and order at every index, on one thread
 * and on two, with the whole cache, a part of it (the rest decoded each
 * pass) and none. */
static void test_threads_and_cache_change_nothing(void **state) {
    (void)state;
    static const char *const sigs[] = {"KRKN", "KCKN"};
    for (size_t s = 0; s < sizeof sigs / sizeof sigs[0]; s++) {
        EgtbTable ref;
        EgtbSolveStats ref_st;
        solve_with(&ref, sigs[s], 1, EGTB_RULE_CACHE_BYTES, &ref_st);
        assert_int_equal(ref_st.rule.cached, ref_st.rule.marked); /* all kept */
        uint64_t all = ref_st.rule.cache_bytes;
        /* threads, budget: all, none, three quarters, a half */
        const struct {
            int threads;
            uint64_t cache_bytes;
        } runs[] = {{2, EGTB_RULE_CACHE_BYTES}, {1, 0}, {2, all / 4 * 3}, {1, all / 2}};
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            EgtbTable t;
            EgtbSolveStats st;
            solve_with(&t, sigs[s], runs[r].threads, runs[r].cache_bytes, &st);
            assert_int_equal(st.rule.marked, ref_st.rule.marked);
            if (r > 0) assert_true(st.rule.cached < st.rule.marked);
            if (r == 1) assert_int_equal(st.rule.cached, 0);
            /* KCKN's 162 180 listed nodes make 40 chunks: some fit (KRKN's 918 are
             * one chunk a colour) */
            if (r == 2 && s == 1) assert_true(st.rule.cached > 0);
            for (int c = 0; c < COLOR_NB; c++)
                for (uint64_t i = 0; i < t.lay.positions; i++) {
                    assert_int_equal(t.val[c][i], ref.val[c][i]);
                    assert_int_equal(egtb_table_order(&t, c, i), egtb_table_order(&ref, c, i));
                }
            egtb_table_free(&t);
        }
        egtb_table_free(&ref);
    }
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_krkn_counts_match_xiangqitb),
        cmocka_unit_test(test_kckn_has_no_rule_verdict),
        cmocka_unit_test(test_verify_checks_orders),
        cmocka_unit_test(test_orders_through_the_file),
        cmocka_unit_test(test_knkpp_chase_verdicts),
        cmocka_unit_test(test_threads_and_cache_change_nothing),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
