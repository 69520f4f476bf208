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

/* ---- gradients -------------------------------------------------------------- */

static double batch_loss(const TrainNet *net, const TrainLoss *loss, const TrainData *d, const uint32_t *idx,
                         size_t n) {
    return train_batch(net, loss, d, idx, n, n, 0, NULL);
}

/* Does moving parameter i by +-eps push an accumulator unit it feeds across
 * the clamp's kinks at 0 or 1? (The loss is not differentiable there.) */
static bool near_kink(const TrainNet *net, const TrainData *d, const uint32_t *idx, size_t n, size_t i, float eps) {
    if (i >= net->out_w) return false;
    int H = net->hidden, unit = (int)((i - net->ft_w) % (size_t)H);
    int feature = i < net->ft_b ? (int)(i / (size_t)H) : -1;
    float acc[2 * NNUE_HIDDEN_MAX];
    for (size_t k = 0; k < n; k++) {
        TrainPosition p;
        TrainFeatures f;
        char err[8];
        train_record_decode(train_record(d, idx[k]), &p, err, sizeof err);
        train_features(net, &p, false, &f);
        train_forward(net, &f, acc);
        for (int half = 0; half < 2; half++) {
            Color c = half ? (Color)!f.stm : f.stm;
            bool fed = feature < 0;
            for (int j = 0; j < f.count && !fed; j++)
                fed = f.feature[c][j] == feature;
            float a = acc[half * H + unit];
            if (fed && (fabsf(a) < 2 * eps || fabsf(a - 1) < 2 * eps)) return true;
        }
    }
    return false;
}

static void gradient_check(int feature_set, double power) {
    TrainNet net;
    char err[200];
    assert_true(train_net_alloc(&net, feature_set, 128, 8, 400, err, sizeof err));
    train_net_randomise(&net, 5 + (uint64_t)feature_set);
    for (size_t i = net.out_w; i < net.count; i++)
        net.params[i] *= 10; /* gradients well above float noise */
    for (size_t i = net.ft_b; i < net.out_w; i++)
        net.params[i] = 0.3f;
    TrainLoss loss = {190, 0.5, power};
    enum { N = 8 };
    TrainData d = make_data(N);
    uint32_t idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = (uint32_t)i;
    float *grad = calloc(net.count, sizeof(float));
    train_batch(&net, &loss, &d, idx, N, N, 0, grad);
    /* Parameters that matter: weights of features in use, biases, the output
     * layer of the buckets in use. */
    TrainPosition p;
    TrainFeatures f;
    int checked = 0, skipped = 0;
    const float eps = 0.005f;
    for (int trial = 0; trial < 160; trial++) {
        train_record_decode(train_record(&d, idx[rnd(N)]), &p, err, sizeof err);
        train_features(&net, &p, false, &f);
        size_t i;
        switch (trial % 4) {
        case 0: i = net.ft_w + (size_t)f.feature[rnd(2)][rnd((unsigned)f.count)] * 128 + rnd(128); break;
        case 1: i = net.ft_b + rnd(128); break;
        case 2: i = net.out_w + (size_t)f.bucket * 256 + rnd(256); break;
        default: i = net.out_b + (size_t)f.bucket; break;
        }
        if (near_kink(&net, &d, idx, N, i, eps)) {
            skipped++;
            continue;
        }
        float keep = net.params[i];
        net.params[i] = keep + eps;
        double up = batch_loss(&net, &loss, &d, idx, N);
        net.params[i] = keep - eps;
        double down = batch_loss(&net, &loss, &d, idx, N);
        net.params[i] = keep;
        double numeric = (up - down) / (2 * eps), analytic = grad[i];
        if (fabs(numeric - analytic) > 0.01 * fmax(fabs(numeric), fabs(analytic)) + 2e-5)
            fail_msg("parameter %zu: analytic %.7g, numeric %.7g (power %g)", i, analytic, numeric, power);
        if (fabs(analytic) > 1e-4) checked++;
    }
    print_message("gradient check: %d parameters checked, %d skipped (near a kink)\n", checked, skipped);
    assert_true(skipped < 30);
    assert_true(checked > 60);
    free(grad);
    free(d.records);
    train_net_free(&net);
}

static void test_gradient_check(void **state) {
    (void)state;
    gradient_check(NNUE_FS_PLAIN, 2.0);
    gradient_check(NNUE_FS_KING_BUCKETS, 2.0);
    gradient_check(NNUE_FS_KING_BUCKETS, 2.5);
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
static void test_resume_is_exact(void **state) {
    (void)state;
    TrainConfig cfg = small_config();
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

/* A float net with accumulators spread over the whole clamp range. */
static void lively_net(TrainNet *net, int fs, int hidden, int buckets, uint64_t seed) {
    char err[200];
    assert_true(train_net_alloc(net, fs, hidden, buckets, 400, err, sizeof err));
    train_net_randomise(net, seed);
    for (size_t i = 0; i < net->ft_b; i++)
        net->params[i] *= 2.5f;
    for (size_t i = net->ft_b; i < net->out_w; i++)
        net->params[i] = (float)rnd(1000) / 1000.0f - 0.2f;
    for (size_t i = net->out_w; i < net->count; i++)
        net->params[i] = ((float)rnd(2001) / 1000.0f - 1.0f) * 1.9f;
}

/* Quantisation-aware passes use the output weights rounded to the QB grid:
 * the same eval as a net whose weights are rounded. */
static void test_quantisation_aware_forward(void **state) {
    (void)state;
    TrainNet net, rounded;
    char err[200];
    lively_net(&net, NNUE_FS_KING_BUCKETS, 128, 8, 21);
    assert_true(train_net_alloc(&rounded, NNUE_FS_KING_BUCKETS, 128, 8, 400, err, sizeof err));
    memcpy(rounded.params, net.params, sizeof(float) * net.count);
    float *q = train_alloc_floats(net.out_b - net.out_w), acc[2 * NNUE_HIDDEN_MAX];
    train_net_round_output(&net, q);
    for (size_t i = net.out_w; i < net.out_b; i++)
        rounded.params[i] = roundf(net.params[i] * NNUE_QB) / NNUE_QB;
    net.out_q = q;
    for (int i = 0; i < 50; i++) {
        random_position(&Pos, (int)rnd(100));
        TrainPosition p;
        TrainFeatures f;
        train_position_from(&Pos, 0, 1, 0, &p);
        train_features(&net, &p, false, &f);
        float a = train_forward(&net, &f, acc), b = train_forward(&rounded, &f, acc);
        assert_true(a == b);
    }
    assert_true(net.params[net.out_w + 3] != q[3]); /* the float weights themselves are not rounded */
    free(q);
    train_net_free(&net);
    train_net_free(&rounded);
}

static void test_net_file_round_trip(void **state) {
    (void)state;
    TrainNet net;
    QuantNet q;
    NnueNet e;
    char err[400], path[] = "/tmp/tuong-net-XXXXXX";
    uint32_t hash;
    lively_net(&net, NNUE_FS_KING_BUCKETS, 160, 8, 3);
    assert_true(train_quantise(&net, &q));
    assert_int_equal(q.saturated, 0);
    close(mkstemp(path));
    assert_true(train_quant_write(&q, path, &hash, err, sizeof err));
    assert_true(nnue_net_read_file(&e, path, err, sizeof err));
    remove(path);
    assert_int_equal(e.hash, hash);
    assert_int_equal(e.feature_set, NNUE_FS_KING_BUCKETS);
    assert_int_equal(e.hidden, 160);
    assert_int_equal(e.out_buckets, 8);
    assert_int_equal(e.scale, 400);
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
}

/* The trainer's integer forward pass equals the engine's evaluate() on
 * fixed and random positions, with and without the accumulator stack, for
 * each feature set and bucket count; the float eval stays close. */
static void test_engine_bit_exact(void **state) {
    (void)state;
    static const struct {
        int fs, hidden, buckets;
    } Shapes[] = {{NNUE_FS_PLAIN, 128, 1},
                  {NNUE_FS_PLAIN, 256, 8},
                  {NNUE_FS_KING_BUCKETS, 128, 8},
                  {NNUE_FS_KING_BUCKETS, 256, 1}};
    for (size_t s = 0; s < sizeof Shapes / sizeof *Shapes; s++) {
        TrainNet net;
        QuantNet q;
        char err[400], path[] = "/tmp/tuong-net-XXXXXX";
        lively_net(&net, Shapes[s].fs, Shapes[s].hidden, Shapes[s].buckets, 10 + s);
        assert_true(train_quantise(&net, &q));
        close(mkstemp(path));
        assert_true(train_quant_write(&q, path, NULL, err, sizeof err));
        assert_true(nnue_load_file(path, err, sizeof err));
        remove(path);
        nnue_set_enabled(true);
        double qerr = 0, spread = 0;
        int n = 0;
        float acc[2 * NNUE_HIDDEN_MAX];
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
            Pos.nnue = NULL;
            assert_int_equal(evaluate(&Pos), want);
            Pos.nnue = &Stack;
            assert_int_equal(evaluate(&Pos), want);
            Pos.nnue = NULL;
            TrainFeatures f;
            train_features(&net, &r, false, &f);
            float e = train_forward(&net, &f, acc);
            if (fabsf(e) < NNUE_EVAL_LIMIT) {
                qerr += fabs(e - want);
                spread += fabs(e);
                n++;
            }
        }
        print_message("shape %zu: mean |float - quantised| %.2f, mean |eval| %.0f\n", s, qerr / n, spread / n);
        assert_true(qerr / n < 0.03 * spread / n + 5); /* rounding noise only (nets this lively are extreme) */
        train_quant_free(&q);
        train_net_free(&net);
    }
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
    /* Bad input: one error line, exit status 2. */
    static const char *const Bad[] = {
        "train --data /nonexistent --out /tmp/x",
        "train --data %s/run/q.nnue --out %s/run2",
        "train --data %s/d.data --out %s/run3 --hidden 100",
        "train --data %s/d.data --out %s/run3 --lambda 2",
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
        cmocka_unit_test(test_record_round_trip),     cmocka_unit_test(test_data_file),
        cmocka_unit_test(test_gradient_check),        cmocka_unit_test(test_overfit),
        cmocka_unit_test(test_checkpoint_round_trip), cmocka_unit_test(test_resume_is_exact),
        cmocka_unit_test(test_lr_schedule),           cmocka_unit_test(test_quantisation_aware_forward),
        cmocka_unit_test(test_net_file_round_trip),   cmocka_unit_test(test_engine_bit_exact),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
