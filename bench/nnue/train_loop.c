// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_loop.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "train_simd.h"

enum { MAX_THREADS = 64 };
static const double ADAM_BETA1 = 0.9, ADAM_BETA2 = 0.999, ADAM_EPS = 1e-8;

void train_config_defaults(TrainConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->feature_set = NNUE_FS_KING_BUCKETS;
    cfg->hidden = 256;
    cfg->out_buckets = NNUE_OUT_BUCKETS_MAX;
    cfg->scale = NNUE_SCALE_DEFAULT;
    cfg->loss.k = 190.0; /* the engine's Texel fit 0.9235 on a 400 log-10 scale is sigma(e / 188) */
    cfg->loss.lambda = 0.75;
    cfg->loss.power = 2.0;
    cfg->lr = 0.001;
    cfg->lr_min = 0.00003;
    cfg->lr_gamma = 0.3;
    cfg->lr_step = 8;
    cfg->schedule = LR_COSINE;
    cfg->epochs = 20;
    cfg->batch = 16384;
    cfg->seed = 1;
    cfg->mirror = true;
    cfg->val_fraction = 0.02;
    cfg->qat_epochs = 1; /* the last one: see docs/nnue.md, "Quantisation" */
    cfg->stack = false;
    cfg->skip = false;
    cfg->factorised = false;
    cfg->head_epochs = 0;
}

TrainShape train_config_shape(const TrainConfig *cfg) {
    return (TrainShape){cfg->feature_set, cfg->hidden,     cfg->out_buckets, cfg->scale,
                        cfg->stack,       cfg->factorised, cfg->skip};
}

bool trainer_init(Trainer *t, const TrainConfig *cfg, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    TrainShape shape = train_config_shape(cfg);
    if (!train_net_alloc(&t->net, &shape, err, errlen)) return false;
    t->m = train_alloc_floats(t->net.count);
    t->v = train_alloc_floats(t->net.count);
    t->head_q = train_alloc_floats(t->net.head_end - t->net.head);
    if (!t->m || !t->v || !t->head_q) {
        snprintf(err, errlen, "out of memory for the optimiser state");
        trainer_free(t);
        return false;
    }
    train_net_randomise(&t->net, cfg->seed);
    return true;
}

void trainer_free(Trainer *t) {
    train_net_free(&t->net);
    free(t->m);
    free(t->v);
    free(t->head_q);
    t->m = t->v = t->head_q = NULL;
}

void trainer_adam(Trainer *t, float *const *grads, int n_grads, double lr, size_t begin, size_t end) {
    const double c1 = 1.0 - pow(ADAM_BETA1, (double)t->step), c2 = 1.0 - pow(ADAM_BETA2, (double)t->step);
    const float step = (float)(lr / c1), b1 = (float)ADAM_BETA1, b2 = (float)ADAM_BETA2;
    const float inv_c2 = (float)(1.0 / c2), eps = (float)ADAM_EPS, decay = (float)(1.0 - lr * t->cfg.weight_decay);
    float *restrict p = t->net.params, *restrict m = t->m, *restrict v = t->v;
    /* Clipped in the same pass (train_net_clip), a span of one bound at a
     * time so that the loop vectorises. */
    for (size_t i = begin, span; i < end; i = span) {
        const float c = train_net_clip_span(&t->net, i, &span);
        if (span > end) span = end;
        for (size_t k = i; k < span; k++) {
            float g = grads[0][k];
            for (int j = 1; j < n_grads; j++)
                g += grads[j][k];
            m[k] = b1 * m[k] + (1.0f - b1) * g;
            v[k] = b2 * v[k] + (1.0f - b2) * g * g;
            float x = p[k] * decay - step * m[k] / (sqrtf(v[k] * inv_c2) + eps);
            p[k] = x > c ? c : x < -c ? -c : x;
        }
    }
}

double trainer_lr(const TrainConfig *cfg, int epoch, uint64_t step, uint64_t total_steps) {
    if (cfg->schedule == LR_STEP)
        return cfg->lr * pow(cfg->lr_gamma, (double)(epoch / (cfg->lr_step > 0 ? cfg->lr_step : 1)));
    double x = total_steps > 1 ? (double)step / (double)(total_steps - 1) : 1.0;
    if (x > 1.0) x = 1.0;
    return cfg->lr_min + 0.5 * (cfg->lr - cfg->lr_min) * (1.0 + cos(acos(-1.0) * x));
}

/* ---- threads ------------------------------------------------------------ */

typedef struct Job {
    Trainer *t;
    const QuantNet *q;
    const TrainData *data;
    const uint32_t *idx; /* NULL: records 0..count in order */
    size_t begin, end, total;
    size_t base; /* job_adam: the parameter range starts here */
    uint64_t mirror_key;
    float *grad;
    float *const *grads;
    int n_grads;
    double lr, result, result2;
    void (*run)(struct Job *);
} Job;

static void *job_main(void *arg) {
    Job *j = arg;
    j->run(j);
    return NULL;
}

/* Run jobs[0..n) on n threads (the caller runs jobs[0]). */
static void run_jobs(Job *jobs, int n) {
    pthread_t th[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int i = 1; i < n; i++)
        started[i] = pthread_create(&th[i], NULL, job_main, &jobs[i]) == 0;
    jobs[0].run(&jobs[0]);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            jobs[i].run(&jobs[i]); /* no thread: do it here */
    }
}

static void job_gradient(Job *j) {
    memset(j->grad, 0, sizeof(float) * j->t->net.count);
    j->result = train_batch(&j->t->net, &j->t->cfg.loss, j->data, j->idx + j->begin, j->end - j->begin, j->total,
                            j->mirror_key, j->grad);
}

static void job_adam(Job *j) { trainer_adam(j->t, j->grads, j->n_grads, j->lr, j->base + j->begin, j->base + j->end); }

/* Factorised nets: the factor rows' gradient, then (after the step) the
 * effective weights, each split by rows. */
static void job_fold(Job *j) { train_net_fold_factor_grad(&j->t->net, j->grads, j->n_grads, j->begin, j->end); }
static void job_refresh_eff(Job *j) { train_net_refresh_eff(&j->t->net, j->begin, j->end); }

/* Loss (no gradient) of records begin..end in file order. */
static void job_loss(Job *j) {
    uint32_t idx[1024];
    double sum = 0;
    for (size_t i = j->begin; i < j->end; i += 1024) {
        size_t n = j->end - i < 1024 ? j->end - i : 1024;
        for (size_t k = 0; k < n; k++)
            idx[k] = (uint32_t)(i + k);
        sum += train_batch(&j->t->net, &j->t->cfg.loss, j->data, idx, n, 1, 0, NULL);
    }
    j->result = sum;
}

static void job_qerror(Job *j) {
    TrainActs *acts = malloc(sizeof *acts);
    double sum = 0, loss = 0, g;
    for (size_t i = j->begin; acts && i < j->end; i++) {
        TrainPosition p;
        TrainFeatures f;
        train_record_unpack(train_record(j->data, i), &p);
        train_features(&j->t->net, &p, false, &f);
        double e = train_forward(&j->t->net, &f, acts);
        if (e > NNUE_EVAL_LIMIT) e = NNUE_EVAL_LIMIT;
        if (e < -NNUE_EVAL_LIMIT) e = -NNUE_EVAL_LIMIT;
        int q = train_quant_eval(j->q, &p);
        sum += fabs(e - q);
        loss += train_loss(&j->t->cfg.loss, q, train_target(&j->t->cfg.loss, &p), &g);
    }
    free(acts);
    j->result = sum;
    j->result2 = loss;
}

/* Split [0, n) between `threads` jobs running fn; sum of their results
 * (and of their second results in *sum2 if given). */
static double split_run2(Job *proto, int threads, size_t n, void (*fn)(Job *), double *sum2) {
    Job jobs[MAX_THREADS];
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    for (int i = 0; i < threads; i++) {
        jobs[i] = *proto;
        jobs[i].begin = n * (size_t)i / (size_t)threads;
        jobs[i].end = n * (size_t)(i + 1) / (size_t)threads;
        jobs[i].run = fn;
        if (proto->grads) jobs[i].grad = proto->grads[i];
    }
    run_jobs(jobs, threads);
    double sum = 0;
    for (int i = 0; i < threads; i++)
        sum += jobs[i].result;
    if (sum2) {
        *sum2 = 0;
        for (int i = 0; i < threads; i++)
            *sum2 += jobs[i].result2;
    }
    return sum;
}

static double split_run(Job *proto, int threads, size_t n, void (*fn)(Job *)) {
    return split_run2(proto, threads, n, fn, NULL);
}

double trainer_loss(const Trainer *t, const TrainData *data, int threads) {
    if (!data->count) return 0;
    Job proto = {.t = (Trainer *)t, .data = data};
    return split_run(&proto, threads, data->count, job_loss) / (double)data->count;
}

double trainer_qerror(const Trainer *t, const QuantNet *q, const TrainData *data, int threads, double *qloss) {
    *qloss = 0;
    if (!data->count) return 0;
    Job proto = {.t = (Trainer *)t, .q = q, .data = data};
    double err = split_run2(&proto, threads, data->count, job_qerror, qloss) / (double)data->count;
    *qloss /= (double)data->count;
    return err;
}

/* ---- one epoch ---------------------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* This epoch's order of the training records (seeded Fisher-Yates). */
static uint32_t *shuffled(size_t n, uint64_t seed) {
    uint32_t *idx = malloc(sizeof(uint32_t) * (n ? n : 1));
    if (!idx) return NULL;
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    uint64_t s = seed;
    for (size_t i = n; i > 1; i--) {
        s += 0x9E3779B97F4A7C15ull;
        size_t j = (size_t)(train_mix64(s) % i);
        uint32_t x = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = x;
    }
    return idx;
}

bool trainer_epoch(Trainer *t, const TrainData *train, const TrainData *val, int threads, EpochStats *st,
                   TrainProgress progress, void *ctx, double report_seconds) {
    memset(st, 0, sizeof *st);
    if (threads < 1) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    const TrainConfig *cfg = &t->cfg;
    const double start = now_s();
    const uint64_t epoch_key = train_mix64(cfg->seed ^ (0x5851F42D4C957F2Dull * (uint64_t)(t->epoch + 1)));
    uint32_t *idx = shuffled(train->count, epoch_key);
    float *grads[MAX_THREADS] = {NULL};
    bool ok = idx != NULL;
    for (int i = 0; i < threads && ok; i++)
        ok = (grads[i] = train_alloc_floats(t->net.count)) != NULL;
    if (!ok) {
        for (int i = 0; i < threads; i++)
            free(grads[i]);
        free(idx);
        return false;
    }
    const size_t batch = (size_t)cfg->batch, batches = (train->count + batch - 1) / batch;
    const uint64_t total_steps = (uint64_t)cfg->epochs * batches;
    double loss_sum = 0, last_report = start;
    /* Quantisation-aware: the passes see the rounded head weights. */
    const bool qat = t->epoch >= cfg->epochs - cfg->qat_epochs;
    t->net.head_q = qat ? t->head_q : NULL;
    if (qat) train_net_round_head(&t->net, t->head_q);
    /* Head only: a warm start's new head first learns to read the inherited
     * accumulator, so that its first random gradients do not wreck it. With
     * a skip only the stack is new (the output layer is inherited too), so
     * only the stack trains ([fresh, head_end)). */
    const bool head_only = t->epoch < cfg->head_epochs;
    for (size_t b = 0; b < batches; b++) {
        size_t first = b * batch, n = train->count - first < batch ? train->count - first : batch;
        Job proto = {.t = t,
                     .data = train,
                     .idx = idx + first,
                     .total = n,
                     .grads = grads,
                     .mirror_key = cfg->mirror ? epoch_key | 1 : 0};
        double loss = split_run(&proto, threads, n, job_gradient);
        loss_sum += loss * (double)n;
        t->step++;
        st->lr = trainer_lr(cfg, t->epoch, t->step - 1, total_steps);
        Job adam = {.t = t, .grads = grads, .n_grads = threads, .lr = st->lr};
        if (head_only) {
            adam.base = t->net.fresh;
            split_run(&adam, threads, t->net.head_end - t->net.fresh, job_adam);
        } else {
            if (t->net.factorised) split_run(&adam, threads, TRAIN_FACTOR_ROWS, job_fold);
            split_run(&adam, threads, t->net.count, job_adam);
            if (t->net.factorised) split_run(&adam, threads, (size_t)t->net.inputs, job_refresh_eff);
        }
        if (qat) train_net_round_head(&t->net, t->head_q);
        st->samples += n;
        double now = now_s();
        if (progress && now - last_report >= report_seconds) {
            last_report = now;
            progress(ctx, t, (double)(b + 1) / (double)batches, loss_sum / (double)st->samples,
                     (double)st->samples / (now - start));
        }
    }
    t->epoch++;
    st->train_loss = st->samples ? loss_sum / (double)st->samples : 0;
    st->val_loss = trainer_loss(t, val, threads);
    QuantNet q;
    if (val->count && train_quantise(&t->net, &q)) {
        st->qerror = trainer_qerror(t, &q, val, threads, &st->qval_loss);
        st->saturated = q.saturated;
        train_quant_free(&q);
    }
    st->seconds = now_s() - start;
    for (int i = 0; i < threads; i++)
        free(grads[i]);
    free(idx);
    return true;
}
