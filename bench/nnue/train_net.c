// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue/nnue_features.h"
#include "train_simd.h"

/* Initial weights: uniform in +-FT_INIT (about 32 features sum to an
 * accumulator of spread 0.3 of the clamp range) and +-OUT_INIT / sqrt(fan-in)
 * for the head's layers. */
static const float FT_INIT = 0.1f, OUT_INIT = 1.0f;
/* The stack's first layers start with a small positive bias, so that their
 * clipped units are alive (inside 0..1) from the first step. */
static const float STACK_BIAS_INIT = 0.1f;

bool train_net_alloc(TrainNet *net, const TrainShape *sh, char *err, size_t errlen) {
    memset(net, 0, sizeof *net);
    if (sh->feature_set < 0 || sh->feature_set >= NNUE_FS_NB || sh->hidden < NNUE_HIDDEN_MIN ||
        sh->hidden > NNUE_HIDDEN_MAX || sh->hidden % NNUE_HIDDEN_STEP ||
        (sh->out_buckets != 1 && sh->out_buckets != NNUE_OUT_BUCKETS_MAX) || sh->scale < NNUE_SCALE_MIN ||
        sh->scale > NNUE_SCALE_MAX || (sh->factorised && sh->feature_set != NNUE_FS_KING_BUCKETS) ||
        (sh->skip && !sh->stack)) {
        snprintf(err, errlen,
                 "unsupported network shape: feature set %d (0 plain, 1 king buckets), %d units (128..1024, a "
                 "multiple of 32), %d output buckets (1 or 8), scale %d (1..10000)%s",
                 sh->feature_set, sh->hidden, sh->out_buckets, sh->scale,
                 sh->factorised && sh->feature_set != NNUE_FS_KING_BUCKETS ? ", a factoriser without king buckets"
                 : sh->skip && !sh->stack                                  ? ", a skip without a stack"
                                                                           : "");
        return false;
    }
    net->feature_set = sh->feature_set;
    net->inputs = nnue_input_count(sh->feature_set);
    net->hidden = sh->hidden;
    net->out_buckets = sh->out_buckets;
    net->scale = sh->scale;
    net->stack = sh->stack;
    net->skip = sh->skip;
    net->factorised = sh->factorised;
    size_t H = (size_t)sh->hidden, O = (size_t)sh->out_buckets;
    net->ft_w = 0;
    net->ft_b = (size_t)net->inputs * H;
    net->head = net->ft_b + H;
    net->head_end = net->head;
    if (!sh->stack || sh->skip) {
        net->out_w = net->head;
        net->out_b = net->out_w + O * 2 * H;
        net->head_end = net->out_b + O;
    }
    net->fresh = sh->skip ? net->head_end : net->head;
    if (sh->stack) {
        net->l1_w = net->head_end;
        net->l1_b = net->l1_w + O * NNUE_L1 * 2 * H;
        net->l2_w = net->l1_b + O * NNUE_L1;
        net->l2_b = net->l2_w + O * NNUE_L2 * NNUE_L1;
        net->l3_w = net->l2_b + O * NNUE_L2;
        net->l3_b = net->l3_w + O * NNUE_L2;
        net->head_end = net->l3_b + O;
    }
    net->fac_w = net->head_end;
    net->count = net->fac_w + (sh->factorised ? (size_t)TRAIN_FACTOR_ROWS * H : 0);
    net->params = train_alloc_floats(net->count);
    net->ft_eff = sh->factorised ? train_alloc_floats(net->ft_b) : net->params + net->ft_w;
    if (!net->params || !net->ft_eff) {
        snprintf(err, errlen, "out of memory for %zu parameters", net->count);
        train_net_free(net);
        return false;
    }
    return true;
}

void train_net_free(TrainNet *net) {
    if (net->factorised) free(net->ft_eff);
    free(net->params);
    memset(net, 0, sizeof *net);
}

/* splitmix64: the trainer's seeded random numbers. */
static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float uniform(uint64_t *s, float limit) {
    return limit * (float)((double)(splitmix(s) >> 11) / (double)(1ull << 53) * 2.0 - 1.0);
}

static void fill_uniform(float *p, size_t n, uint64_t *s, float limit) {
    for (size_t i = 0; i < n; i++)
        p[i] = uniform(s, limit);
}

void train_net_randomise(TrainNet *net, uint64_t seed) {
    uint64_t s = seed;
    const size_t H = (size_t)net->hidden, O = (size_t)net->out_buckets;
    float *p = net->params;
    memset(p, 0, sizeof(float) * net->count);
    /* The ft rows first, so a plain net's draws are those of earlier versions. */
    if (net->factorised)
        fill_uniform(p + net->fac_w, (size_t)TRAIN_FACTOR_ROWS * H, &s, FT_INIT);
    else
        fill_uniform(p + net->ft_w, net->ft_b - net->ft_w, &s, FT_INIT);
    if (!net->stack || net->skip) fill_uniform(p + net->out_w, O * 2 * H, &s, OUT_INIT / sqrtf(2.0f * (float)H));
    if (net->stack) {
        fill_uniform(p + net->l1_w, O * NNUE_L1 * 2 * H, &s, OUT_INIT / sqrtf(2.0f * (float)H));
        fill_uniform(p + net->l2_w, O * NNUE_L2 * NNUE_L1, &s, OUT_INIT / sqrtf((float)NNUE_L1));
        fill_uniform(p + net->l3_w, O * NNUE_L2, &s, OUT_INIT / sqrtf((float)NNUE_L2));
        for (size_t i = net->l1_b; i < net->l2_w; i++)
            p[i] = STACK_BIAS_INIT;
        for (size_t i = net->l2_b; i < net->l3_w; i++)
            p[i] = STACK_BIAS_INIT;
    }
    train_net_refresh_eff(net, 0, (size_t)net->inputs);
}

bool train_net_is_q64(const TrainNet *net, size_t i) {
    const bool out = (!net->stack || net->skip) && i >= net->out_w && i < net->out_b;
    return out || (net->stack && ((i >= net->l1_w && i < net->l1_b) || (i >= net->l2_w && i < net->l2_b) ||
                                  (i >= net->l3_w && i < net->l3_b)));
}

float train_net_clip_span(const TrainNet *net, size_t i, size_t *span_end) {
    if (i < net->head || i >= net->head_end) { /* ft rows and biases, factor block */
        *span_end = i < net->head ? net->head : net->count;
        return TRAIN_FT_CLIP;
    }
    /* The head: its tensors in layout order, weights (scale 64) clipped,
     * biases (int32 holds them) not. */
    const size_t bounds[] = {net->out_w, net->out_b, net->l1_w, net->l1_b,    net->l2_w,
                             net->l2_b,  net->l3_w,  net->l3_b, net->head_end};
    size_t next = net->head_end;
    for (size_t k = 0; k < sizeof bounds / sizeof *bounds; k++)
        if (bounds[k] > i && bounds[k] < next) next = bounds[k];
    *span_end = next;
    return train_net_is_q64(net, i) ? TRAIN_OUT_CLIP : INFINITY;
}

void train_net_clip(TrainNet *net, size_t begin, size_t end) {
    float *p = net->params;
    for (size_t i = begin, span; i < end; i = span) {
        const float c = train_net_clip_span(net, i, &span);
        if (span > end) span = end;
        for (size_t k = i; k < span; k++)
            p[k] = p[k] > c ? c : p[k] < -c ? -c : p[k];
    }
}

void train_net_round_head(const TrainNet *net, float *out) {
    for (size_t i = net->head; i < net->head_end; i++)
        out[i - net->head] = train_net_is_q64(net, i) ? roundf(net->params[i] * NNUE_QB) / NNUE_QB : net->params[i];
}

void train_net_refresh_eff(TrainNet *net, size_t row_begin, size_t row_end) {
    if (!net->factorised) return;
    const int H = net->hidden;
    for (size_t r = row_begin; r < row_end; r++) {
        const float *own = net->params + net->ft_w + r * (size_t)H;
        const float *fac = net->params + net->fac_w + (r % TRAIN_FACTOR_ROWS) * (size_t)H;
        float *eff = net->ft_eff + r * (size_t)H;
        for (int j = 0; j < H; j++)
            eff[j] = own[j] + fac[j];
    }
}

void train_net_fold_factor_grad(const TrainNet *net, float *const *grads, int n_grads, size_t row_begin,
                                size_t row_end) {
    if (!net->factorised) return;
    const int H = net->hidden;
    const size_t buckets = (size_t)net->inputs / TRAIN_FACTOR_ROWS;
    for (size_t r = row_begin; r < row_end; r++) {
        float *dst = grads[0] + net->fac_w + r * (size_t)H;
        memset(dst, 0, sizeof(float) * (size_t)H);
        for (int t = 0; t < n_grads; t++)
            for (size_t b = 0; b < buckets; b++)
                train_add(dst, grads[t] + net->ft_w + (b * TRAIN_FACTOR_ROWS + r) * (size_t)H, H);
    }
}

/* The head's parameters the passes read: the params', or the rounded copy. */
static inline const float *head_param(const TrainNet *net, size_t offset) {
    return net->head_q ? net->head_q + (offset - net->head) : net->params + offset;
}

void train_features(const TrainNet *net, const TrainPosition *p, bool mirror, TrainFeatures *f) {
    TrainPosition m;
    if (mirror) {
        train_position_mirror(p, &m);
        p = &m;
    }
    Square king[COLOR_NB];
    train_position_kings(p, king);
    f->count = p->count;
    f->stm = p->stm;
    f->bucket = nnue_output_bucket(p->count, net->out_buckets);
    for (Color c = RED; c <= BLACK; c++) {
        NnueOrient o = nnue_orient(net->feature_set, c, king[c]);
        for (int i = 0; i < p->count; i++)
            f->feature[c][i] = nnue_feature(c, o, p->piece[i], p->square[i]);
    }
}

static inline float clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

_Static_assert(NNUE_L1 == 16 && NNUE_L2 == 32, "train_dot16_t is the 16 x 32 second layer");

void train_stack_l2_transpose(const TrainNet *net, float *l2t) {
    for (int b = 0; b < net->out_buckets; b++) {
        const float *w = head_param(net, net->l2_w + (size_t)b * NNUE_L2 * NNUE_L1);
        float *t = l2t + (size_t)b * NNUE_L1 * NNUE_L2;
        for (int k = 0; k < NNUE_L2; k++)
            for (int i = 0; i < NNUE_L1; i++)
                t[i * NNUE_L2 + k] = w[k * NNUE_L1 + i];
    }
}

/* The dense stack of bucket b on acc; returns the output before SCALE. */
static float stack_forward(const TrainNet *net, int b, const float *acc, TrainActs *a, const float *l2t) {
    const int H2 = 2 * net->hidden;
    const float *l1w = head_param(net, net->l1_w + (size_t)b * NNUE_L1 * (size_t)H2);
    const float *l1b = head_param(net, net->l1_b + (size_t)b * NNUE_L1);
    const float *l2w = head_param(net, net->l2_w + (size_t)b * NNUE_L2 * NNUE_L1);
    const float *l2b = head_param(net, net->l2_b + (size_t)b * NNUE_L2);
    const float *l3w = head_param(net, net->l3_w + (size_t)b * NNUE_L2);
    train_sqr_clamp(a->u, acc, H2);
    for (int j = 0; j < NNUE_L1; j += 4) {
        float dots[4];
        train_dot4(l1w + (size_t)j * (size_t)H2, a->u, H2, dots);
        for (int r = 0; r < 4; r++) {
            a->o1[j + r] = l1b[j + r] + dots[r];
            a->h1[j + r] = clamp01(a->o1[j + r]);
        }
    }
    float dots[NNUE_L2];
    if (l2t)
        train_dot16_t(l2t + (size_t)b * NNUE_L1 * NNUE_L2, a->h1, dots);
    else
        for (int k = 0; k < NNUE_L2; k++)
            dots[k] = train_dot(l2w + (size_t)k * NNUE_L1, a->h1, NNUE_L1);
    float out = *head_param(net, net->l3_b + (size_t)b);
    for (int k = 0; k < NNUE_L2; k++) {
        a->o2[k] = l2b[k] + dots[k];
        a->h2[k] = clamp01(a->o2[k]);
        out = train_fmaf(l3w[k], a->h2[k], out);
    }
    return out;
}

/* Walk the ft a block of units at a time through the chunk (block-major)
 * only when a block of all the rows stays in the L2: a king-bucket table's
 * block (7,560 rows) does not, and there whole rows a position (or a row's
 * uses) at a time let the prefetcher stream them (king buckets, 1024
 * units: 48 s of CPU block-major against 38 s row by row). Both orders take
 * every sum in the same order. */
static bool block_major(const TrainNet *net) {
    return (size_t)net->inputs * TRAIN_BLOCK * sizeof(float) <= TRAIN_BLOCK_MAJOR_BYTES;
}

void train_ft_forward(const TrainNet *net, const TrainFeatures *f, int n, float *acc) {
    const size_t H = (size_t)net->hidden;
    const float *bias = net->params + net->ft_b;
    const bool by_block = block_major(net);
    for (size_t outer = 0; outer < (by_block ? H / TRAIN_BLOCK : (size_t)n); outer++)
        for (size_t inner = 0; inner < (by_block ? (size_t)n : H / TRAIN_BLOCK); inner++) {
            const size_t i = (by_block ? outer : inner) * TRAIN_BLOCK, k = by_block ? inner : outer;
            float *dst = acc + k * 2 * H + i;
            train_sum_block2(dst, dst + H, bias + i, net->ft_eff + i, f[k].feature[f[k].stm], f[k].feature[!f[k].stm],
                             f[k].count, H);
        }
}

/* The output layer of bucket b on acc; returns the output before SCALE. */
static float output_layer_forward(const TrainNet *net, int b, const float *acc) {
    const int H = net->hidden;
    const float *ow = head_param(net, net->out_w + (size_t)b * 2 * (size_t)H);
    return train_screlu_dot(acc, ow, 2 * H) + *head_param(net, net->out_b + (size_t)b);
}

float train_head_forward(const TrainNet *net, int bucket, const float *acc, TrainActs *a, const float *l2t) {
    if (!net->stack) return output_layer_forward(net, bucket, acc) * (float)net->scale;
    /* The skip's eval and the stack's are summed in engine units, as the
     * engine sums them. */
    float eval = stack_forward(net, bucket, acc, a, l2t) * (float)net->scale;
    return net->skip ? train_fmaf(output_layer_forward(net, bucket, acc), (float)net->scale, eval) : eval;
}

float train_forward(const TrainNet *net, const TrainFeatures *f, TrainActs *a) {
    train_ft_forward(net, f, 1, a->acc);
    return train_head_forward(net, f->bucket, a->acc, a, NULL);
}

/* The stack backwards for d(loss)/d(output) = g: its gradients into grad,
 * d(loss)/d(acc) into d_acc. */
static void stack_backward(const TrainNet *net, int b, const float *acc, const TrainActs *a, float g, float *grad,
                           float *d_acc, float *d_l1) {
    const int H2 = 2 * net->hidden;
    const size_t l1w = net->l1_w + (size_t)b * NNUE_L1 * (size_t)H2, l1b = net->l1_b + (size_t)b * NNUE_L1;
    const size_t l2w = net->l2_w + (size_t)b * NNUE_L2 * NNUE_L1, l2b = net->l2_b + (size_t)b * NNUE_L2;
    const size_t l3w = net->l3_w + (size_t)b * NNUE_L2;
    const float *w2 = head_param(net, l2w), *w3 = head_param(net, l3w), *w1 = head_param(net, l1w);
    float d_h1[NNUE_L1] = {0};
    grad[net->l3_b + (size_t)b] += g;
    for (int k = 0; k < NNUE_L2; k++) {
        grad[l3w + (size_t)k] += g * a->h2[k];
        if (a->o2[k] <= 0.0f || a->o2[k] >= 1.0f) continue;
        float d = g * w3[k];
        grad[l2b + (size_t)k] += d;
        train_axpy(grad + l2w + (size_t)k * NNUE_L1, d, a->h1, NNUE_L1);
        train_axpy(d_h1, d, w2 + (size_t)k * NNUE_L1, NNUE_L1);
    }
    int live[NNUE_L1], n_live = 0; /* the first layer's units that pass a gradient */
    float d_live[NNUE_L1];
    for (int j = 0; j < NNUE_L1; j++) {
        if (a->o1[j] <= 0.0f || a->o1[j] >= 1.0f || d_h1[j] == 0.0f) continue;
        grad[l1b + (size_t)j] += d_h1[j];
        if (!d_l1) train_axpy(grad + l1w + (size_t)j * (size_t)H2, d_h1[j], a->u, H2);
        live[n_live] = j;
        d_live[n_live++] = d_h1[j];
    }
    if (d_l1)
        for (int j = 0, k = 0; j < NNUE_L1; j++)
            d_l1[j] = k < n_live && live[k] == j ? d_live[k++] : 0.0f;
    train_stack_d_acc(d_acc, acc, w1, live, d_live, n_live, H2);
}

void train_stack_l1_grad(const TrainNet *net, const TrainFeatures *f, int n, const float *d_l1, const float *u,
                         float *grad, int32_t *scratch) {
    const size_t H2 = 2 * (size_t)net->hidden;
    /* A bucket's 16 rows 64 units at a time, each with its uses (the
     * positions that pass it a gradient, in order): the 64-unit blocks of
     * the bucket's u (a few KB) then stay in the L1 for all 16 rows, where
     * row by row the bucket's whole u was read 16 times from the L2. Every
     * weight's sum is taken in the same order. at[j * n ..], d[j * n ..]:
     * unit j's uses. */
    int32_t *at = scratch;
    float *d = (float *)(scratch + (size_t)NNUE_L1 * (size_t)n);
    for (int b = 0; b < net->out_buckets; b++) {
        int uses[NNUE_L1] = {0}, any = 0;
        for (int k = 0; k < n; k++) {
            if (f[k].bucket != b) continue;
            for (int j = 0; j < NNUE_L1; j++) {
                const float dk = d_l1[(size_t)k * NNUE_L1 + (size_t)j];
                if (dk == 0.0f) continue;
                at[j * n + uses[j]] = (int32_t)((size_t)k * H2);
                d[j * n + uses[j]++] = dk;
                any = 1;
            }
        }
        if (!any) continue;
        float *rows = grad + net->l1_w + (size_t)b * NNUE_L1 * H2;
        for (size_t i = 0; i < H2; i += 2 * TRAIN_BLOCK)
            for (int j = 0; j < NNUE_L1; j++)
                if (uses[j]) train_axpy_gather_block64(rows + (size_t)j * H2 + i, d + j * n, at + j * n, uses[j], u + i);
    }
}

void train_head_backward(const TrainNet *net, int bucket, const float *acc, const TrainActs *a, float g, float *grad,
                         float *d_acc, float *d_l1) {
    const int H = net->hidden;
    const float g_out = g * (float)net->scale;
    if (net->stack) stack_backward(net, bucket, acc, a, g_out, grad, d_acc, d_l1);
    if (net->stack && !net->skip) return;
    /* The output layer: alone it writes d_acc; beside the stack (the skip)
     * its share is added to the stack's. */
    float skip_d_acc[2 * NNUE_HIDDEN_MAX];
    float *dst = net->skip ? skip_d_acc : d_acc;
    const float *ow = head_param(net, net->out_w + (size_t)bucket * 2 * (size_t)H);
    train_screlu_backward(acc, ow, g_out, grad + net->out_w + (size_t)bucket * 2 * (size_t)H, dst, 2 * H);
    grad[net->out_b + (size_t)bucket] += g_out;
    if (net->skip) train_add(d_acc, skip_d_acc, 2 * H);
}

size_t train_ft_scratch_ints(const TrainNet *net, int n) {
    /* train_stack_l1_grad's 2 * NNUE_L1 * n fit in the uses' n * 2 * TRAIN_MAX_PIECES */
    _Static_assert(2 * NNUE_L1 <= 2 * TRAIN_MAX_PIECES, "train_stack_l1_grad's scratch");
    return 2 * ((size_t)net->inputs + 1) + (size_t)n * 2 * TRAIN_MAX_PIECES;
}

void train_ft_backward(const TrainNet *net, const TrainFeatures *f, int n, const float *d_acc, float *grad,
                       int32_t *scratch) {
    const size_t H = (size_t)net->hidden;
    float *bias = grad + net->ft_b;
    for (size_t i = 0; i < H; i += TRAIN_BLOCK)
        for (int k = 0; k < n; k++) {
            train_add(bias + i, d_acc + (size_t)k * 2 * H + i, TRAIN_BLOCK);
            train_add(bias + i, d_acc + (size_t)k * 2 * H + H + i, TRAIN_BLOCK);
        }
    /* The rows: each feature's uses, grouped by feature (a stable counting
     * sort, so in the order of the positions and halves), so that a block of
     * a row is loaded and stored once for all its adds. at[] holds where each
     * use's d_acc half starts; rows[0..used) the rows used, ascending. */
    int32_t *end = scratch, *rows = end + net->inputs + 1, *at = rows + net->inputs + 1;
    memset(end, 0, sizeof *end * ((size_t)net->inputs + 1));
    for (int k = 0; k < n; k++)
        for (int half = 0; half < 2; half++)
            for (int j = 0; j < f[k].count; j++)
                end[f[k].feature[half ? !f[k].stm : f[k].stm][j] + 1]++;
    int used = 0;
    for (int r = 0; r < net->inputs; r++) {
        if (end[r + 1]) rows[used++] = r;
        end[r + 1] += end[r];
    }
    for (int k = 0; k < n; k++)
        for (int half = 0; half < 2; half++) {
            const int32_t *feature = f[k].feature[half ? !f[k].stm : f[k].stm];
            for (int j = 0; j < f[k].count; j++)
                at[end[feature[j]]++] = (int32_t)((size_t)k * 2 * H + (size_t)half * H);
        }
    /* end[r] is now where row r's uses end, and end[r - 1] where they begin. */
    float *w = grad + net->ft_w;
    const bool by_block = block_major(net);
    for (size_t outer = 0; outer < (by_block ? H / TRAIN_BLOCK : (size_t)used); outer++)
        for (size_t inner = 0; inner < (by_block ? (size_t)used : H / TRAIN_BLOCK); inner++) {
            const size_t i = (by_block ? outer : inner) * TRAIN_BLOCK, u = by_block ? inner : outer;
            const int r = rows[u], begin = r ? end[r - 1] : 0;
            train_gather_block(w + (size_t)r * H + i, at + begin, end[r] - begin, d_acc + i);
        }
}

void train_backward(const TrainNet *net, const TrainFeatures *f, const TrainActs *a, float g, float *grad) {
    float d_acc[2 * NNUE_HIDDEN_MAX];
    train_head_backward(net, f->bucket, a->acc, a, g, grad, d_acc, NULL);
    int32_t *scratch = malloc(sizeof *scratch * train_ft_scratch_ints(net, 1));
    if (!scratch) abort(); /* a few KB */
    train_ft_backward(net, f, 1, d_acc, grad, scratch);
    free(scratch);
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double train_target(const TrainLoss *loss, const TrainPosition *p) {
    return loss->lambda * sigmoid(p->score / loss->k) + (1.0 - loss->lambda) * p->result / 2.0;
}

double train_loss(const TrainLoss *loss, double eval, double target, double *grad) {
    double p = sigmoid(eval / loss->k), d = p - target, a = fabs(d);
    double l = loss->power == 2.0 ? d * d : pow(a, loss->power);
    double dl = loss->power == 2.0 ? 2.0 * d : (a > 0 ? loss->power * pow(a, loss->power - 1.0) * (d > 0 ? 1 : -1) : 0);
    *grad = dl * p * (1.0 - p) / loss->k;
    return l;
}
