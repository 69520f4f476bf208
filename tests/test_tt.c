// SPDX-License-Identifier: GPL-3.0-or-later
/* Transposition table: store/probe round trips, mate-score adjustment,
 * replacement, resizing and clearing. */
#include "test_support.h"

#include <string.h>
#include <unistd.h>

#include "search.h"
#include "sys.h"
#include "tt.h"

/* The failed-allocation test asks for an impossible table: under
 * AddressSanitizer that must return NULL rather than abort. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void test_store_probe_round_trip(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    Key key = 0x123456789ABCDEF0ULL;
    TTHit hit;
    assert_false(tt_probe(key, 0, &hit));
    tt_store(key, 0, make_move(10, 19), 123, -45, 7, BOUND_LOWER, false);
    assert_true(tt_probe(key, 0, &hit));
    assert_int_equal(hit.move, make_move(10, 19));
    assert_int_equal(hit.score, 123);
    assert_int_equal(hit.eval, -45);
    assert_int_equal(hit.depth, 7);
    assert_int_equal(hit.bound, BOUND_LOWER);
    /* A different key in the same bucket is not confused with it. */
    assert_false(tt_probe(key ^ 1, 0, &hit));
}

/* The PV flag comes back as stored, survives an age refresh by a probe and
 * a new search, and does not disturb the bound. */
static void test_pv_flag_round_trip(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    TTHit hit;
    tt_store(1001, 0, make_move(10, 19), 50, 40, 6, BOUND_UPPER, true);
    tt_store(2002, 0, make_move(11, 20), 60, 40, 6, BOUND_EXACT, false);
    tt_new_search();
    assert_true(tt_probe(1001, 0, &hit));
    assert_true(hit.pv);
    assert_int_equal(hit.bound, BOUND_UPPER);
    assert_true(tt_probe(1001, 0, &hit));
    assert_true(hit.pv);
    assert_true(tt_probe(2002, 0, &hit));
    assert_false(hit.pv);
    assert_int_equal(hit.bound, BOUND_EXACT);
}

static void test_mate_scores_are_node_relative(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    Key key = 0xDEADBEEFCAFEF00DULL;
    /* Found at ply 5: we mate at root ply 9, i.e. 4 plies from this node. */
    tt_store(key, 5, MOVE_NONE, SCORE_MATE - 9, SCORE_NONE, 3, BOUND_EXACT, false);
    TTHit hit;
    assert_true(tt_probe(key, 2, &hit));
    assert_int_equal(hit.score, SCORE_MATE - 6); /* still 4 plies from the node */
    tt_store(key, 3, MOVE_NONE, -(SCORE_MATE - 8), SCORE_NONE, 3, BOUND_EXACT, false);
    assert_true(tt_probe(key, 10, &hit));
    assert_int_equal(hit.score, -(SCORE_MATE - 15));
    assert_int_equal(score_from_tt(score_to_tt(250, 17), 17), 250);
    assert_int_equal(score_to_tt(SCORE_MATE - 3, 2), SCORE_MATE - 1);
    assert_int_equal(score_to_tt(-(SCORE_MATE - 3), 2), -(SCORE_MATE - 1));
}

/* Endgame-table results too: a table win found at ply 6 and read back at
 * ply 2 is 4 plies nearer the root, and stays in the table band. */
static void test_table_scores_are_node_relative(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    Key key = 0x0123456789ABCDEFULL;
    tt_store(key, 6, MOVE_NONE, SCORE_TB_WIN - 6, SCORE_NONE, 9, BOUND_LOWER, false);
    TTHit hit;
    assert_true(tt_probe(key, 2, &hit));
    assert_int_equal(hit.score, SCORE_TB_WIN - 2);
    assert_int_equal(hit.bound, BOUND_LOWER);
    tt_store(key, 4, MOVE_NONE, -(SCORE_TB_WIN - 4), SCORE_NONE, 9, BOUND_UPPER, false);
    assert_true(tt_probe(key, 9, &hit));
    assert_int_equal(hit.score, -(SCORE_TB_WIN - 9));
    assert_true(score_is_decisive(hit.score) && !score_is_mate(hit.score));
}

static void test_move_kept_when_storing_without_one(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    Key key = 42;
    tt_store(key, 0, make_move(1, 2), 10, 10, 4, BOUND_EXACT, false);
    tt_store(key, 0, MOVE_NONE, 20, 10, 5, BOUND_UPPER, false);
    TTHit hit;
    assert_true(tt_probe(key, 0, &hit));
    assert_int_equal(hit.move, make_move(1, 2));
    assert_int_equal(hit.score, 20);
}

static void test_bucket_replacement_keeps_the_deep_entry(void **state) {
    (void)state;
    assert_true(tt_resize(0)); /* one bucket: every key collides */
    tt_store(1, 0, MOVE_NONE, 1, 0, 30, BOUND_EXACT, false);
    for (Key k = 2; k < 40; k++) tt_store(k << 40, 0, MOVE_NONE, 1, 0, 1, BOUND_EXACT, false);
    TTHit hit;
    assert_true(tt_probe(1, 0, &hit));
    assert_int_equal(hit.depth, 30);
    assert_true(tt_probe(39ULL << 40, 0, &hit));
}

static void test_clear_and_hashfull(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    tt_new_search();
    assert_int_equal(tt_hashfull(), 0);
    for (Key k = 1; k < 200000; k++) tt_store(k * 0x9E3779B97F4A7C15ULL, 0, MOVE_NONE, 0, 0, 1, BOUND_EXACT, false);
    assert_true(tt_hashfull() > 500);
    tt_clear();
    assert_int_equal(tt_hashfull(), 0);
    TTHit hit;
    assert_false(tt_probe(0x9E3779B97F4A7C15ULL, 0, &hit));
}

static void test_failed_resize_keeps_the_old_table(void **state) {
    (void)state;
    assert_true(tt_resize(1));
    tt_store(77, 0, make_move(3, 4), 5, 5, 3, BOUND_EXACT, false);
    assert_false(tt_resize((size_t)1 << 40)); /* an exabyte: cannot be had */
    TTHit hit;
    assert_true(tt_probe(77, 0, &hit));
    assert_int_equal(hit.move, make_move(3, 4));
    /* Through the search interface too: Options.hash_mb unchanged. */
    search_init();
    int before = Options.hash_mb;
    assert_true(search_resize_hash(2));
    assert_int_equal(Options.hash_mb, 2);
    assert_false(search_resize_hash(1 << 30));
    assert_int_equal(Options.hash_mb, 2);
    assert_true(search_resize_hash(before));
}

/* The table's memory: zero, writable to its last byte, and from one huge
 * page up aligned to one (2 MB; POSIX), so that the system can back it
 * with huge pages; sizes that are no whole number of pages too. */
static void test_large_alloc(void **state) {
    (void)state;
    const size_t Huge = (size_t)2 << 20;
    const size_t sizes[] = {1, 64, 4096, 4097, Huge - 1, Huge, Huge + 1, 3 * Huge + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned char *p = sys_large_alloc(sizes[i]);
        assert_non_null(p);
#ifndef _WIN32
        if (sizes[i] >= Huge) assert_int_equal((uintptr_t)p % Huge, 0);
#endif
        for (size_t at = 0; at < sizes[i]; at += 4093)
            assert_int_equal(p[at], 0);
        assert_int_equal(p[sizes[i] - 1], 0);
        memset(p, 0xA5, sizes[i]);
        sys_large_free(p, sizes[i]);
    }
    sys_large_free(NULL, 123); /* as free(NULL) */
    assert_null(sys_large_alloc(SIZE_MAX - 5));
}

/* A table set by `setoption Hash` (search_resize_hash) is written through
 * at once, and tt_clear writes over it, so that its page faults are paid
 * before `readyok` rather than in the first search (tt.c, zero_table):
 * the process's resident memory grows by the whole table. tt_resize alone
 * (the table of startup) touches nothing. */
static long resident_mb(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

static void test_resize_touches_the_table(void **state) {
    (void)state;
#ifdef __linux__
    search_init();
    int keep = Options.hash_mb;
    assert_true(search_resize_hash(1));
    long before = resident_mb();
    assert_true(before >= 0);
    assert_true(tt_resize(96));
    if (resident_mb() - before > 30) fail_msg("tt_resize touched the table: %ld MB more", resident_mb() - before);
    assert_true(search_resize_hash(1));
    before = resident_mb();
    assert_true(search_resize_hash(96));
    long after = resident_mb();
    if (after - before < 90) fail_msg("resident %ld MB before, %ld MB after a 96 MB table", before, after);
    tt_store(77, 0, make_move(3, 4), 5, 5, 3, BOUND_EXACT, false);
    tt_clear(); /* written over, not mapped afresh: still resident, and empty */
    assert_true(resident_mb() - before >= 90);
    TTHit hit;
    assert_false(tt_probe(77, 0, &hit));
    assert_true(search_resize_hash(keep));
#else
    skip();
#endif
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_probe_round_trip),
        cmocka_unit_test(test_pv_flag_round_trip),
        cmocka_unit_test(test_mate_scores_are_node_relative),
        cmocka_unit_test(test_table_scores_are_node_relative),
        cmocka_unit_test(test_move_kept_when_storing_without_one),
        cmocka_unit_test(test_bucket_replacement_keeps_the_deep_entry),
        cmocka_unit_test(test_clear_and_hashfull),
        cmocka_unit_test(test_failed_resize_keeps_the_old_table),
        cmocka_unit_test(test_large_alloc),
        cmocka_unit_test(test_resize_touches_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
