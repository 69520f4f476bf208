// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue/nnue_features.h"
#include "train_simd.h"

/* Initial weights: uniform in +-FT_INIT (about 32 features sum to an
 * accumulator of spread 0.3 of the clamp range) and +-OUT_INIT / sqrt(2H). */
static const float FT_INIT = 0.1f, OUT_INIT = 1.0f;

bool train_net_alloc(TrainNet *net, int feature_set, int hidden, int out_buckets, int scale, char *err, size_t errlen) {
    memset(net, 0, sizeof *net);
    if (feature_set < 0 || feature_set >= NNUE_FS_NB || hidden < NNUE_HIDDEN_MIN || hidden > NNUE_HIDDEN_MAX ||
        hidden % NNUE_HIDDEN_STEP || (out_buckets != 1 && out_buckets != NNUE_OUT_BUCKETS_MAX) ||
        scale < NNUE_SCALE_MIN || scale > NNUE_SCALE_MAX) {
        snprintf(err, errlen,
                 "unsupported network shape: feature set %d (0 plain, 1 king buckets), %d units (128..1024, a "
                 "multiple of 32), %d output buckets (1 or 8), scale %d (1..10000)",
                 feature_set, hidden, out_buckets, scale);
        return false;
    }
    net->feature_set = feature_set;
    net->inputs = nnue_input_count(feature_set);
    net->hidden = hidden;
    net->out_buckets = out_buckets;
    net->scale = scale;
    size_t H = (size_t)hidden, O = (size_t)out_buckets;
    net->ft_w = 0;
    net->ft_b = (size_t)net->inputs * H;
    net->out_w = net->ft_b + H;
    net->out_b = net->out_w + O * 2 * H;
    net->count = net->out_b + O;
    net->params = train_alloc_floats(net->count);
    if (!net->params) {
        snprintf(err, errlen, "out of memory for %zu parameters", net->count);
        return false;
    }
    return true;
}

void train_net_free(TrainNet *net) {
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

void train_net_randomise(TrainNet *net, uint64_t seed) {
    uint64_t s = seed;
    float out = OUT_INIT / sqrtf(2.0f * (float)net->hidden);
    memset(net->params, 0, sizeof(float) * net->count);
    for (size_t i = net->ft_w; i < net->ft_b; i++)
        net->params[i] = uniform(&s, FT_INIT);
    for (size_t i = net->out_w; i < net->out_b; i++)
        net->params[i] = uniform(&s, out);
}

void train_net_clip(TrainNet *net, size_t begin, size_t end) {
    float *p = net->params;
    for (size_t i = begin; i < end; i++) {
        float c = i >= net->out_w && i < net->out_b ? TRAIN_OUT_CLIP : TRAIN_FT_CLIP;
        p[i] = p[i] > c ? c : p[i] < -c ? -c : p[i];
    }
}

void train_net_round_output(const TrainNet *net, float *out) {
    for (size_t i = net->out_w; i < net->out_b; i++)
        out[i - net->out_w] = roundf(net->params[i] * NNUE_QB) / NNUE_QB;
}

static inline const float *output_weights(const TrainNet *net, int bucket) {
    return (net->out_q ? net->out_q : net->params + net->out_w) + (size_t)bucket * 2 * (size_t)net->hidden;
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

float train_forward(const TrainNet *net, const TrainFeatures *f, float *acc) {
    const int H = net->hidden;
    const float *w = net->params;
    for (int half = 0; half < 2; half++) {
        Color c = half == 0 ? f->stm : (Color)!f->stm;
        float *a = acc + half * H;
        memcpy(a, w + net->ft_b, sizeof(float) * (size_t)H);
        for (int i = 0; i < f->count; i++)
            train_add(a, w + net->ft_w + (size_t)f->feature[c][i] * (size_t)H, H);
    }
    const float *ow = output_weights(net, f->bucket);
    return (train_screlu_dot(acc, ow, 2 * H) + w[net->out_b + (size_t)f->bucket]) * (float)net->scale;
}

void train_backward(const TrainNet *net, const TrainFeatures *f, const float *acc, float g, float *grad) {
    const int H = net->hidden;
    const float g_out = g * (float)net->scale;
    const float *ow = output_weights(net, f->bucket);
    float d_acc[2 * NNUE_HIDDEN_MAX];
    train_screlu_backward(acc, ow, g_out, grad + net->out_w + (size_t)f->bucket * 2 * (size_t)H, d_acc, 2 * H);
    grad[net->out_b + (size_t)f->bucket] += g_out;
    train_add(grad + net->ft_b, d_acc, H);
    train_add(grad + net->ft_b, d_acc + H, H);
    for (int half = 0; half < 2; half++) {
        Color c = half == 0 ? f->stm : (Color)!f->stm;
        for (int i = 0; i < f->count; i++)
            train_add(grad + net->ft_w + (size_t)f->feature[c][i] * (size_t)H, d_acc + half * H, H);
    }
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
