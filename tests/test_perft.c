// SPDX-License-Identifier: GPL-3.0-or-later
/* Threaded perft and the perft hash table: every combination of threads and
 * table gives the single-thread count; the table's key check turns away
 * other keys, other depths and torn entries; divide output keeps its lines. */
#include "test_support.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "perft_table.h"

/* Positions with their counts from the reference table (perft.epd). */
static const struct {
    const char *fen;
    int depth;
    uint64_t nodes;
} Cases[] = {
    {START_FEN, 4, 3290240},
    {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 4, 1339047},
    {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 4, 326201},
    {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 5, 4739553},
    {"C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", 4, 0}, /* 0: take perft() as the reference */
    {"3k5/R8/9/9/9/9/9/9/9/3RK4 b - - 0 1", 2, 0},
};

/* Sanitizer builds count some 100x slower: one ply less there. */
static int case_depth(int i) { return running_slow() ? Cases[i].depth - 1 : Cases[i].depth; }

static void test_threads_and_tables_give_the_single_thread_count(void **state) {
    (void)state;
    static Position pos;
    PerftTable big = {0}, tiny = {0}, pair = {0};
    assert_true(perft_table_init(&big, 1 << 20));
    assert_true(perft_table_init(&tiny, 1));                       /* one bucket: every key collides */
    assert_true(perft_table_init(&pair, 2 * sizeof(PerftBucket))); /* two buckets */
    assert_int_equal(tiny.mask, 0);
    assert_int_equal(pair.mask, 1);
    PerftTable *tables[] = {NULL, &big, &tiny, &pair};
    for (size_t c = 0; c < sizeof Cases / sizeof Cases[0]; c++) {
        must_parse(&pos, Cases[c].fen);
        int depth = case_depth((int)c);
        uint64_t want = perft(&pos, depth);
        if (Cases[c].nodes && depth == Cases[c].depth) assert_int_equal(want, Cases[c].nodes);
        for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
            for (int threads = 1; threads <= 4; threads++) {
                PerftOptions opt = {.threads = threads, .table = tables[t]};
                uint64_t got = perft_count(&pos, depth, &opt);
                if (got != want)
                    fail_msg("%s depth %d, %d threads, table %zu: %" PRIu64 " != %" PRIu64, Cases[c].fen, depth,
                             threads, t, got, want);
                /* A second run reads what the first one stored. */
                assert_int_equal(perft_count(&pos, depth, &opt), want);
            }
    }
    perft_table_free(&big);
    perft_table_free(&tiny);
    perft_table_free(&pair);
}

static void test_small_depths_and_no_moves(void **state) {
    (void)state;
    static Position pos;
    PerftTable table = {0};
    assert_true(perft_table_init(&table, 1 << 16));
    PerftOptions opt = {.threads = 2, .table = &table};
    must_parse(&pos, START_FEN);
    assert_int_equal(perft_count(&pos, 0, &opt), 1);
    assert_int_equal(perft_count(&pos, 1, &opt), 44);
    assert_int_equal(perft_count(&pos, 2, &opt), 1920);
    assert_int_equal(perft_count(&pos, 3, &opt), 79666);
    /* Checkmated: no move at any depth. */
    must_parse(&pos, "3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    for (int d = 1; d <= 5; d++)
        assert_int_equal(perft_count(&pos, d, &opt), perft(&pos, d));
    perft_table_free(&table);
}

/* A position at the end of a full game record counts like its FEN: the
 * threads start from a fresh root, so the history cannot overflow. */
static void test_full_game_record(void **state) {
    (void)state;
    static Position pos, fresh;
    must_parse(&pos, START_FEN);
    static const char *const Shuffle[] = {"h0g2", "h9g7", "g2h0", "g7h9"};
    while (!pos_history_full(&pos))
        pos_make_move(&pos, move_from_text(Shuffle[pos.game_ply % 4], 0));
    char fen[FEN_MAX];
    must_parse(&fresh, fen_write(&pos, fen));
    PerftOptions opt = {.threads = 2, .table = NULL};
    assert_int_equal(perft_count(&pos, 3, &opt), perft(&fresh, 3));
}

static void test_table_key_check(void **state) {
    (void)state;
    PerftTable t = {0};
    assert_true(perft_table_init(&t, 4 * sizeof(PerftBucket)));
    uint64_t n = 0;
    Key key = 0x0123456789ABCDE1ULL;
    assert_false(perft_table_probe(&t, key, 3, &n));
    perft_table_store(&t, key, 3, 79666);
    assert_true(perft_table_probe(&t, key, 3, &n));
    assert_int_equal(n, 79666);
    /* Same bucket, other key or other depth: a miss. */
    assert_false(perft_table_probe(&t, key ^ (1ULL << 40), 3, &n));
    assert_false(perft_table_probe(&t, key, 4, &n));
    assert_false(perft_table_probe(&t, key, 2, &n));
    /* Counts too big for the entry are not stored. */
    perft_table_store(&t, key + 4, 9, 1ULL << 60);
    assert_false(perft_table_probe(&t, key + 4, 9, &n));
    perft_table_free(&t);
    assert_null(t.buckets);
}

/* Two threads writing one entry at once can leave the check word of one
 * store beside the data word of the other: that entry must miss. */
static void test_torn_entry_is_a_miss(void **state) {
    (void)state;
    PerftTable t = {0};
    assert_true(perft_table_init(&t, 1));
    Key a = 0xAAAA0000AAAA0000ULL, b = 0x5555111155551111ULL;
    uint64_t n = 0;
    perft_table_store(&t, a, 4, 1000); /* entry 0 */
    perft_table_store(&t, b, 4, 2000); /* entry 1: the shallowest was empty */
    PerftEntry *e = t.buckets[0].entry;
    assert_true(perft_table_probe(&t, a, 4, &n));
    assert_int_equal(n, 1000);
    assert_true(perft_table_probe(&t, b, 4, &n));
    assert_int_equal(n, 2000);
    /* Tear both: a's check word with b's data word, and the other way round. */
    uint64_t check_a = atomic_load(&e[0].check), data_a = atomic_load(&e[0].data);
    atomic_store(&e[0].data, atomic_load(&e[1].data));
    atomic_store(&e[1].data, data_a);
    assert_false(perft_table_probe(&t, a, 4, &n));
    assert_false(perft_table_probe(&t, b, 4, &n));
    /* Mending one entry brings its count back. */
    atomic_store(&e[0].data, data_a);
    atomic_store(&e[0].check, check_a);
    assert_true(perft_table_probe(&t, a, 4, &n));
    assert_int_equal(n, 1000);
    perft_table_free(&t);
}

static void test_table_keeps_deep_entries(void **state) {
    (void)state;
    PerftTable t = {0};
    assert_true(perft_table_init(&t, 1));
    uint64_t n = 0;
    for (int d = 2; d < 2 + PERFT_BUCKET_SIZE; d++)
        perft_table_store(&t, (Key)d << 32, d, (uint64_t)d * 10);
    perft_table_store(&t, 99, 7, 70); /* replaces the depth-2 entry */
    assert_false(perft_table_probe(&t, 2ULL << 32, 2, &n));
    assert_true(perft_table_probe(&t, 99, 7, &n));
    assert_int_equal(n, 70);
    for (int d = 3; d < 2 + PERFT_BUCKET_SIZE; d++) {
        assert_true(perft_table_probe(&t, (Key)d << 32, d, &n));
        assert_int_equal(n, (uint64_t)d * 10);
    }
    perft_table_free(&t);
}

/* Two threads storing one subtree take one entry, not two. */
static void test_table_stores_a_count_once(void **state) {
    (void)state;
    PerftTable t = {0};
    assert_true(perft_table_init(&t, 1));
    uint64_t n = 0;
    perft_table_store(&t, 7, 3, 30);
    perft_table_store(&t, 7, 3, 30);
    /* Shallower counts fill the other entries (a second copy would make
     * the last of them evict the first). */
    for (Key k = 1; k < PERFT_BUCKET_SIZE; k++) perft_table_store(&t, k << 20, 2, k);
    assert_true(perft_table_probe(&t, 7, 3, &n));
    assert_int_equal(n, 30);
    for (Key k = 1; k < PERFT_BUCKET_SIZE; k++) {
        assert_true(perft_table_probe(&t, k << 20, 2, &n));
        assert_int_equal(n, k);
    }
    perft_table_free(&t);
}

/* Divide output with the lines that depend on time cut off. */
static void divide_text(const Position *pos, int depth, const PerftOptions *opt, char *buf, size_t len) {
    FILE *f = tmpfile();
    assert_non_null(f);
    perft_divide_with(pos, depth, 0, opt, f);
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
    char *cut = strstr(buf, "\nTime (ms): ");
    assert_non_null(cut);
    *cut = '\0';
}

static void test_divide_output_unchanged_by_threads(void **state) {
    (void)state;
    static Position pos;
    static char one[8192], many[8192];
    PerftTable table = {0};
    assert_true(perft_table_init(&table, 1 << 16));
    must_parse(&pos, START_FEN);
    int depth = running_slow() ? 3 : 4;
    PerftOptions single = {.threads = 1, .table = NULL}, multi = {.threads = 3, .table = &table};
    divide_text(&pos, depth, &single, one, sizeof one);
    divide_text(&pos, depth, &multi, many, sizeof many);
    assert_string_equal(one, many);
    /* One line per root move in generation order, then the total. */
    MoveList list;
    gen_legal(&pos, &list);
    const char *line = one;
    uint64_t sum = 0;
    for (int i = 0; i < list.count; i++) {
        char text[MOVE_TEXT_MAX];
        move_to_text(list.moves[i], 0, text);
        assert_true(!strncmp(line, text, 4) && line[4] == ':');
        sum += strtoull(line + 6, NULL, 10);
        line = strchr(line, '\n') + 1;
    }
    char total[64];
    snprintf(total, sizeof total, "\nNodes searched: %" PRIu64, sum);
    assert_string_equal(line, total);
    assert_int_equal(sum, perft(&pos, depth));
    perft_table_free(&table);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_and_tables_give_the_single_thread_count),
        cmocka_unit_test(test_small_depths_and_no_moves),
        cmocka_unit_test(test_full_game_record),
        cmocka_unit_test(test_table_key_check),
        cmocka_unit_test(test_torn_entry_is_a_miss),
        cmocka_unit_test(test_table_keeps_deep_entries),
        cmocka_unit_test(test_table_stores_a_count_once),
        cmocka_unit_test(test_divide_output_unchanged_by_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
