// SPDX-License-Identifier: GPL-3.0-or-later
/* NNUE inference: net file validation, feature indexing and its colour /
 * file symmetry, incremental accumulators against full refreshes (random
 * games, random trees with null moves, a real search), and the switch back
 * to the hand-crafted evaluation. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "nnue/nnue.h"
#include "nnue/nnue_accum.h"
#include "nnue/nnue_features.h"
#include "nnue_testnet.h"
#include "search.h"

static NnueStack Stack;
static Position Pos, Twin;
static uint64_t Rng = 12345;

static const char *const Fens[] = {
    START_FEN,
    "r1bakabr1/9/1cn3nc1/p3p2Rp/2p3p2/9/P1P1P1P1P/1CN1C1N2/R8/2BAKAB2 b - - 0 1",
    "1rbaka2r/9/2n1bcn2/p3p1p1p/2p6/6P2/PcP1P3P/N1C1C1N2/9/1RBAKABR1 w - - 0 1",
    "3k5/9/4b4/9/2p3p2/9/6P2/4B4/4A4/3AK4 w - - 0 1",
    "5k3/4R4/4c4/9/6r2/9/6n2/2R2A3/C2p5/3A1K3 b - - 0 1",
    "4kaN1C/3PaP3/2r6/9/9/9/4c4/4B3n/3rA4/2BAK2RR b - - 0 1",
};

/* Load a random net of this shape as the net in use. */
static void use_random_net(int feature_set, int hidden, int out_buckets, uint64_t seed) {
    TestNet n = testnet_make(feature_set, hidden, out_buckets, seed);
    char path[64], err[300];
    testnet_write(n.bytes, n.size, path);
    free(n.bytes);
    bool ok = nnue_load_file(path, err, sizeof err);
    remove(path);
    if (!ok) fail_msg("loading a random net: %s", err);
    nnue_set_enabled(true);
    assert_non_null(NnueInUse);
}

/* ---- net files ------------------------------------------------------------ */

static void expect_rejected(TestNet *n, const char *why) {
    NnueNet net;
    char err[300] = "";
    assert_false(nnue_net_parse(&net, n->bytes, n->size, err, sizeof err));
    if (!strstr(err, why)) fail_msg("expected '%s' in: %s", why, err);
    assert_null(net.memory);
}

static void set_field(TestNet *n, int offset, uint32_t v) { testnet_u32(n->bytes + offset, v); }

static void test_net_validation(void **state) {
    (void)state;
    TestNet good = testnet_make(NNUE_FS_PLAIN, 128, 1, 1);
    NnueNet net;
    char err[300];
    assert_true(nnue_net_parse(&net, good.bytes, good.size, err, sizeof err));
    assert_int_equal(net.hidden, 128);
    assert_int_equal(net.ft_weights[5],
                     (int16_t)(good.bytes[NNUE_HEADER_SIZE + 10] | good.bytes[NNUE_HEADER_SIZE + 11] << 8));
    nnue_net_free(&net);

    struct {
        int offset;
        uint32_t value;
        const char *why;
    } const Bad[] = {
        /* Versions 1 to 3 are known; a version-3 header on this version-1
         * file reads L1 and L2 from the payload. */
        {8, 4, "version"},
        {8, 0, "version"},
        {8, 2, "dense stack"},
        {8, 3, "dense stack"},
        {12, 2, "feature set"},
        {16, 100, "accumulator size"},
        {16, 2048, "accumulator size"},
        {16, 160, "truncated"},
        {20, 3, "output bucket"},
        {24, 256, "quantisation"},
        {28, 32, "quantisation"},
        {32, 0, "scale"},
        {36, 0x12345678, "hash"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof *Bad; i++) {
        TestNet n = {malloc(good.size), good.size};
        memcpy(n.bytes, good.bytes, good.size);
        set_field(&n, Bad[i].offset, Bad[i].value);
        expect_rejected(&n, Bad[i].why);
        free(n.bytes);
    }
    TestNet n = {malloc(good.size + 1), good.size};
    memcpy(n.bytes, good.bytes, good.size);
    n.bytes[0] = 'X';
    expect_rejected(&n, "magic");
    n.bytes[0] = good.bytes[0];
    n.bytes[NNUE_HEADER_SIZE + 7] ^= 1; /* a flipped payload bit */
    expect_rejected(&n, "hash");
    n.bytes[NNUE_HEADER_SIZE + 7] ^= 1;
    n.size = good.size - 1;
    expect_rejected(&n, "truncated");
    n.size = good.size + 1;
    expect_rejected(&n, "too long");
    n.size = 20;
    expect_rejected(&n, "header");
    free(n.bytes);
    free(good.bytes);
}

/* A failed load (missing, truncated, wrong shape) keeps the net in use. */
static void test_failed_load_keeps_net(void **state) {
    (void)state;
    use_random_net(NNUE_FS_PLAIN, 128, 8, 7);
    uint32_t hash = nnue_loaded()->hash;
    char err[300], path[64];
    assert_false(nnue_load_file("/nonexistent/net.nnue", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_false(nnue_load_file("/tmp", err, sizeof err));
    assert_non_null(strstr(err, "not a regular file"));
    TestNet n = testnet_make(NNUE_FS_PLAIN, 128, 8, 8);
    testnet_write(n.bytes, n.size / 2, path);
    assert_false(nnue_load_file(path, err, sizeof err));
    assert_non_null(strstr(err, "truncated"));
    remove(path);
    set_field(&n, 16, 96);
    testnet_write(n.bytes, n.size, path);
    assert_false(nnue_load_file(path, err, sizeof err));
    remove(path);
    free(n.bytes);
    assert_int_equal(nnue_loaded()->hash, hash);
    assert_ptr_equal(NnueInUse, nnue_loaded());
}

/* ---- features --------------------------------------------------------------- */

static unsigned rnd(unsigned n) { return (unsigned)(testnet_rand(&Rng) % n); }

/* A position some random plies into a game from one of Fens. */
static void random_position(Position *pos, int plies) {
    must_parse(pos, Fens[rnd(sizeof Fens / sizeof *Fens)]);
    random_walk(pos, plies, rnd);
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Perspective c's sorted features of pos; returns their count. */
static int features_of(const Position *pos, int fs, Color c, int *out) {
    NnueOrient o = nnue_orient(fs, c, pos->king_sq[c]);
    int n = 0;
    for (Square s = 0; s < SQUARE_NB; s++)
        if (pos->board[s]) out[n++] = nnue_feature(c, o, pos->board[s], s);
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

static void file_mirror(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Square s = 0; s < SQUARE_NB; s++)
        if (src->board[s]) pos_put_piece(dst, src->board[s], make_square(8 - file_of(s), rank_of(s)));
    dst->side = src->side;
    pos_finish_setup(dst);
}

/* Every feature in range and distinct; a colour-mirrored twin gives the
 * other perspective the same features; with king buckets, a king off the
 * centre file makes the left-right twin's features identical. */
static void test_feature_symmetry(void **state) {
    (void)state;
    for (int fs = 0; fs < NNUE_FS_NB; fs++)
        for (int i = 0; i < 300; i++) {
            random_position(&Pos, (int)rnd(120));
            colour_mirror(&Pos, &Twin);
            for (Color c = RED; c <= BLACK; c++) {
                int a[32], b[32];
                int n = features_of(&Pos, fs, c, a);
                assert_int_equal(features_of(&Twin, fs, (Color)!c, b), n);
                for (int k = 0; k < n; k++) {
                    assert_in_range(a[k], 0, nnue_input_count(fs) - 1);
                    if (k) assert_true(a[k] > a[k - 1]);
                    assert_int_equal(a[k], b[k]);
                }
            }
            if (fs != NNUE_FS_KING_BUCKETS) continue;
            file_mirror(&Pos, &Twin);
            for (Color c = RED; c <= BLACK; c++) {
                if (file_of(Pos.king_sq[c]) == 4) continue;
                int a[32], b[32];
                int n = features_of(&Pos, fs, c, a);
                features_of(&Twin, fs, c, b);
                assert_memory_equal(a, b, sizeof(int) * (size_t)n);
            }
        }
}

/* The same twins evaluate the same with a random net (weights are shared
 * by construction), and left-right twins too when neither king is on the
 * centre file (king buckets). */
static void test_eval_symmetry(void **state) {
    (void)state;
    for (int fs = 0; fs < NNUE_FS_NB; fs++) {
        use_random_net(fs, 256, 8, 100 + (uint64_t)fs);
        for (int i = 0; i < 200; i++) {
            random_position(&Pos, (int)rnd(120));
            colour_mirror(&Pos, &Twin);
            assert_int_equal(evaluate(&Pos), evaluate(&Twin));
            if (fs == NNUE_FS_KING_BUCKETS && file_of(Pos.king_sq[RED]) != 4 && file_of(Pos.king_sq[BLACK]) != 4) {
                file_mirror(&Pos, &Twin);
                assert_int_equal(evaluate(&Pos), evaluate(&Twin));
            }
        }
    }
}

static void test_output_buckets(void **state) {
    (void)state;
    int prev = 0;
    for (int pieces = 2; pieces <= 32; pieces++) {
        int b = nnue_output_bucket(pieces, 8);
        assert_in_range(b, prev, prev + 1);
        prev = b;
        assert_int_equal(nnue_output_bucket(pieces, 1), 0);
    }
    assert_int_equal(nnue_output_bucket(2, 8), 0);
    assert_int_equal(nnue_output_bucket(32, 8), 7);
}

/* ---- incremental updates ------------------------------------------------------ */

/* Evaluate through the stack and check it against a refresh. */
static void check_node(void) {
    Pos.nnue = &Stack;
    Score inc = evaluate(&Pos);
    Pos.nnue = NULL;
    Score full = evaluate(&Pos);
    Pos.nnue = &Stack;
    if (inc != full) {
        char fen[FEN_MAX];
        fail_msg("incremental %d != refresh %d at ply %d: %s", inc, full, Pos.game_ply, fen_write(&Pos, fen));
    }
}

static void random_games(int games, int every) {
    for (int g = 0; g < games; g++) {
        random_position(&Pos, 0);
        for (int ply = 0; ply < 200; ply++) {
            if (ply % every == 0) check_node();
            MoveList list;
            gen_legal(&Pos, &list);
            if (!list.count) break;
            pos_make_move(&Pos, list.moves[rnd((unsigned)list.count)]);
        }
    }
}

/* A random tree: children made and unmade, some null moves, evaluation at
 * some nodes only (so updates start from ancestors and siblings' entries
 * are stale). */
static void random_tree(int depth) {
    if (rnd(3)) check_node();
    if (!depth) return;
    MoveList list;
    gen_legal(&Pos, &list);
    for (int i = 0; i < 3 && list.count; i++) {
        if (!pos_in_check(&Pos) && rnd(8) == 0) {
            pos_make_null(&Pos);
            random_tree(depth - 1);
            pos_unmake_null(&Pos);
            continue;
        }
        pos_make_move(&Pos, list.moves[rnd((unsigned)list.count)]);
        random_tree(depth - 1);
        pos_unmake_move(&Pos);
    }
}

static void incremental_for(int fs) {
    use_random_net(fs, fs == NNUE_FS_PLAIN ? 256 : 128, 8, 200 + (uint64_t)fs);
    NnueVerify = true;
    uint64_t before = NnueVerifyChecks, failures = NnueVerifyFailures;
    random_games(running_slow() ? 4 : 20, 1);
    random_games(running_slow() ? 2 : 10, 5);  /* updates over several plies */
    random_games(running_slow() ? 2 : 10, 17); /* beyond NNUE_MAX_WALK: refreshes */
    for (int i = 0; i < (running_slow() ? 3 : 15); i++) {
        random_position(&Pos, (int)rnd(60));
        random_tree(5);
    }
    NnueVerify = false;
    assert_true(NnueVerifyChecks - before > 1000);
    assert_int_equal(NnueVerifyFailures, failures);
}

static void test_incremental_plain(void **state) {
    (void)state;
    incremental_for(NNUE_FS_PLAIN);
}

static void test_incremental_king_buckets(void **state) {
    (void)state;
    incremental_for(NNUE_FS_KING_BUCKETS);
}

/* ---- a real search ----------------------------------------------------------- */

static void on_bestmove(void *ctx, Move best, Move ponder, Score score, int depth) {
    (void)ctx, (void)best, (void)ponder, (void)score, (void)depth;
}

/* Every evaluation of a search (NnueVerify checks each one) matches a
 * refresh, with both feature sets; and switching the net changes the
 * search's evals (the stack notices the new net). */
static void test_search_incremental(void **state) {
    (void)state;
    search_init();
    for (int fs = 0; fs < NNUE_FS_NB; fs++) {
        use_random_net(fs, 256, 8, 300 + (uint64_t)fs);
        NnueVerify = true;
        uint64_t before = NnueVerifyChecks, failures = NnueVerifyFailures;
        SearchLimits l;
        memset(&l, 0, sizeof l);
        l.time_ms = l.opp_time_ms = -1;
        l.nodes = running_slow() ? 3000 : 40000;
        SearchCallbacks cb = {.bestmove = on_bestmove};
        for (size_t i = 0; i < sizeof Fens / sizeof *Fens; i++) {
            must_parse(&Pos, Fens[i]);
            search_clear();
            search_start(&Pos, &l, &cb);
            search_wait();
        }
        NnueVerify = false;
        assert_true(NnueVerifyChecks - before > 1000);
        assert_int_equal(NnueVerifyFailures, failures);
    }
}

/* UseNNUE off: evaluate() is the hand-crafted evaluation again. */
static void test_switch_off(void **state) {
    (void)state;
    use_random_net(NNUE_FS_PLAIN, 128, 1, 400);
    must_parse(&Pos, Fens[1]);
    Score net = evaluate(&Pos);
    assert_int_equal(net, nnue_evaluate_full(nnue_loaded(), &Pos, NULL));
    nnue_set_enabled(false);
    assert_null(NnueInUse);
    assert_int_equal(evaluate(&Pos), eval_classical(&Pos));
    nnue_set_enabled(true);
    assert_int_equal(evaluate(&Pos), net);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_net_validation),
        cmocka_unit_test(test_failed_load_keeps_net),
        cmocka_unit_test(test_feature_symmetry),
        cmocka_unit_test(test_eval_symmetry),
        cmocka_unit_test(test_output_buckets),
        cmocka_unit_test(test_incremental_plain),
        cmocka_unit_test(test_incremental_king_buckets),
        cmocka_unit_test(test_search_incremental),
        cmocka_unit_test(test_switch_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
