// SPDX-License-Identifier: GPL-3.0-or-later
/* The NNUE trainer (bench/nnue/train_*): data file reading and rejection,
 * a finite-difference gradient check, overfitting a tiny set, checkpoint
 * and net round trips, exact resume, the trainer's integer forward pass
 * against the engine's evaluate() bit for bit, and the command line. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "nnue/nnue.h"
#include "nnue/nnue_accum.h"
#include "train_ckpt.h"
#include "train_data.h"
#include "train_init.h"
#include "train_loop.h"
#include "train_quant.h"
#include "train_simd.h"

static Position Pos;
static NnueStack Stack;
static uint64_t Rng = 777;

static uint64_t rnd64(void) {
    uint64_t z = (Rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static unsigned rnd(unsigned n) { return (unsigned)(rnd64() % n); }

static const char *const Fens[] = {
    START_FEN,
    "r1bakabr1/9/1cn3nc1/p3p2Rp/2p3p2/9/P1P1P1P1P/1CN1C1N2/R8/2BAKAB2 b - - 0 1",
    "3k5/9/4b4/9/2p3p2/9/6P2/4B4/4A4/3AK4 w - - 0 1",
    "5k3/4R4/4c4/9/6r2/9/6n2/2R2A3/C2p5/3A1K3 b - - 0 1",
    "4kaN1C/3PaP3/2r6/9/9/9/4c4/4B3n/3rA4/2BAK2RR b - - 0 1",
    "2bk5/4a4/4ba3/9/9/6R2/9/9/4A4/4KAB2 b - - 0 1",
};

static void random_position(Position *pos, int plies) {
    must_parse(pos, Fens[rnd(sizeof Fens / sizeof *Fens)]);
    random_walk(pos, plies, rnd);
}

/* n random records in memory: scores in +-600, results at random. */
static TrainData make_data(size_t n) {
    TrainData d = {malloc(n * TRAIN_RECORD_SIZE + 1), n};
    for (size_t i = 0; i < n; i++) {
        random_position(&Pos, (int)rnd(100));
        TrainPosition p;
        train_position_from(&Pos, (int)rnd(1201) - 600, (int)rnd(3), Pos.game_ply, &p);
        train_record_encode(&p, d.records + i * TRAIN_RECORD_SIZE);
    }
    return d;
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* ---- data files ------------------------------------------------------------- */

static void test_record_round_trip(void **state) {
    (void)state;
    for (int i = 0; i < 300; i++) {
        random_position(&Pos, (int)rnd(150));
        TrainPosition p, q;
        unsigned char rec[TRAIN_RECORD_SIZE], again[TRAIN_RECORD_SIZE];
        char err[120];
        train_position_from(&Pos, (int)rnd(65536) - 32768, (int)rnd(3), (int)rnd(65536), &p);
        train_record_encode(&p, rec);
        assert_true(train_record_decode(rec, &q, err, sizeof err));
        assert_int_equal(q.count, bb_popcount(Pos.occ));
        for (int k = 0; k < q.count; k++)
            assert_int_equal(Pos.board[q.square[k]], q.piece[k]);
        assert_int_equal(q.score, p.score);
        assert_int_equal(q.result, p.result);
        assert_int_equal(q.stm, Pos.side);
        assert_int_equal(q.ply, p.ply);
        train_record_encode(&q, again);
        assert_memory_equal(rec, again, sizeof rec);
    }
    /* The layout itself: the start position, Red to move. */
    must_parse(&Pos, START_FEN);
    TrainPosition p;
    unsigned char rec[TRAIN_RECORD_SIZE];
    train_position_from(&Pos, -25, 2, 7, &p);
    train_record_encode(&p, rec);
    assert_int_equal(rec[0], 0xFF);                   /* a0..h0 */
    assert_int_equal(rec[1], 0x01);                   /* i0; rank 1 is empty */
    assert_int_equal(rec[2], 0x08);                   /* b2 = point 19 */
    assert_int_equal(rec[3], 0xAA);                   /* h2 = 25, a3 = 27, c3 = 29, e3 = 31 */
    assert_int_equal(rec[12], ROOK | HORSE << 4);     /* a0 chariot, b0 horse */
    assert_int_equal(rec[28] | rec[29] << 8, 0xFFE7); /* -25 */
    assert_int_equal(rec[30], 2);
    assert_int_equal(rec[31], 0);
    assert_int_equal(rec[32], 7);
}

static void expect_load_error(const unsigned char *bytes, size_t n, const char *why) {
    char path[] = "/tmp/tuong-train-test-XXXXXX", err[400] = "";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, bytes, n);
    TrainData d = {0};
    assert_false(train_data_load(&d, path, 0, err, sizeof err));
    remove(path);
    if (!strstr(err, why)) fail_msg("expected '%s' in: %s", why, err);
    assert_int_equal(d.count, 0);
    free(d.records);
}

static void test_data_file(void **state) {
    (void)state;
    enum { N = 50 };
    TrainData src = make_data(N);
    unsigned char *file = malloc(TRAIN_HEADER_SIZE + N * TRAIN_RECORD_SIZE);
    memcpy(file, TRAIN_DATA_MAGIC, 8);
    memset(file + 8, 0, 8);
    file[8] = TRAIN_RECORD_SIZE;
    memcpy(file + TRAIN_HEADER_SIZE, src.records, N * TRAIN_RECORD_SIZE);
    size_t size = TRAIN_HEADER_SIZE + N * TRAIN_RECORD_SIZE;

    char path[] = "/tmp/tuong-train-test-XXXXXX", err[400];
    int fd = mkstemp(path);
    close(fd);
    write_file(path, file, size);
    TrainData d = {0};
    assert_true(train_data_load(&d, path, 0, err, sizeof err));
    assert_true(train_data_load(&d, path, 20, err, sizeof err)); /* appends the first 20 */
    remove(path);
    assert_int_equal(d.count, N + 20);
    assert_memory_equal(d.records, src.records, N * TRAIN_RECORD_SIZE);
    assert_memory_equal(d.records + N * TRAIN_RECORD_SIZE, src.records, 20 * TRAIN_RECORD_SIZE);
    train_data_free(&d);

    expect_load_error(file, size - 1, "truncated");
    expect_load_error(file, 10, "TNGDATA1");
    file[3] ^= 1;
    expect_load_error(file, size, "TNGDATA1");
    file[3] ^= 1;
    file[8] = 40;
    expect_load_error(file, size, "record size");
    file[8] = TRAIN_RECORD_SIZE;
    file[13] = 1;
    expect_load_error(file, size, "reserved");
    file[13] = 0;
    unsigned char *rec = file + TRAIN_HEADER_SIZE + 7 * TRAIN_RECORD_SIZE;
    unsigned char keep = rec[12];
    rec[12] = (unsigned char)((rec[12] & 0xF0) | 8); /* piece code 8: no such piece */
    expect_load_error(file, size, "record 7");
    rec[12] = keep;
    rec[30] = 3; /* result */
    expect_load_error(file, size, "record 7");
    free(file);
    free(src.records);
    char missing[400];
    TrainData e = {0};
    assert_false(train_data_load(&e, "/nonexistent/data", 0, missing, sizeof missing));
    assert_non_null(strstr(missing, "cannot open"));
    assert_false(train_data_load(&e, "/tmp", 0, missing, sizeof missing));
    assert_non_null(strstr(missing, "not a regular file"));
}

/* FILE@FIRST:END reads only records FIRST..END-1, from a file that may hold
 * more and end in part of a record (a pool file being appended to); bad
 * ranges are refused with one message. */
static void test_data_range(void **state) {
    (void)state;
    enum { N = 40 };
    TrainData src = make_data(N);
    char dir[] = "/tmp/tuong-train-range-XXXXXX", path[300], spec[400], err[400];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/pool.bin", dir);
    size_t size = TRAIN_HEADER_SIZE + N * TRAIN_RECORD_SIZE + 5; /* 5 bytes of a record being written */
    unsigned char *file = calloc(1, size);
    memcpy(file, TRAIN_DATA_MAGIC, 8);
    file[8] = TRAIN_RECORD_SIZE;
    memcpy(file + TRAIN_HEADER_SIZE, src.records, N * TRAIN_RECORD_SIZE);
    write_file(path, file, size);

    TrainData d = {0};
    snprintf(spec, sizeof spec, "%s@10:25", path);
    assert_true(train_data_load_spec(&d, spec, 0, err, sizeof err));
    assert_int_equal(d.count, 15);
    assert_memory_equal(d.records, src.records + 10 * TRAIN_RECORD_SIZE, 15 * TRAIN_RECORD_SIZE);
    snprintf(spec, sizeof spec, "%s@0:40", path); /* all whole records, the torn tail left alone */
    assert_true(train_data_load_spec(&d, spec, 3, err, sizeof err)); /* at most 3 more */
    assert_int_equal(d.count, 18);
    assert_memory_equal(d.records + 15 * TRAIN_RECORD_SIZE, src.records, 3 * TRAIN_RECORD_SIZE);
    train_data_free(&d);

    /* Without a range the torn file is refused, as before; so is "@30:"
     * (to the end), which reads the whole tail. */
    assert_false(train_data_load_spec(&d, path, 0, err, sizeof err));
    assert_non_null(strstr(err, "truncated"));
    snprintf(spec, sizeof spec, "%s@30:", path);
    assert_false(train_data_load_spec(&d, spec, 0, err, sizeof err));
    write_file(path, file, size - 5);
    assert_true(train_data_load_spec(&d, spec, 0, err, sizeof err));
    assert_int_equal(d.count, 10);
    assert_memory_equal(d.records, src.records + 30 * TRAIN_RECORD_SIZE, 10 * TRAIN_RECORD_SIZE);
    train_data_free(&d);

    const char *bad[] = {"@5:41", "@40:", "@7:7", "@9:3", "@x:3", "@3:4x", "@3", "@:4", "@1234567890123:"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(spec, sizeof spec, "%s%s", path, bad[i]);
        err[0] = 0;
        assert_false(train_data_load_spec(&d, spec, 0, err, sizeof err));
        if (!strstr(err, "records") && !strstr(err, "range")) fail_msg("%s: %s", bad[i], err);
        assert_int_equal(d.count, 0);
    }
    /* A file whose own name holds '@' is read as it is. */
    char odd[400];
    snprintf(odd, sizeof odd, "%s/net@1:2", dir);
    write_file(odd, file, size - 5);
    assert_true(train_data_load_spec(&d, odd, 0, err, sizeof err));
    assert_int_equal(d.count, N);
    train_data_free(&d);
    remove(odd);
    remove(path);
    rmdir(dir);
    free(file);
    free(src.records);
}

/* ---- gradients -------------------------------------------------------------- */

static double batch_loss(const TrainNet *net, const TrainLoss *loss, const TrainData *d, const uint32_t *idx,
                         size_t n) {
    return train_batch(net, loss, d, idx, n, n, 0, NULL);
}

/* The loss with parameter i moved by delta (a factorised net's effective
 * rows rebuilt around the move). */
static double loss_moved(TrainNet *net, const TrainLoss *loss, const TrainData *d, const uint32_t *idx, size_t n,
                         size_t i, float delta) {
    float keep = net->params[i];
    net->params[i] = keep + delta;
    train_net_refresh_eff(net, 0, (size_t)net->inputs);
    double l = batch_loss(net, loss, d, idx, n);
    net->params[i] = keep;
    train_net_refresh_eff(net, 0, (size_t)net->inputs);
    return l;
}

/* Does moving parameter i by +-eps push an accumulator unit it feeds across
 * the clamp's kinks at 0 or 1? (The loss is not differentiable there.) */
static bool near_kink(const TrainNet *net, const TrainData *d, const uint32_t *idx, size_t n, size_t i, float eps) {
    if (i >= net->head) return false;
    int H = net->hidden, unit = (int)((i - net->ft_w) % (size_t)H);
    int feature = i < net->ft_b ? (int)(i / (size_t)H) : -1;
    TrainActs *acts = malloc(sizeof *acts);
    bool near = false;
    for (size_t k = 0; k < n && !near; k++) {
        TrainPosition p;
        TrainFeatures f;
        char err[8];
        train_record_decode(train_record(d, idx[k]), &p, err, sizeof err);
        train_features(net, &p, false, &f);
        train_forward(net, &f, acts);
        for (int half = 0; half < 2; half++) {
            Color c = half ? (Color)!f.stm : f.stm;
            bool fed = feature < 0;
            for (int j = 0; j < f.count && !fed; j++)
                fed = f.feature[c][j] == feature;
            float a = acts->acc[half * H + unit];
            if (fed && (fabsf(a) < 2 * eps || fabsf(a - 1) < 2 * eps)) near = true;
        }
    }
    free(acts);
    return near;
}

/* A parameter of the kind `kind` (0..10, see below) that the position f
 * uses; kinds a net does not have fall back to the ft weights. */
static size_t pick_parameter(const TrainNet *net, const TrainFeatures *f, int kind) {
    const size_t H = (size_t)net->hidden, b = (size_t)f->bucket;
    const size_t feature = (size_t)f->feature[rnd(2)][rnd((unsigned)f->count)];
    if (!net->stack && kind >= 2 && kind <= 7) kind = kind % 2 ? 3 : 2;
    switch (kind) {
    case 1: return net->ft_b + rnd((unsigned)H);
    case 2:
        return net->stack ? net->l1_w + (b * NNUE_L1 + rnd(NNUE_L1)) * 2 * H + rnd(2 * (unsigned)H)
                          : net->out_w + b * 2 * H + rnd(2 * (unsigned)H);
    case 3: return net->stack ? net->l1_b + b * NNUE_L1 + rnd(NNUE_L1) : net->out_b + b;
    case 4: return net->l2_w + (b * NNUE_L2 + rnd(NNUE_L2)) * NNUE_L1 + rnd(NNUE_L1);
    case 5: return net->l2_b + b * NNUE_L2 + rnd(NNUE_L2);
    case 6: return net->l3_w + b * NNUE_L2 + rnd(NNUE_L2);
    case 7: return net->l3_b + b;
    case 9: /* the skip's output layer, beside the stack */
        if (net->skip) return net->out_w + b * 2 * H + rnd(2 * (unsigned)H);
        return net->ft_w + feature * H + rnd((unsigned)H);
    case 10:
        if (net->skip) return net->out_b + b;
        return net->ft_w + feature * H + rnd((unsigned)H);
    case 8:
        if (net->factorised) return net->fac_w + (feature % TRAIN_FACTOR_ROWS) * H + rnd((unsigned)H);
        /* fall through */
    default: return net->ft_w + feature * H + rnd((unsigned)H);
    }
}

/* Analytic gradients against central differences for every kind of
 * parameter of a net of this shape. A parameter is skipped when a kink of
 * a clamp lies within the step: the accumulator test above, or (for any
 * layer) two step sizes giving different slopes. */
static void gradient_check(TrainShape shape, double power) {
    TrainNet net;
    char err[200];
    assert_true(train_net_alloc(&net, &shape, err, sizeof err));
    train_net_randomise(&net, 5 + (uint64_t)shape.feature_set + 2 * shape.stack + 4 * shape.factorised);
    /* Gradients well above float noise: a large last layer, biases that keep
     * the accumulator units inside the clamp. */
    if (!shape.stack || shape.skip)
        for (size_t i = net.out_w; i < net.out_b + (size_t)net.out_buckets; i++)
            net.params[i] *= 10;
    if (shape.stack)
        for (size_t i = net.l3_w; i < net.head_end; i++)
            net.params[i] *= 10;
    for (size_t i = net.ft_b; i < net.head; i++)
        net.params[i] = 0.3f;
    train_net_refresh_eff(&net, 0, (size_t)net.inputs);
    TrainLoss loss = {190, 0.5, power};
    enum { N = 8, KINDS = 11, TRIALS = 40 * KINDS };
    TrainData d = make_data(N);
    uint32_t idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = (uint32_t)i;
    float *grad = train_alloc_floats(net.count);
    train_batch(&net, &loss, &d, idx, N, N, 0, grad);
    train_net_fold_factor_grad(&net, &grad, 1, 0, TRAIN_FACTOR_ROWS);
    TrainPosition p;
    TrainFeatures f;
    int checked = 0, skipped = 0, kinds_checked[KINDS] = {0};
    const float eps = 0.005f;
    for (int trial = 0; trial < TRIALS; trial++) {
        train_record_decode(train_record(&d, idx[rnd(N)]), &p, err, sizeof err);
        train_features(&net, &p, false, &f);
        int kind = trial % KINDS;
        size_t i = pick_parameter(&net, &f, kind);
        double up = loss_moved(&net, &loss, &d, idx, N, i, eps), down = loss_moved(&net, &loss, &d, idx, N, i, -eps);
        double numeric = (up - down) / (2 * eps), analytic = grad[i];
        double half =
            (loss_moved(&net, &loss, &d, idx, N, i, eps / 2) - loss_moved(&net, &loss, &d, idx, N, i, -eps / 2)) / eps;
        if (near_kink(&net, &d, idx, N, i, eps) || fabs(half - numeric) > 0.002 * fabs(numeric) + 2e-6) {
            skipped++;
            continue;
        }
        if (fabs(numeric - analytic) > 0.01 * fmax(fabs(numeric), fabs(analytic)) + 2e-5)
            fail_msg(
                "parameter %zu (kind %d): analytic %.7g, numeric %.7g (power %g, stack %d, factorised %d, skip %d)", i,
                kind, analytic, numeric, power, shape.stack, shape.factorised, shape.skip);
        if (fabs(analytic) > 1e-4) {
            checked++;
            kinds_checked[kind]++;
        }
    }
    print_message("gradient check (fs %d, stack %d, factorised %d, skip %d): %d parameters checked, %d skipped\n",
                  shape.feature_set, shape.stack, shape.factorised, shape.skip, checked, skipped);
    assert_true(skipped < TRIALS / 6);
    assert_true(checked > TRIALS / 3);
    /* Every kind of parameter the net has was checked with a real gradient. */
    for (int k = 0; k < KINDS; k++) {
        bool has = k < 2 || (k < 4 && !shape.stack) || (k < 8 && shape.stack) || (k == 8 && shape.factorised) ||
                   (k > 8 && shape.skip);
        if (has && kinds_checked[k] == 0) fail_msg("no parameter of kind %d had a gradient to check", k);
    }
    free(grad);
    free(d.records);
    train_net_free(&net);
}

static void test_gradient_check(void **state) {
    (void)state;
    gradient_check((TrainShape){NNUE_FS_PLAIN, 128, 8, 400, false, false, false}, 2.0);
    gradient_check((TrainShape){NNUE_FS_KING_BUCKETS, 128, 8, 400, false, false, false}, 2.0);
    gradient_check((TrainShape){NNUE_FS_KING_BUCKETS, 128, 8, 400, false, false, false}, 2.5);
    gradient_check((TrainShape){NNUE_FS_PLAIN, 128, 8, 400, true, false, false}, 2.0);
    gradient_check((TrainShape){NNUE_FS_KING_BUCKETS, 128, 1, 400, false, true, false}, 2.0);
    gradient_check((TrainShape){NNUE_FS_KING_BUCKETS, 128, 8, 400, true, true, false}, 2.5);
    /* The stack with the skip: both heads' gradients, and their d_acc summed. */
    gradient_check((TrainShape){NNUE_FS_PLAIN, 128, 8, 400, true, false, true}, 2.0);
}

/* train_batch works a chunk of positions at a time (bench/nnue/
 * train_batch.c): its loss and gradient over a few chunks, mirrors
 * included, are bit for bit those of one position at a time. */
static void batch_equals_one_at_a_time(TrainShape shape) {
    TrainNet net;
    char err[200];
    assert_true(train_net_alloc(&net, &shape, err, sizeof err));
    train_net_randomise(&net, 11);
    for (size_t i = net.ft_b; i < net.head; i++)
        net.params[i] = 0.3f; /* most accumulator units inside the clamp */
    train_net_refresh_eff(&net, 0, (size_t)net.inputs);
    enum { N = 700 };
    TrainData d = make_data(N);
    uint32_t idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = (uint32_t)((i * 37) % N);
    const uint64_t mirror_key = 12345;
    TrainLoss loss = {190, 0.75, 2.0};
    float *chunked = train_alloc_floats(net.count), *single = train_alloc_floats(net.count);
    double l_chunked = train_batch(&net, &loss, &d, idx, N, N, mirror_key, chunked), l_single = 0;
    TrainActs *acts = malloc(sizeof *acts);
    for (int i = 0; i < N; i++) {
        /* One position per call: a chunk of one. */
        l_single += train_batch(&net, &loss, &d, idx + i, 1, N, mirror_key, single) * N;
    }
    l_single /= N;
    assert_true(fabs(l_chunked - l_single) <= 1e-12 * l_single);
    size_t differ = 0;
    for (size_t i = 0; i < net.count; i++)
        differ += chunked[i] != single[i];
    if (differ) fail_msg("%zu of %zu gradient entries differ", differ, net.count);
    /* The per-position passes (whose stack takes its first layer's gradient
     * row by row, not gathered) give the same gradient too. */
    memset(single, 0, sizeof(float) * net.count);
    for (int i = 0; i < N; i++) {
        TrainPosition p;
        TrainFeatures f;
        double g;
        train_record_unpack(train_record(&d, idx[i]), &p);
        train_features(&net, &p, train_mix64(mirror_key ^ (idx[i] * 0x9E3779B97F4A7C15ull)) & 1, &f);
        train_loss(&loss, train_forward(&net, &f, acts), train_target(&loss, &p), &g);
        train_backward(&net, &f, acts, (float)(g / N), single);
    }
    for (size_t i = 0; i < net.count; i++)
        differ += chunked[i] != single[i];
    if (differ) fail_msg("%zu of %zu gradient entries differ from the per-position passes'", differ, net.count);
    /* And the per-position passes the tests use give the same loss. */
    double l_passes = 0, g;
    for (int i = 0; i < N; i++) {
        TrainPosition p;
        TrainFeatures f;
        train_record_unpack(train_record(&d, idx[i]), &p);
        train_features(&net, &p, false, &f);
        l_passes += train_loss(&loss, train_forward(&net, &f, acts), train_target(&loss, &p), &g);
    }
    assert_true(fabs(train_batch(&net, &loss, &d, idx, N, N, 0, NULL) - l_passes / N) <= 1e-12 * l_passes);
    free(acts);
    free(chunked);
    free(single);
    free(d.records);
    train_net_free(&net);
}

static void test_batch_chunks(void **state) {
    (void)state;
    batch_equals_one_at_a_time((TrainShape){NNUE_FS_PLAIN, 256, 8, 400, false, false, false});
    batch_equals_one_at_a_time((TrainShape){NNUE_FS_KING_BUCKETS, 128, 8, 400, true, true, false});
    batch_equals_one_at_a_time((TrainShape){NNUE_FS_PLAIN, 128, 8, 400, true, false, true});
}

/* A tiny set (score targets only) is learnt to near-zero loss. */
static void test_overfit(void **state) {
    (void)state;
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.feature_set = NNUE_FS_PLAIN;
    cfg.hidden = 128;
    cfg.out_buckets = 1;
    cfg.loss.lambda = 1.0;
    cfg.lr = 0.01;
    Trainer t;
    char err[200];
    assert_true(trainer_init(&t, &cfg, err, sizeof err));
    enum { N = 64 };
    TrainData d = make_data(N);
    uint32_t idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = (uint32_t)i;
    float *grad = train_alloc_floats(t.net.count);
    double first = batch_loss(&t.net, &cfg.loss, &d, idx, N), last = first;
    for (int step = 0; step < 800; step++) {
        memset(grad, 0, sizeof(float) * t.net.count);
        last = train_batch(&t.net, &cfg.loss, &d, idx, N, N, 0, grad);
        t.step++;
        trainer_adam(&t, &grad, 1, cfg.lr, 0, t.net.count);
    }
    print_message("overfit: loss %.3g -> %.3g\n", first, last);
    assert_true(first > 0.01);
    assert_true(last < 1e-4);
    free(grad);
    free(d.records);
    trainer_free(&t);
}

/* ---- checkpoints, nets, resume --------------------------------------------------- */

static TrainConfig small_config(void) {
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.hidden = 128;
    cfg.batch = 100;
    cfg.epochs = 2;
    cfg.seed = 42;
    return cfg;
}

static void test_checkpoint_round_trip(void **state) {
    (void)state;
    TrainConfig cfg = small_config();
    cfg.schedule = LR_STEP;
    cfg.weight_decay = 0.01;
    cfg.mirror = false;
    Trainer t, u;
    char err[400], path[] = "/tmp/tuong-ckpt-XXXXXX";
    assert_true(trainer_init(&t, &cfg, err, sizeof err));
    TrainData d = make_data(300), none = {0};
    EpochStats st;
    assert_true(trainer_epoch(&t, &d, &none, 1, &st, NULL, NULL, 1e9));
    close(mkstemp(path));
    assert_true(train_ckpt_save(&t, path, err, sizeof err));
    assert_true(train_ckpt_load(&u, path, err, sizeof err));
    assert_memory_equal(&t.cfg, &u.cfg, sizeof t.cfg);
    assert_int_equal(t.step, u.step);
    assert_int_equal(t.epoch, 1);
    assert_int_equal(u.epoch, 1);
    assert_memory_equal(t.net.params, u.net.params, sizeof(float) * t.net.count);
    assert_memory_equal(t.m, u.m, sizeof(float) * t.net.count);
    assert_memory_equal(t.v, u.v, sizeof(float) * t.net.count);
    trainer_free(&u);
    /* A flipped byte or a cut file is refused. */
    FILE *f = fopen(path, "r+b");
    fseek(f, 5000, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 5000, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
    assert_false(train_ckpt_load(&u, path, err, sizeof err));
    assert_non_null(strstr(err, "corrupt"));
    assert_int_equal(truncate(path, 4000), 0);
    assert_false(train_ckpt_load(&u, path, err, sizeof err));
    remove(path);
    free(d.records);
    trainer_free(&t);
}

/* Training 2 epochs equals 1 epoch, a checkpoint, a reload and 1 more; and
 * two runs with two threads are equal too. */
static void resume_is_exact(TrainConfig cfg) {
    TrainData d = make_data(450), val = make_data(60);
    Trainer a, b, c;
    char err[400], path[] = "/tmp/tuong-ckpt-XXXXXX";
    EpochStats st;
    close(mkstemp(path));
    assert_true(trainer_init(&a, &cfg, err, sizeof err));
    assert_true(trainer_epoch(&a, &d, &val, 1, &st, NULL, NULL, 1e9));
    assert_true(trainer_epoch(&a, &d, &val, 1, &st, NULL, NULL, 1e9));
    assert_true(trainer_init(&b, &cfg, err, sizeof err));
    assert_true(trainer_epoch(&b, &d, &val, 1, &st, NULL, NULL, 1e9));
    assert_true(train_ckpt_save(&b, path, err, sizeof err));
    trainer_free(&b);
    assert_true(train_ckpt_load(&b, path, err, sizeof err));
    remove(path);
    assert_true(trainer_epoch(&b, &d, &val, 1, &st, NULL, NULL, 1e9));
    assert_memory_equal(a.net.params, b.net.params, sizeof(float) * a.net.count);
    assert_true(st.val_loss > 0 && st.qerror >= 0);
    trainer_free(&b);
    assert_true(trainer_init(&b, &cfg, err, sizeof err));
    assert_true(trainer_init(&c, &cfg, err, sizeof err));
    assert_true(trainer_epoch(&b, &d, &val, 2, &st, NULL, NULL, 1e9));
    assert_true(trainer_epoch(&c, &d, &val, 2, &st, NULL, NULL, 1e9));
    assert_memory_equal(b.net.params, c.net.params, sizeof(float) * b.net.count);
    trainer_free(&a);
    trainer_free(&b);
    trainer_free(&c);
    free(d.records);
    free(val.records);
}

static void test_resume_is_exact(void **state) {
    (void)state;
    TrainConfig cfg = small_config();
    resume_is_exact(cfg);
    /* The dense stack and the factoriser (checkpoint version 2), with the
     * last epoch quantisation-aware. */
    cfg.feature_set = NNUE_FS_KING_BUCKETS;
    cfg.stack = true;
    cfg.factorised = true;
    resume_is_exact(cfg);
    /* The skip (checkpoint version 4): a resumed run is still a skip net. */
    cfg.skip = true;
    resume_is_exact(cfg);
}

static void test_lr_schedule(void **state) {
    (void)state;
    TrainConfig cfg = small_config();
    assert_true(fabs(trainer_lr(&cfg, 0, 0, 100) - cfg.lr) < 1e-12);
    assert_true(fabs(trainer_lr(&cfg, 1, 99, 100) - cfg.lr_min) < 1e-12);
    assert_true(trainer_lr(&cfg, 0, 30, 100) > trainer_lr(&cfg, 0, 60, 100));
    cfg.schedule = LR_STEP;
    cfg.lr_step = 3;
    assert_true(fabs(trainer_lr(&cfg, 2, 0, 100) - cfg.lr) < 1e-12);
    assert_true(fabs(trainer_lr(&cfg, 3, 0, 100) - cfg.lr * cfg.lr_gamma) < 1e-12);
    assert_true(fabs(trainer_lr(&cfg, 7, 0, 100) - cfg.lr * cfg.lr_gamma * cfg.lr_gamma) < 1e-12);
}

/* Uniform in +-limit. */
static float spread(float limit) { return ((float)rnd(2001) / 1000.0f - 1.0f) * limit; }

/* A float net with accumulators spread over the whole clamp range and a
 * head whose units are neither all dead nor all saturated. */
static void lively_net(TrainNet *net, TrainShape shape, uint64_t seed) {
    char err[200];
    assert_true(train_net_alloc(net, &shape, err, sizeof err));
    train_net_randomise(net, seed);
    for (size_t i = 0; i < net->ft_b; i++)
        net->params[i] *= 2.5f;
    for (size_t i = net->fac_w; i < net->count; i++)
        net->params[i] *= 2.5f;
    for (size_t i = net->ft_b; i < net->head; i++)
        net->params[i] = (float)rnd(1000) / 1000.0f - 0.2f;
    if (!shape.stack) {
        for (size_t i = net->head; i < net->head_end; i++)
            net->params[i] = spread(1.9f);
    } else {
        for (size_t i = net->l1_w; i < net->l1_b; i++)
            net->params[i] = spread(0.15f);
        for (size_t i = net->l1_b; i < net->l2_w; i++)
            net->params[i] = spread(0.6f) + 0.3f;
        for (size_t i = net->l2_w; i < net->l2_b; i++)
            net->params[i] = spread(0.6f);
        for (size_t i = net->l2_b; i < net->l3_w; i++)
            net->params[i] = spread(0.5f) + 0.3f;
        for (size_t i = net->l3_w; i < net->head_end; i++)
            net->params[i] = spread(1.9f);
    }
    if (shape.skip) /* the output layer beside the stack: evals of the same size */
        for (size_t i = net->out_w; i < net->l1_w; i++)
            net->params[i] = spread(0.6f);
    train_net_refresh_eff(net, 0, (size_t)net->inputs);
}

static TrainShape shape_of(int fs, int hidden, int buckets, bool stack, bool factorised) {
    return (TrainShape){fs, hidden, buckets, 400, stack, factorised, false};
}

/* A stack + skip (version-3) shape. */
static TrainShape skip_shape(int fs, int hidden, int buckets, bool factorised) {
    return (TrainShape){fs, hidden, buckets, 400, true, factorised, true};
}

/* Quantisation-aware passes use the head's scale-64 weights rounded to the
 * grid: the same eval as a net whose weights are rounded. */
static void qat_matches_rounded(TrainShape shape) {
    TrainNet net, rounded;
    char err[200];
    lively_net(&net, shape, 21);
    assert_true(train_net_alloc(&rounded, &shape, err, sizeof err));
    memcpy(rounded.params, net.params, sizeof(float) * net.count);
    train_net_refresh_eff(&rounded, 0, (size_t)rounded.inputs);
    float *q = train_alloc_floats(net.head_end - net.head);
    TrainActs *acts = malloc(sizeof *acts);
    train_net_round_head(&net, q);
    int rounded_weights = 0;
    for (size_t i = net.head; i < net.head_end; i++)
        if (train_net_is_q64(&net, i)) {
            rounded.params[i] = roundf(net.params[i] * NNUE_QB) / NNUE_QB;
            rounded_weights += rounded.params[i] != net.params[i];
        } else {
            assert_true(q[i - net.head] == net.params[i]); /* biases are kept as they are */
        }
    assert_true(rounded_weights > 0);
    net.head_q = q;
    for (int i = 0; i < 50; i++) {
        random_position(&Pos, (int)rnd(100));
        TrainPosition p;
        TrainFeatures f;
        train_position_from(&Pos, 0, 1, 0, &p);
        train_features(&net, &p, false, &f);
        float a = train_forward(&net, &f, acts), b = train_forward(&rounded, &f, acts);
        assert_true(a == b);
    }
    free(acts);
    free(q);
    train_net_free(&net);
    train_net_free(&rounded);
}

/* The stack's second layer read transposed (train_batch's path) gives the
 * same floats as row by row (train_forward's): the eval and every
 * activation, bit for bit, on accumulators with units below, inside and
 * above the clamp, for every output bucket, float and rounded (QAT) head. */
static void test_stack_l2_transposed(void **state) {
    (void)state;
#if !TRAIN_AVX2
    skip(); /* the portable build reads them row by row only (train_batch.c) */
#endif
    TrainNet net;
    lively_net(&net, skip_shape(NNUE_FS_PLAIN, 128, 8, false), 31);
    float *q = train_alloc_floats(net.head_end - net.head), *l2t = train_alloc_floats(TRAIN_L2T_FLOATS);
    train_net_round_head(&net, q);
    TrainActs *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    float acc[2 * 128];
    int live = 0;
    for (int pass = 0; pass < 2; pass++) {
        net.head_q = pass ? q : NULL;
        train_stack_l2_transpose(&net, l2t);
        for (int trial = 0; trial < 200; trial++) {
            for (int i = 0; i < 2 * 128; i++)
                acc[i] = (float)rnd(3000) / 1000.0f - 1.0f;
            const int bucket = trial % 8;
            memset(a, 0, sizeof *a);
            memset(b, 0, sizeof *b);
            const float rows = train_head_forward(&net, bucket, acc, a, NULL);
            const float transposed = train_head_forward(&net, bucket, acc, b, l2t);
            if (memcmp(&rows, &transposed, sizeof rows) || memcmp(a->o2, b->o2, sizeof a->o2) ||
                memcmp(a->h2, b->h2, sizeof a->h2) || memcmp(a->h1, b->h1, sizeof a->h1))
                fail_msg("bucket %d, qat %d: eval %.9g row by row, %.9g transposed", bucket, pass, rows, transposed);
            for (int k = 0; k < NNUE_L2; k++)
                live += a->o2[k] > 0.0f && a->o2[k] < 1.0f;
        }
    }
    assert_true(live > 2 * 200 * NNUE_L2 / 4); /* the second layer is mostly inside its clamp: its sums matter */
    free(a);
    free(b);
    free(q);
    free(l2t);
    train_net_free(&net);
}

static void test_quantisation_aware_forward(void **state) {
    (void)state;
    qat_matches_rounded(shape_of(NNUE_FS_KING_BUCKETS, 128, 8, false, false));
    qat_matches_rounded(shape_of(NNUE_FS_PLAIN, 128, 8, true, false));
    qat_matches_rounded(skip_shape(NNUE_FS_PLAIN, 128, 8, false));
    /* A skip net rounds both heads' weights, and only the weights. */
    TrainNet net;
    char err[200];
    TrainShape shape = skip_shape(NNUE_FS_PLAIN, 128, 8, false);
    assert_true(train_net_alloc(&net, &shape, err, sizeof err));
    assert_true(train_net_is_q64(&net, net.out_w) && train_net_is_q64(&net, net.out_b - 1));
    assert_true(train_net_is_q64(&net, net.l1_w) && train_net_is_q64(&net, net.l3_b - 1));
    assert_false(train_net_is_q64(&net, net.out_b) || train_net_is_q64(&net, net.l1_b) ||
                 train_net_is_q64(&net, net.l3_b));
    train_net_free(&net);
}

/* A version-3 file (stack + skip): the header says version 3 and 16 x 32,
 * the size is nnue_arch.h's, both heads read back tensor for tensor, the
 * description names it, and a cut, padded or corrupted file is refused. */
static void test_net_file_skip(void **state) {
    (void)state;
    TrainNet net;
    QuantNet q;
    NnueNet e;
    char err[400], path[] = "/tmp/tuong-net-XXXXXX", desc[200];
    uint32_t hash;
    lively_net(&net, skip_shape(NNUE_FS_PLAIN, 128, 8, false), 5);
    assert_true(train_quantise(&net, &q));
    assert_int_equal(q.saturated, 0);
    assert_true(q.skip && q.stack);
    close(mkstemp(path));
    assert_true(train_quant_write(&q, path, &hash, err, sizeof err));
    assert_true(nnue_net_read_file(&e, path, err, sizeof err));
    assert_int_equal(e.hash, hash);
    assert_int_equal(e.version, NNUE_VERSION_SKIP);
    assert_true(e.stack && e.skip);
    assert_memory_equal(e.ft_weights, q.ft_w, sizeof(int16_t) * (size_t)e.inputs * 128);
    assert_memory_equal(e.out_weights, q.out_w, sizeof(int16_t) * 8 * 2 * 128);
    assert_memory_equal(e.out_bias, q.out_b, sizeof(int32_t) * 8);
    assert_int_equal(e.dense[7].l3_b, q.l3_b[7]);
    assert_int_equal(e.dense[2].l3_w[5], q.l3_w[2 * NNUE_L2 + 5]);
    assert_int_equal(q.out_w[9], (int16_t)lround(net.params[net.out_w + 9] * NNUE_QB));
    nnue_net_describe(&e, desc, sizeof desc);
    if (!strstr(desc, "(plain, 128 units, dense 16-32 stacks + skip, 8 output buckets, scale 400)"))
        fail_msg("described as %s", desc);
    nnue_net_free(&e);
    const size_t n = NNUE_HEADER_SIZE_STACK + nnue_payload_bytes_v(NNUE_FS_PLAIN, 128, 8, NNUE_VERSION_SKIP);
    assert_int_equal(n,
                     NNUE_HEADER_SIZE_STACK + nnue_payload_bytes(NNUE_FS_PLAIN, 128, 8, true) + 8 * (2 * 128 * 2 + 4));
    unsigned char *bytes = malloc(n + 1);
    FILE *f = fopen(path, "rb");
    assert_int_equal(fread(bytes, 1, n + 1, f), n);
    fclose(f);
    remove(path);
    assert_int_equal(bytes[8], NNUE_VERSION_SKIP);
    assert_int_equal(bytes[40], NNUE_L1);
    assert_int_equal(bytes[44], NNUE_L2);
    /* The skip's out bias is the file's last 4 bytes. */
    int32_t last = (int32_t)((uint32_t)bytes[n - 4] | (uint32_t)bytes[n - 3] << 8 | (uint32_t)bytes[n - 2] << 16 |
                             (uint32_t)bytes[n - 1] << 24);
    assert_int_equal(last, q.out_b[7]);
    NnueNet bad;
    assert_false(nnue_net_parse(&bad, bytes, n - 1, err, sizeof err));
    if (!strstr(err, "truncated network")) fail_msg("%s", err);
    assert_null(bad.memory);
    /* A version-2 file's size is a cut version-3 file: refused too. */
    assert_false(nnue_net_parse(&bad, bytes, n - 8 * (2 * 128 * 2 + 4), err, sizeof err));
    if (!strstr(err, "truncated network")) fail_msg("%s", err);
    bytes[n] = 0;
    assert_false(nnue_net_parse(&bad, bytes, n + 1, err, sizeof err));
    if (!strstr(err, "too long")) fail_msg("%s", err);
    /* One bit of the skip's weights flipped: the hash no longer matches. */
    bytes[n - 100] ^= 1;
    assert_false(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    if (!strstr(err, "corrupt network: payload hash")) fail_msg("%s", err);
    assert_null(bad.memory);
    bytes[n - 100] ^= 1;
    /* The header of a version-2 net on a version-3 payload: the wrong size. */
    bytes[8] = NNUE_VERSION_STACK;
    assert_false(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    if (!strstr(err, "too long")) fail_msg("%s", err);
    bytes[8] = 4;
    assert_false(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    if (!strstr(err, "network version 4, this engine reads versions 1 to 3")) fail_msg("%s", err);
    bytes[8] = NNUE_VERSION_SKIP;
    assert_true(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    nnue_net_free(&bad);
    free(bytes);
    train_quant_free(&q);
    train_net_free(&net);
}

/* A net written by the trainer reads back into the engine tensor for
 * tensor (version 1), or evaluates the same (the stack's tensors are
 * re-laid for the kernels). */
static void test_net_file_round_trip(void **state) {
    (void)state;
    TrainNet net;
    QuantNet q;
    NnueNet e;
    char err[400], path[] = "/tmp/tuong-net-XXXXXX";
    uint32_t hash;
    lively_net(&net, shape_of(NNUE_FS_KING_BUCKETS, 160, 8, false, false), 3);
    assert_true(train_quantise(&net, &q));
    assert_int_equal(q.saturated, 0);
    close(mkstemp(path));
    assert_true(train_quant_write(&q, path, &hash, err, sizeof err));
    assert_true(nnue_net_read_file(&e, path, err, sizeof err));
    assert_int_equal(e.hash, hash);
    assert_int_equal(e.feature_set, NNUE_FS_KING_BUCKETS);
    assert_int_equal(e.hidden, 160);
    assert_int_equal(e.out_buckets, 8);
    assert_int_equal(e.scale, 400);
    assert_false(e.stack);
    assert_memory_equal(e.ft_weights, q.ft_w, sizeof(int16_t) * (size_t)e.inputs * 160);
    assert_memory_equal(e.ft_bias, q.ft_b, sizeof(int16_t) * 160);
    assert_memory_equal(e.out_weights, q.out_w, sizeof(int16_t) * 8 * 2 * 160);
    assert_memory_equal(e.out_bias, q.out_b, sizeof(int32_t) * 8);
    /* Quantisation itself: round(x * scale). */
    assert_int_equal(q.ft_w[17], (int16_t)lround(net.params[17] * NNUE_QA));
    assert_int_equal(q.out_w[5], (int16_t)lround(net.params[net.out_w + 5] * NNUE_QB));
    nnue_net_free(&e);
    train_quant_free(&q);
    train_net_free(&net);

    /* Version 2: a factorised net with the stack. The file holds the
     * effective ft weights (bucket row + factor row), the header says 16 x
     * 32, and the size is what nnue_arch.h says. */
    lively_net(&net, shape_of(NNUE_FS_KING_BUCKETS, 128, 8, true, true), 4);
    assert_true(train_quantise(&net, &q));
    assert_int_equal(q.saturated, 0);
    assert_true(train_quant_write(&q, path, &hash, err, sizeof err));
    assert_true(nnue_net_read_file(&e, path, err, sizeof err));
    assert_true(e.stack);
    assert_int_equal(e.hash, hash);
    FILE *f = fopen(path, "rb");
    unsigned char head[NNUE_HEADER_SIZE_STACK];
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fseek(f, 0, SEEK_END);
    assert_int_equal((size_t)ftell(f), NNUE_HEADER_SIZE_STACK + nnue_payload_bytes(NNUE_FS_KING_BUCKETS, 128, 8, true));
    fclose(f);
    assert_int_equal(head[8], NNUE_VERSION_STACK);
    assert_int_equal(head[40], NNUE_L1);
    assert_int_equal(head[44], NNUE_L2);
    size_t row = 3 * TRAIN_FACTOR_ROWS + 123; /* bucket 3's row of factor row 123 */
    float eff = net.params[net.ft_w + row * 128 + 7] + net.params[net.fac_w + 123 * 128 + 7];
    assert_int_equal(e.ft_weights[row * 128 + 7], (int16_t)lround(eff * NNUE_QA));
    assert_int_equal(q.l1_w[33], (int8_t)lround(net.params[net.l1_w + 33] * NNUE_QW));
    assert_int_equal(q.l2_b[5], (int32_t)lround(net.params[net.l2_b + 5] * NNUE_QH * NNUE_QW));
    /* A stack of another shape, and a cut stack, are refused. */
    unsigned char *bytes = malloc(NNUE_HEADER_SIZE_STACK + nnue_payload_bytes(NNUE_FS_KING_BUCKETS, 128, 8, true));
    f = fopen(path, "rb");
    size_t n = fread(bytes, 1, NNUE_HEADER_SIZE_STACK + nnue_payload_bytes(NNUE_FS_KING_BUCKETS, 128, 8, true), f);
    fclose(f);
    NnueNet bad;
    bytes[40] = 8;
    assert_false(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    assert_non_null(strstr(err, "dense stack"));
    bytes[40] = NNUE_L1;
    assert_false(nnue_net_parse(&bad, bytes, n - 1, err, sizeof err));
    assert_non_null(strstr(err, "truncated"));
    assert_false(nnue_net_parse(&bad, bytes, 44, err, sizeof err));
    assert_non_null(strstr(err, "header"));
    assert_true(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    nnue_net_free(&bad);
    /* A bias beyond +-2^30 (with the hash made right again) is refused: the
     * stack's int32 sums could overflow. */
    size_t l1_bias =
        NNUE_HEADER_SIZE_STACK + (size_t)nnue_input_count(NNUE_FS_KING_BUCKETS) * 128 * 2 + 128 * 2 + NNUE_L1 * 2 * 128;
    memcpy(bytes + l1_bias, "\xff\xff\xff\x7f", 4);
    uint32_t h = nnue_fnv1a(NNUE_FNV_SEED, bytes + NNUE_HEADER_SIZE_STACK, n - NNUE_HEADER_SIZE_STACK);
    for (int i = 0; i < 4; i++)
        bytes[36 + i] = (unsigned char)(h >> (8 * i));
    assert_false(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    if (!strstr(err, "dense-stack bias of output bucket 0")) fail_msg("%s", err);
    assert_null(bad.memory);
    memcpy(bytes + l1_bias, "\x00\x00\x00\x40", 4); /* 2^30 itself is fine */
    h = nnue_fnv1a(NNUE_FNV_SEED, bytes + NNUE_HEADER_SIZE_STACK, n - NNUE_HEADER_SIZE_STACK);
    for (int i = 0; i < 4; i++)
        bytes[36 + i] = (unsigned char)(h >> (8 * i));
    assert_true(nnue_net_parse(&bad, bytes, n, err, sizeof err));
    nnue_net_free(&bad);
    free(bytes);
    remove(path);
    nnue_net_free(&e);
    train_quant_free(&q);
    train_net_free(&net);
}

/* The trainer's integer forward pass equals the engine's evaluate() on
 * fixed and random positions, with and without the accumulator stack, for
 * each feature set, bucket count and head (output layer, dense stack, or
 * both: the skip); the float eval stays close. */
static void test_engine_bit_exact(void **state) {
    (void)state;
    static const struct {
        int fs, hidden, buckets;
        bool stack, factorised;
        double tolerance; /* mean |float - quantised| as a share of mean |eval| */
        bool skip;        /* version 3: the stack + the output layer */
    } Shapes[] = {{NNUE_FS_PLAIN, 128, 1, false, false, 0.03, false},
                  {NNUE_FS_PLAIN, 256, 8, false, false, 0.03, false},
                  {NNUE_FS_KING_BUCKETS, 128, 8, false, false, 0.03, false},
                  {NNUE_FS_KING_BUCKETS, 256, 1, false, false, 0.03, false},
                  {NNUE_FS_PLAIN, 128, 8, true, false, 0.10, false},
                  {NNUE_FS_KING_BUCKETS, 256, 1, true, true, 0.10, false},
                  {NNUE_FS_KING_BUCKETS, 512, 8, true, false, 0.10, false},
                  {NNUE_FS_PLAIN, 256, 8, true, false, 0.10, true},
                  {NNUE_FS_KING_BUCKETS, 128, 1, true, true, 0.10, true}};
    TrainActs *acts = malloc(sizeof *acts);
    for (size_t s = 0; s < sizeof Shapes / sizeof *Shapes; s++) {
        TrainNet net;
        QuantNet q;
        char err[400], path[] = "/tmp/tuong-net-XXXXXX";
        TrainShape shape =
            shape_of(Shapes[s].fs, Shapes[s].hidden, Shapes[s].buckets, Shapes[s].stack, Shapes[s].factorised);
        shape.skip = Shapes[s].skip;
        lively_net(&net, shape, 10 + s);
        assert_true(train_quantise(&net, &q));
        close(mkstemp(path));
        assert_true(train_quant_write(&q, path, NULL, err, sizeof err));
        assert_true(nnue_load_file(path, err, sizeof err));
        remove(path);
        nnue_set_enabled(true);
        double qerr = 0, spread_sum = 0;
        int n = 0, distinct = 0, last = 0;
        for (int i = 0; i < 300; i++) {
            if (i < (int)(sizeof Fens / sizeof *Fens))
                must_parse(&Pos, Fens[i]);
            else
                random_position(&Pos, (int)rnd(160));
            TrainPosition p, r;
            unsigned char rec[TRAIN_RECORD_SIZE];
            train_position_from(&Pos, 0, 1, 0, &p);
            train_record_encode(&p, rec);
            assert_true(train_record_decode(rec, &r, err, sizeof err));
            int want = train_quant_eval(&q, &r);
            distinct += want != last;
            last = want;
            Pos.nnue = NULL;
            assert_int_equal(evaluate(&Pos), want);
            Pos.nnue = &Stack;
            assert_int_equal(evaluate(&Pos), want);
            Pos.nnue = NULL;
            TrainFeatures f;
            train_features(&net, &r, false, &f);
            float e = train_forward(&net, &f, acts);
            if (fabsf(e) < NNUE_EVAL_LIMIT) {
                qerr += fabs(e - want);
                spread_sum += fabs(e);
                n++;
            }
        }
        print_message("shape %zu: mean |float - quantised| %.2f, mean |eval| %.0f, %d changes of eval\n", s, qerr / n,
                      spread_sum / n, distinct);
        assert_true(distinct > 200); /* the evals vary: no saturated or dead head */
        assert_true(qerr / n < Shapes[s].tolerance * spread_sum / n + 5); /* rounding noise only */
        train_quant_free(&q);
        train_net_free(&net);
    }
    free(acts);
}

/* ---- warm start --------------------------------------------------------------- */

/* src quantised, written and read back as the engine reads it. */
static void engine_copy(const TrainNet *src, QuantNet *q, NnueNet *e) {
    char err[400], path[] = "/tmp/tuong-warm-XXXXXX";
    assert_true(train_quantise(src, q));
    assert_int_equal(q->saturated, 0);
    close(mkstemp(path));
    assert_true(train_quant_write(q, path, NULL, err, sizeof err));
    assert_true(nnue_net_read_file(e, path, err, sizeof err));
    remove(path);
}

static size_t quant_head_bytes(const QuantNet *q) {
    return q->stack ? (size_t)q->out_buckets * NNUE_L1 * 2 * (size_t)q->hidden
                    : sizeof(int16_t) * (size_t)q->out_buckets * 2 * (size_t)q->hidden;
}

/* q evaluates 50 random positions as want does (the trainer's integer
 * forward pass, which test_engine_bit_exact holds to the engine's). */
static void same_quant_evals(const QuantNet *q, const QuantNet *want) {
    for (int i = 0; i < 50; i++) {
        random_position(&Pos, (int)rnd(120));
        TrainPosition p;
        train_position_from(&Pos, 0, 1, 0, &p);
        assert_int_equal(train_quant_eval(q, &p), train_quant_eval(want, &p));
    }
}

/* A net started from a file of its own shape quantises back to the same
 * integers (output layer and dense stack) and evaluates as it does, and so
 * does one of 32 more units (the widening); plain features go into the
 * factor block of a factorised king-bucket net, so every bucket's effective
 * row is the plain row; a head of another kind is left alone; shapes that
 * cannot meet (fewer units, king buckets into plain) are refused. */
static void test_warm_start(void **state) {
    (void)state;
    const TrainShape Same[] = {
        shape_of(NNUE_FS_PLAIN, 128, 8, false, false), shape_of(NNUE_FS_KING_BUCKETS, 160, 8, true, false),
        shape_of(NNUE_FS_PLAIN, 128, 1, true, false), skip_shape(NNUE_FS_KING_BUCKETS, 128, 8, false)};
    char err[400];
    for (size_t s = 0; s < sizeof Same / sizeof *Same; s++) {
        TrainNet src, dst;
        QuantNet q, q2;
        NnueNet e;
        TrainInitReport rep;
        lively_net(&src, Same[s], 40 + s);
        engine_copy(&src, &q, &e);
        assert_true(train_net_alloc(&dst, &Same[s], err, sizeof err));
        train_net_randomise(&dst, 99);
        assert_true(train_net_init_from(&dst, &e, &rep, err, sizeof err));
        assert_true(rep.head);
        assert_true(train_quantise(&dst, &q2));
        assert_memory_equal(q2.ft_w, q.ft_w, sizeof(int16_t) * (size_t)q.inputs * (size_t)q.hidden);
        assert_memory_equal(q2.ft_b, q.ft_b, sizeof(int16_t) * (size_t)q.hidden);
        if (q.stack) {
            assert_memory_equal(q2.l1_w, q.l1_w, quant_head_bytes(&q));
            assert_memory_equal(q2.l2_w, q.l2_w, (size_t)q.out_buckets * NNUE_L2 * NNUE_L1);
            assert_memory_equal(q2.l3_w, q.l3_w, (size_t)q.out_buckets * NNUE_L2);
            assert_memory_equal(q2.l1_b, q.l1_b, sizeof(int32_t) * (size_t)q.out_buckets * NNUE_L1);
            assert_memory_equal(q2.l2_b, q.l2_b, sizeof(int32_t) * (size_t)q.out_buckets * NNUE_L2);
            assert_memory_equal(q2.l3_b, q.l3_b, sizeof(int32_t) * (size_t)q.out_buckets);
        }
        if (!q.stack || q.skip) {
            size_t bytes = sizeof(int16_t) * (size_t)q.out_buckets * 2 * (size_t)q.hidden;
            assert_memory_equal(q2.out_w, q.out_w, bytes);
            assert_memory_equal(q2.out_b, q.out_b, sizeof(int32_t) * (size_t)q.out_buckets);
        }
        same_quant_evals(&q2, &q);
        train_quant_free(&q2);
        train_net_free(&dst);
        /* 32 more units: a widening, the same evaluation again. */
        TrainShape wider = Same[s];
        wider.hidden += NNUE_HIDDEN_STEP;
        assert_true(train_net_alloc(&dst, &wider, err, sizeof err));
        train_net_randomise(&dst, 98);
        assert_true(train_net_init_from(&dst, &e, &rep, err, sizeof err));
        assert_true(rep.head);
        assert_int_equal(rep.widened_from, Same[s].hidden);
        assert_true(train_quantise(&dst, &q2));
        same_quant_evals(&q2, &q);
        train_quant_free(&q2);
        train_net_free(&dst);
        /* Fewer units, and king buckets into plain features, are refused. */
        if (Same[s].hidden > NNUE_HIDDEN_MIN) {
            TrainShape narrower = Same[s];
            narrower.hidden -= NNUE_HIDDEN_STEP;
            assert_true(train_net_alloc(&dst, &narrower, err, sizeof err));
            assert_false(train_net_init_from(&dst, &e, &rep, err, sizeof err));
            assert_non_null(strstr(err, "not narrow"));
            train_net_free(&dst);
        }
        if (Same[s].feature_set == NNUE_FS_KING_BUCKETS) {
            TrainShape plain = Same[s];
            plain.feature_set = NNUE_FS_PLAIN;
            assert_true(train_net_alloc(&dst, &plain, err, sizeof err));
            assert_false(train_net_init_from(&dst, &e, &rep, err, sizeof err));
            assert_non_null(strstr(err, "king buckets"));
            train_net_free(&dst);
        }
        nnue_net_free(&e);
        train_quant_free(&q);
        train_net_free(&src);
    }

    /* Plain, output layer -> factorised king buckets with a stack: the ft
     * rows land in the factor block (every bucket's effective row is the
     * plain row), the bias carries over, the new stack keeps its seeded
     * weights. */
    TrainNet src, dst;
    QuantNet q, q2;
    NnueNet e;
    TrainInitReport rep;
    lively_net(&src, shape_of(NNUE_FS_PLAIN, 128, 8, false, false), 50);
    engine_copy(&src, &q, &e);
    TrainShape kfs = shape_of(NNUE_FS_KING_BUCKETS, 128, 8, true, true);
    assert_true(train_net_alloc(&dst, &kfs, err, sizeof err));
    train_net_randomise(&dst, 7);
    float l1_before = dst.params[dst.l1_w + 5];
    assert_true(train_net_init_from(&dst, &e, &rep, err, sizeof err));
    assert_false(rep.head);
    assert_true(dst.params[dst.l1_w + 5] == l1_before);
    assert_true(train_quantise(&dst, &q2));
    for (int b = 0; b < NNUE_KING_BUCKET_NB; b++)
        assert_memory_equal(q2.ft_w + (size_t)b * TRAIN_FACTOR_ROWS * 128, q.ft_w,
                            sizeof(int16_t) * TRAIN_FACTOR_ROWS * 128);
    assert_memory_equal(q2.ft_b, q.ft_b, sizeof(int16_t) * 128);
    for (size_t i = 0; i < (size_t)TRAIN_FACTOR_ROWS * 128; i++)
        assert_true(dst.params[dst.ft_w + i] == 0.0f);
    train_quant_free(&q2);
    train_net_free(&dst);
    nnue_net_free(&e);
    train_quant_free(&q);
    train_net_free(&src);
}

/* evaluate() of every position of ps with the net of file path loaded. */
static void engine_evals(const char *path, Position *ps, int n, int *out) {
    char err[400];
    assert_true(nnue_load_file(path, err, sizeof err));
    nnue_set_enabled(true);
    for (int i = 0; i < n; i++) {
        ps[i].nnue = NULL; /* from scratch */
        out[i] = evaluate(&ps[i]);
    }
}

/* n positions to evaluate: the fixed ones, then random walks. */
static void test_positions(Position *ps, int n) {
    for (int i = 0; i < n; i++) {
        if (i < (int)(sizeof Fens / sizeof *Fens))
            must_parse(&ps[i], Fens[i]);
        else
            random_position(&ps[i], (int)rnd(160));
    }
}

/* A skip (version-3) net warm-started from a version-1 net keeps the
 * source's ft and output layer and adds a stack with l3 = 0, and one
 * started from a version-2 net keeps the stack and adds an output layer
 * of 0: in the engine, both evaluate every position exactly as the source
 * net; the new part is real (random l1, l2), not left empty. */
static void test_warm_start_skip(void **state) {
    (void)state;
    enum { N = 300 };
    Position *ps = malloc(sizeof *ps * N);
    int *want = malloc(sizeof(int) * N), *got = malloc(sizeof(int) * N);
    test_positions(ps, N);
    const bool src_stack[] = {false, true};
    for (int k = 0; k < 2; k++) {
        TrainNet src, dst;
        QuantNet q, q2;
        NnueNet e;
        TrainInitReport rep;
        char err[400], path[] = "/tmp/tuong-warm-XXXXXX";
        lively_net(&src, shape_of(NNUE_FS_PLAIN, 256, 8, src_stack[k], false), 60 + (uint64_t)k);
        engine_copy(&src, &q, &e);
        TrainShape shape = skip_shape(NNUE_FS_PLAIN, 256, 8, false);
        assert_true(train_net_alloc(&dst, &shape, err, sizeof err));
        train_net_randomise(&dst, 8);
        assert_true(train_net_init_from(&dst, &e, &rep, err, sizeof err));
        assert_false(rep.head);
        assert_true(rep.output_layer == !src_stack[k] && rep.stack == src_stack[k]);
        assert_true(train_quantise(&dst, &q2));
        assert_int_equal(q2.saturated, 0);
        assert_memory_equal(q2.ft_w, q.ft_w, sizeof(int16_t) * (size_t)q.inputs * 256);
        assert_memory_equal(q2.ft_b, q.ft_b, sizeof(int16_t) * 256);
        int l1_nonzero = 0, l3_nonzero = 0, out_nonzero = 0;
        for (size_t i = 0; i < (size_t)8 * NNUE_L1 * 2 * 256; i++)
            l1_nonzero += q2.l1_w[i] != 0;
        for (size_t i = 0; i < (size_t)8 * NNUE_L2; i++)
            l3_nonzero += q2.l3_w[i] != 0;
        for (size_t i = 0; i < (size_t)8 * 2 * 256; i++)
            out_nonzero += q2.out_w[i] != 0;
        assert_true(l1_nonzero > 8 * NNUE_L1 * 2 * 256 / 4);
        if (!src_stack[k]) {
            assert_memory_equal(q2.out_w, q.out_w, sizeof(int16_t) * 8 * 2 * 256);
            assert_memory_equal(q2.out_b, q.out_b, sizeof(int32_t) * 8);
            assert_int_equal(l3_nonzero, 0);
            for (int b = 0; b < 8; b++)
                assert_int_equal(q2.l3_b[b], 0);
        } else {
            assert_memory_equal(q2.l1_w, q.l1_w, (size_t)8 * NNUE_L1 * 2 * 256);
            assert_memory_equal(q2.l3_w, q.l3_w, (size_t)8 * NNUE_L2);
            assert_int_equal(out_nonzero, 0);
        }
        /* The engine: the source net's evals, then the warm start's. */
        close(mkstemp(path));
        assert_true(train_quant_write(&q, path, NULL, err, sizeof err));
        engine_evals(path, ps, N, want);
        assert_true(train_quant_write(&q2, path, NULL, err, sizeof err));
        engine_evals(path, ps, N, got);
        remove(path);
        assert_true(nnue_loaded()->skip);
        int distinct = 0;
        for (int i = 0; i < N; i++) {
            if (got[i] != want[i]) fail_msg("position %d: the warm start says %d, its source %d", i, got[i], want[i]);
            distinct += i && want[i] != want[i - 1];
        }
        assert_true(distinct > N / 2);
        train_quant_free(&q2);
        train_net_free(&dst);
        nnue_net_free(&e);
        train_quant_free(&q);
        train_net_free(&src);
    }
    free(ps);
    free(want);
    free(got);
}

/* ---- widening: a warm start from a net with fewer units ----------------------- */

enum { WIDEN_FROM = 128, WIDEN_TO = 256 };

/* Does input i of a head row of 2 * WIDEN_TO inputs (rows laid end to end)
 * read a new unit? Units WIDEN_FROM.. of either half. */
static bool reads_new_unit(size_t i) { return i % WIDEN_TO >= WIDEN_FROM; }

/* The nonzero weights of n floats of head rows that read new units. */
static size_t new_unit_reads(const float *rows, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += reads_new_unit(i) && rows[i] != 0.0f;
    return count;
}

/* The nonzero weights of net's output layer and first dense layer (those
 * it has) that read new units. */
static size_t head_new_unit_reads(const TrainNet *net, bool output_layer, bool l1) {
    const size_t row = 2 * WIDEN_TO, O = (size_t)net->out_buckets;
    return (output_layer ? new_unit_reads(net->params + net->out_w, O * row) : 0) +
           (l1 ? new_unit_reads(net->params + net->l1_w, O * NNUE_L1 * row) : 0);
}

/* The engine's evaluate() of every position of ps with q loaded. */
static void engine_evals_of(const QuantNet *q, Position *ps, int n, int *out) {
    char err[400], path[] = "/tmp/tuong-widen-XXXXXX";
    close(mkstemp(path));
    assert_true(train_quant_write(q, path, NULL, err, sizeof err));
    engine_evals(path, ps, n, out);
    remove(path);
}

/* Is the position one that a king-bucket net sees unmirrored from both
 * sides (both kings on files 0..4)? There, and only there, a plain net's
 * rows copied into every bucket evaluate as the plain net: a king on
 * files 5..8 mirrors its side's points left-right (nnue_features.h). */
static bool kings_unmirrored(const Position *pos) {
    return file_of(pos->king_sq[RED]) <= 4 && file_of(pos->king_sq[BLACK]) <= 4;
}

/* Widening: a run of 256 units started from a net of 128. The source's
 * units land in the first 128 of each half (the other half's at 256.., not
 * at 128..), the new units keep their seeded ft weights and every weight
 * of a copied head that reads them is 0: loaded in the engine, the widened
 * net gives every one of 300 positions the source's evaluate(). For a
 * version-3 source into a version-3 run (plain; king buckets into
 * factorised king buckets; plain into factorised king buckets, its rows
 * into the factor block, compared on the positions whose kings leave it
 * unmirrored), a version-1 source into a version-1 run and into a
 * version-3 run (the new stack silent), and a version-2 source into a
 * version-3 run (the new output layer 0). A source wider than the run is
 * refused. */
static void test_warm_start_widen(void **state) {
    (void)state;
    enum { N = 300 };
    const struct {
        TrainShape src, dst;
        bool head, output_layer, stack; /* what the report says was copied */
    } Cases[] = {
        {skip_shape(NNUE_FS_PLAIN, WIDEN_FROM, 8, false), skip_shape(NNUE_FS_PLAIN, WIDEN_TO, 8, false), true, false,
         false},
        {skip_shape(NNUE_FS_KING_BUCKETS, WIDEN_FROM, 8, false), skip_shape(NNUE_FS_KING_BUCKETS, WIDEN_TO, 8, true),
         true, false, false},
        {skip_shape(NNUE_FS_PLAIN, WIDEN_FROM, 8, false), skip_shape(NNUE_FS_KING_BUCKETS, WIDEN_TO, 8, true), true,
         false, false},
        {shape_of(NNUE_FS_PLAIN, WIDEN_FROM, 8, false, false), shape_of(NNUE_FS_PLAIN, WIDEN_TO, 8, false, false), true,
         false, false},
        {shape_of(NNUE_FS_PLAIN, WIDEN_FROM, 8, false, false), skip_shape(NNUE_FS_PLAIN, WIDEN_TO, 8, false), false,
         true, false},
        {shape_of(NNUE_FS_PLAIN, WIDEN_FROM, 8, true, false), skip_shape(NNUE_FS_PLAIN, WIDEN_TO, 8, false), false,
         false, true},
    };
    Position *ps = malloc(sizeof *ps * N);
    int *want = malloc(sizeof(int) * N), *got = malloc(sizeof(int) * N);
    test_positions(ps, N);
    char err[400];
    for (size_t k = 0; k < sizeof Cases / sizeof *Cases; k++) {
        TrainNet src, dst;
        QuantNet q, q2;
        NnueNet e;
        TrainInitReport rep;
        lively_net(&src, Cases[k].src, 70 + k);
        engine_copy(&src, &q, &e);
        assert_true(train_net_alloc(&dst, &Cases[k].dst, err, sizeof err));
        train_net_randomise(&dst, 11 + k);
        assert_true(train_net_init_from(&dst, &e, &rep, err, sizeof err));
        assert_int_equal(rep.widened_from, WIDEN_FROM);
        assert_true(rep.head == Cases[k].head && rep.output_layer == Cases[k].output_layer &&
                    rep.stack == Cases[k].stack);
        /* Nothing reads the new units (a silent new stack's l1 stays random). */
        const bool has_out = !dst.stack || dst.skip;
        assert_int_equal(head_new_unit_reads(&dst, has_out, Cases[k].src.stack), 0);
        assert_true(train_quantise(&dst, &q2));
        assert_int_equal(q2.saturated, 0);
        /* The new units are alive: most of their ft weights are not 0. */
        size_t new_ft = 0;
        for (size_t i = 0; i < (size_t)q2.inputs * WIDEN_TO; i++)
            new_ft += reads_new_unit(i) && q2.ft_w[i] != 0;
        assert_true(new_ft > (size_t)q2.inputs * (WIDEN_TO - WIDEN_FROM) / 2);
        /* The engine: the source net's evals, then the widened start's. */
        engine_evals_of(&q, ps, N, want);
        engine_evals_of(&q2, ps, N, got);
        assert_int_equal(nnue_loaded()->hidden, WIDEN_TO);
        const bool plain_to_kings = Cases[k].src.feature_set != Cases[k].dst.feature_set;
        int compared = 0, distinct = 0;
        for (int i = 0, last = 0; i < N; i++) {
            if (plain_to_kings && !kings_unmirrored(&ps[i])) continue;
            if (got[i] != want[i]) fail_msg("case %zu, position %d: widened %d, its source %d", k, i, got[i], want[i]);
            distinct += compared && want[i] != last;
            last = want[i];
            compared++;
        }
        assert_true(compared >= (plain_to_kings ? N / 4 : N) && distinct > compared / 2);
        train_quant_free(&q2);
        train_net_free(&dst);
        /* The other way round, the 256-unit net into a 128-unit run: refused. */
        if (k == 0) {
            NnueNet wide;
            QuantNet qw;
            TrainNet wide_src, narrow;
            lively_net(&wide_src, Cases[k].dst, 80);
            engine_copy(&wide_src, &qw, &wide);
            assert_true(train_net_alloc(&narrow, &Cases[k].src, err, sizeof err));
            assert_false(train_net_init_from(&narrow, &wide, &rep, err, sizeof err));
            if (!strstr(err, "256 units, the run trains 128") || !strstr(err, "not narrow")) fail_msg("%s", err);
            train_net_free(&narrow);
            nnue_net_free(&wide);
            train_quant_free(&qw);
            train_net_free(&wide_src);
        }
        nnue_net_free(&e);
        train_quant_free(&q);
        train_net_free(&src);
    }
    free(ps);
    free(want);
    free(got);
}

/* The widened units are not dead: a 256-unit trainer started from a
 * 128-unit version-3 net evaluates as its source and nothing reads its new
 * units, but after one short epoch (3 steps) weights of the output layer
 * and of the first dense layer read them and their ft weights have moved. */
static void test_warm_start_widen_learns(void **state) {
    (void)state;
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.feature_set = NNUE_FS_PLAIN;
    cfg.hidden = WIDEN_TO;
    cfg.stack = cfg.skip = true;
    cfg.epochs = 1;
    cfg.batch = 100;
    cfg.qat_epochs = 0; /* float passes: rounded to the 1/64 grid, a first step's weights would read 0 */
    Trainer t;
    TrainNet src;
    QuantNet q, q2;
    NnueNet e;
    TrainInitReport rep;
    char err[400];
    assert_true(trainer_init(&t, &cfg, err, sizeof err));
    lively_net(&src, skip_shape(NNUE_FS_PLAIN, WIDEN_FROM, 8, false), 90);
    engine_copy(&src, &q, &e);
    assert_true(train_net_init_from(&t.net, &e, &rep, err, sizeof err));
    assert_true(rep.head && rep.widened_from == WIDEN_FROM);
    assert_true(train_quantise(&t.net, &q2));
    same_quant_evals(&q2, &q);
    assert_int_equal(head_new_unit_reads(&t.net, true, false), 0);
    assert_int_equal(head_new_unit_reads(&t.net, false, true), 0);
    float *before = malloc(sizeof(float) * t.net.count);
    memcpy(before, t.net.params, sizeof(float) * t.net.count);
    TrainData data = make_data(300), none = {0};
    EpochStats st;
    assert_true(trainer_epoch(&t, &data, &none, 1, &st, NULL, NULL, 1e9));
    size_t out_reads = head_new_unit_reads(&t.net, true, false), l1_reads = head_new_unit_reads(&t.net, false, true);
    size_t ft_moved = 0;
    for (size_t i = t.net.ft_w; i < t.net.ft_b; i++)
        ft_moved += reads_new_unit(i - t.net.ft_w) && t.net.params[i] != before[i];
    print_message("after 3 steps: %zu output and %zu l1 weights read new units, %zu of their ft weights moved\n",
                  out_reads, l1_reads, ft_moved);
    assert_true(out_reads > 0 && l1_reads > 0 && ft_moved > 0);
    free(before);
    free(data.records);
    train_quant_free(&q2);
    nnue_net_free(&e);
    train_quant_free(&q);
    train_net_free(&src);
    trainer_free(&t);
}

/* --head-epochs: those epochs move the head and nothing else; with a skip
 * (whose output layer a warm start inherits) only the stack. */
static void head_epochs_check(bool skip) {
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.feature_set = NNUE_FS_KING_BUCKETS;
    cfg.factorised = true;
    cfg.stack = true;
    cfg.skip = skip;
    cfg.hidden = 128;
    cfg.epochs = 2;
    cfg.batch = 256;
    cfg.head_epochs = 1;
    Trainer t;
    char err[200];
    assert_true(trainer_init(&t, &cfg, err, sizeof err));
    assert_true(t.net.fresh == (skip ? t.net.l1_w : t.net.head));
    TrainData data = make_data(1500), none = {0};
    float *before = malloc(sizeof(float) * t.net.count);
    memcpy(before, t.net.params, sizeof(float) * t.net.count);
    EpochStats st;
    assert_true(trainer_epoch(&t, &data, &none, 2, &st, NULL, NULL, 1e9));
    size_t head_moved = 0;
    const size_t first = skip ? t.net.l1_w : t.net.head;
    for (size_t i = 0; i < t.net.count; i++) {
        bool in_head = i >= first && i < t.net.head_end;
        if (!in_head) assert_true(t.net.params[i] == before[i]);
        head_moved += in_head && t.net.params[i] != before[i];
    }
    assert_true(head_moved > (t.net.head_end - first) / 2);
    /* The next epoch trains everything: the ft, the factor (and the skip's
     * output layer) move. */
    assert_true(trainer_epoch(&t, &data, &none, 2, &st, NULL, NULL, 1e9));
    size_t ft_moved = 0, fac_moved = 0, out_moved = 0;
    for (size_t i = 0; i < t.net.head; i++)
        ft_moved += t.net.params[i] != before[i];
    for (size_t i = t.net.fac_w; i < t.net.count; i++)
        fac_moved += t.net.params[i] != before[i];
    for (size_t i = t.net.head; i < first; i++)
        out_moved += t.net.params[i] != before[i];
    assert_true(ft_moved > 0 && fac_moved > 0);
    assert_true(!skip || out_moved > (first - t.net.head) / 2);
    free(before);
    free(data.records);
    trainer_free(&t);
}

static void test_head_epochs(void **state) {
    (void)state;
    head_epochs_check(false);
    head_epochs_check(true);
}

/* ---- the command line ---------------------------------------------------------- */

static int count_lines(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_command_line(void **state) {
    (void)state;
    char dir[] = "/tmp/tuong-train-cli-XXXXXX", cmd[2048], out[8192];
    assert_non_null(mkdtemp(dir));
    const char *tool = TUONG_BUILD_DIR "/tuong-train";
    snprintf(cmd, sizeof cmd, "%s synth %s/d.data 3000 --seed 3 2>&1", tool, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/run --hidden 128 --features plain --epochs 2 --batch 500 "
             "--threads 2 2>&1",
             tool, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    assert_int_equal(count_lines(out, "epoch "), 2);
    assert_non_null(strstr(out, "2940 training and 60 validation"));
    snprintf(cmd, sizeof cmd, "%s resume %s/run/last.ckpt --data %s/d.data --out %s/run --epochs 3 2>&1", tool, dir,
             dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "resuming after epoch 2 of 3"));
    assert_non_null(strstr(out, "epoch-003.nnue"));
    snprintf(cmd, sizeof cmd, "%s quantise %s/run/last.ckpt %s/q.nnue 2>&1 && cmp %s/q.nnue %s/run/epoch-003.nnue",
             tool, dir, dir, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    char err[300];
    snprintf(cmd, sizeof cmd, "%s/q.nnue", dir);
    assert_true(nnue_load_file(cmd, err, sizeof err));
    /* A factorised king-bucket net with the dense stack: a version-2 file
     * that the engine loads. */
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/stack --hidden 128 --features kings --factorise --stack "
             "--epochs 1 --batch 500 --threads 2 2>&1",
             tool, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "king-bucket factorised features, 128 units, dense 16-32 stacks, 8 output buckets"));
    snprintf(cmd, sizeof cmd, "%s/stack/epoch-001.nnue", dir);
    assert_true(nnue_load_file(cmd, err, sizeof err));
    char desc[200];
    nnue_net_describe(nnue_loaded(), desc, sizeof desc);
    if (!strstr(desc, "dense 16-32 stacks")) fail_msg("loaded: %s", desc);
    /* A warm start from the 128-unit plain net, and its loss on the data. */
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/warm --hidden 128 --features kings --factorise --stack "
             "--init %s/q.nnue --head-epochs 1 --epochs 2 --batch 500 --threads 2 2>&1",
             tool, dir, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "starting from") || !strstr(out, "(plain, 128 units, 8 output buckets, scale 400): feature "
                                                      "transformer; the head is new"))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "%s validate %s/q.nnue --data %s/d.data --k 100 2>&1", tool, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "3000 positions, loss 0.") || !strstr(out, "k 100, lambda 0.75")) fail_msg("%s", out);
    char source_loss[64];
    snprintf(source_loss, sizeof source_loss, "%s", strstr(out, "loss 0."));
    *strchr(source_loss, ' ') = '_'; /* "loss_0.xxxxxx (float" */
    *strchr(source_loss, ' ') = '\0';
    /* A stack + skip warm start from the same plain net: epoch 0 is a
     * version-3 net file whose loss is the source's, to the last digit
     * (the new stack adds exactly 0), and validate reads it. */
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/skip --hidden 128 --features plain --stack --skip "
             "--init %s/q.nnue --head-epochs 1 --epochs 2 --batch 500 --threads 2 2>&1",
             tool, dir, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "plain features, 128 units, dense 16-32 stacks + skip, 8 output buckets") ||
        !strstr(out, "feature transformer and output layer; the stack is new") || !strstr(out, "epoch   0/2  start") ||
        !strstr(out, "skip/epoch-002.nnue"))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "%s validate %s/skip/epoch-000.nnue --data %s/d.data --k 100 2>&1", tool, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    source_loss[4] = ' ';
    if (!strstr(out, "dense 16-32 stacks + skip") || !strstr(out, source_loss))
        fail_msg("want %s: %s", source_loss, out);
    snprintf(cmd, sizeof cmd, "%s/skip/epoch-002.nnue", dir);
    assert_true(nnue_load_file(cmd, err, sizeof err));
    assert_true(nnue_loaded()->skip);
    /* A skip warm start from a skip net copies everything. */
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/skip2 --hidden 128 --features plain --stack --skip "
             "--init %s/skip/epoch-002.nnue --epochs 1 --batch 500 --threads 2 2>&1",
             tool, dir, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "stacks + skip, 8 output buckets, scale 400): feature transformer and head")) fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "cmp %s/skip/epoch-002.nnue %s/skip2/epoch-000.nnue", dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    /* A widening warm start, the 128-unit plain net into 160 units: its
     * epoch 0 validates to the source's loss to the last digit. */
    snprintf(cmd, sizeof cmd,
             "%s train --data %s/d.data --out %s/wide --hidden 160 --features plain --init %s/q.nnue --epochs 1 "
             "--batch 500 --threads 2 2>&1",
             tool, dir, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "feature transformer and head") ||
        !strstr(out, "widened from 128 to 160 units: the new units' ft weights are seeded, every weight reading them "
                     "is 0 (the same evals)"))
        fail_msg("%s", out);
    snprintf(cmd, sizeof cmd, "%s validate %s/wide/epoch-000.nnue --data %s/d.data --k 100 2>&1", tool, dir, dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    if (!strstr(out, "plain, 160 units") || !strstr(out, source_loss)) fail_msg("want %s: %s", source_loss, out);
    /* Bad input: one error line, exit status 2. */
    static const char *const Bad[] = {
        "train --data %s/d.data --out %s/run3 --hidden 128 --features plain --init %s/wide/epoch-001.nnue",
        "train --data %s/d.data --out %s/run3 --init %s/d.data",
        "validate %s/d.data --data %s/d.data",
        "validate %s/q.nnue --data %s/q.nnue",
        "validate %s/q.nnue",
        "train --data /nonexistent --out /tmp/x",
        "train --data %s/run/q.nnue --out %s/run2",
        "train --data %s/d.data --out %s/run3 --hidden 100",
        "train --data %s/d.data --out %s/run3 --lambda 2",
        "train --data %s/d.data --out %s/run3 --features plain --factorise",
        "train --data %s/d.data --out %s/run3 --skip",
        "train --data %s/d.data",
        "resume %s/d.data --data %s/d.data --out %s/run3",
        "frobnicate",
    };
    for (size_t i = 0; i < sizeof Bad / sizeof *Bad; i++) {
        char args[512];
        snprintf(args, sizeof args, Bad[i], dir, dir, dir);
        snprintf(cmd, sizeof cmd, "%s %s 2>&1", tool, args);
        assert_int_equal(run_command(cmd, out, sizeof out), 2);
        if (count_lines(out, "error:") != 1) fail_msg("'%s' printed: %s", args, out);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_round_trip),
        cmocka_unit_test(test_data_file),
        cmocka_unit_test(test_data_range),
        cmocka_unit_test(test_gradient_check),
        cmocka_unit_test(test_batch_chunks),
        cmocka_unit_test(test_overfit),
        cmocka_unit_test(test_checkpoint_round_trip),
        cmocka_unit_test(test_resume_is_exact),
        cmocka_unit_test(test_lr_schedule),
        cmocka_unit_test(test_quantisation_aware_forward),
        cmocka_unit_test(test_stack_l2_transposed),
        cmocka_unit_test(test_net_file_round_trip),
        cmocka_unit_test(test_net_file_skip),
        cmocka_unit_test(test_engine_bit_exact),
        cmocka_unit_test(test_warm_start),
        cmocka_unit_test(test_warm_start_skip),
        cmocka_unit_test(test_warm_start_widen),
        cmocka_unit_test(test_warm_start_widen_learns),
        cmocka_unit_test(test_head_epochs),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
