// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_quant.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue/nnue_features.h"

static int16_t to_i16(double x, size_t *saturated) {
    double r = round(x);
    if (r > INT16_MAX || r < INT16_MIN) {
        (*saturated)++;
        return r > 0 ? INT16_MAX : INT16_MIN;
    }
    return (int16_t)r;
}

static int8_t to_i8(double x, size_t *saturated) {
    double r = round(x);
    if (r > INT8_MAX || r < INT8_MIN) {
        (*saturated)++;
        return r > 0 ? INT8_MAX : INT8_MIN;
    }
    return (int8_t)r;
}

static int32_t to_i32(double x, size_t *saturated) {
    double r = round(x);
    if (r > INT32_MAX || r < INT32_MIN) {
        (*saturated)++;
        return r > 0 ? INT32_MAX : INT32_MIN;
    }
    return (int32_t)r;
}

static void quantise_i8(int8_t *dst, const float *src, size_t n, size_t *sat) {
    for (size_t i = 0; i < n; i++)
        dst[i] = to_i8((double)src[i] * NNUE_QW, sat);
}

/* A stack bias, held within the engine's bound (NNUE_STACK_BIAS_MAX). */
static void quantise_bias(int32_t *dst, const float *src, size_t n, size_t *sat) {
    for (size_t i = 0; i < n; i++) {
        double r = round((double)src[i] * NNUE_QH * NNUE_QW);
        if (fabs(r) > NNUE_STACK_BIAS_MAX) {
            (*sat)++;
            r = r > 0 ? NNUE_STACK_BIAS_MAX : -NNUE_STACK_BIAS_MAX;
        }
        dst[i] = (int32_t)r;
    }
}

bool train_quantise(const TrainNet *net, QuantNet *q) {
    memset(q, 0, sizeof *q);
    size_t H = (size_t)net->hidden, O = (size_t)net->out_buckets, ft = (size_t)net->inputs * H;
    q->feature_set = net->feature_set;
    q->inputs = net->inputs;
    q->hidden = net->hidden;
    q->out_buckets = net->out_buckets;
    q->scale = net->scale;
    q->stack = net->stack;
    q->skip = net->skip;
    q->ft_w = malloc(sizeof(int16_t) * ft);
    q->ft_b = malloc(sizeof(int16_t) * H);
    bool ok = q->ft_w && q->ft_b;
    const bool out_layer = !net->stack || net->skip;
    if (out_layer) {
        q->out_w = malloc(sizeof(int16_t) * O * 2 * H);
        q->out_b = malloc(sizeof(int32_t) * O);
        ok = ok && q->out_w && q->out_b;
    }
    if (net->stack) {
        q->l1_w = malloc(O * NNUE_L1 * 2 * H);
        q->l2_w = malloc(O * NNUE_L2 * NNUE_L1);
        q->l3_w = malloc(O * NNUE_L2);
        q->l1_b = malloc(sizeof(int32_t) * O * NNUE_L1);
        q->l2_b = malloc(sizeof(int32_t) * O * NNUE_L2);
        q->l3_b = malloc(sizeof(int32_t) * O);
        ok = ok && q->l1_w && q->l2_w && q->l3_w && q->l1_b && q->l2_b && q->l3_b;
    }
    if (!ok) {
        train_quant_free(q);
        return false;
    }
    const float *p = net->params;
    for (size_t i = 0; i < ft; i++)
        q->ft_w[i] = to_i16((double)net->ft_eff[i] * NNUE_QA, &q->saturated);
    for (size_t i = 0; i < H; i++)
        q->ft_b[i] = to_i16((double)p[net->ft_b + i] * NNUE_QA, &q->saturated);
    if (out_layer) {
        for (size_t i = 0; i < O * 2 * H; i++)
            q->out_w[i] = to_i16((double)p[net->out_w + i] * NNUE_QB, &q->saturated);
        for (size_t i = 0; i < O; i++)
            q->out_b[i] = to_i32((double)p[net->out_b + i] * NNUE_QA * NNUE_QB, &q->saturated);
    }
    if (!net->stack) return true;
    quantise_i8(q->l1_w, p + net->l1_w, O * NNUE_L1 * 2 * H, &q->saturated);
    quantise_i8(q->l2_w, p + net->l2_w, O * NNUE_L2 * NNUE_L1, &q->saturated);
    quantise_i8(q->l3_w, p + net->l3_w, O * NNUE_L2, &q->saturated);
    quantise_bias(q->l1_b, p + net->l1_b, O * NNUE_L1, &q->saturated);
    quantise_bias(q->l2_b, p + net->l2_b, O * NNUE_L2, &q->saturated);
    quantise_bias(q->l3_b, p + net->l3_b, O, &q->saturated);
    return true;
}

void train_quant_free(QuantNet *q) {
    free(q->ft_w);
    free(q->ft_b);
    free(q->out_w);
    free(q->out_b);
    free(q->l1_w);
    free(q->l2_w);
    free(q->l3_w);
    free(q->l1_b);
    free(q->l2_b);
    free(q->l3_b);
    memset(q, 0, sizeof *q);
}

static void put_u32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned char *put_i16s(unsigned char *p, const int16_t *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        p[2 * i] = (unsigned char)((uint16_t)v[i] & 0xFF);
        p[2 * i + 1] = (unsigned char)((uint16_t)v[i] >> 8);
    }
    return p + 2 * n;
}

static unsigned char *put_i32s(unsigned char *p, const int32_t *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        put_u32(p + 4 * i, (uint32_t)v[i]);
    return p + 4 * n;
}

static unsigned char *put_i8s(unsigned char *p, const int8_t *v, size_t n) {
    memcpy(p, v, n);
    return p + n;
}

/* The payload after the header: ft, then the stacks (versions 2 and 3),
 * then the output layer (versions 1 and 3). */
static void put_payload(const QuantNet *q, unsigned char *p) {
    size_t H = (size_t)q->hidden, O = (size_t)q->out_buckets;
    p = put_i16s(p, q->ft_w, (size_t)q->inputs * H);
    p = put_i16s(p, q->ft_b, H);
    for (size_t b = 0; q->stack && b < O; b++) {
        p = put_i8s(p, q->l1_w + b * NNUE_L1 * 2 * H, NNUE_L1 * 2 * H);
        p = put_i32s(p, q->l1_b + b * NNUE_L1, NNUE_L1);
        p = put_i8s(p, q->l2_w + b * NNUE_L2 * NNUE_L1, NNUE_L2 * NNUE_L1);
        p = put_i32s(p, q->l2_b + b * NNUE_L2, NNUE_L2);
        p = put_i8s(p, q->l3_w + b * NNUE_L2, NNUE_L2);
        p = put_i32s(p, q->l3_b + b, 1);
    }
    if (!q->stack || q->skip) {
        p = put_i16s(p, q->out_w, O * 2 * H);
        put_i32s(p, q->out_b, O);
    }
}

/* The file version of a quantised net. */
static int quant_version(const QuantNet *q) {
    return q->skip ? NNUE_VERSION_SKIP : q->stack ? NNUE_VERSION_STACK : NNUE_VERSION;
}

bool train_quant_write(const QuantNet *q, const char *path, uint32_t *hash, char *err, size_t errlen) {
    const int version = quant_version(q);
    const size_t header = nnue_header_bytes(version);
    size_t payload = nnue_payload_bytes_v(q->feature_set, q->hidden, q->out_buckets, version);
    unsigned char *buf = malloc(header + payload);
    if (!buf) {
        snprintf(err, errlen, "out of memory writing '%.200s'", path);
        return false;
    }
    put_payload(q, buf + header);
    uint32_t h = nnue_fnv1a(NNUE_FNV_SEED, buf + header, payload);
    memcpy(buf, NNUE_MAGIC, 8);
    const uint32_t fields[10] = {(uint32_t)version,
                                 (uint32_t)q->feature_set,
                                 (uint32_t)q->hidden,
                                 (uint32_t)q->out_buckets,
                                 NNUE_QA,
                                 NNUE_QB,
                                 (uint32_t)q->scale,
                                 h,
                                 NNUE_L1,
                                 NNUE_L2};
    for (size_t i = 0; i < (header - 8) / 4; i++)
        put_u32(buf + 8 + 4 * i, fields[i]);
    /* Write beside the target and rename: a reader never sees half a net. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, header + payload, f) == header + payload;
    if (f && fclose(f) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot write '%.200s': %s", path, strerror(errno));
        remove(tmp);
    }
    free(buf);
    if (ok && hash) *hash = h;
    return ok;
}

/* The accumulator of perspective c, with int16 wraparound like the engine. */
static void accumulate(const QuantNet *q, const TrainPosition *p, const Square *king, Color c, int16_t *acc) {
    NnueOrient o = nnue_orient(q->feature_set, c, king[c]);
    for (int j = 0; j < q->hidden; j++)
        acc[j] = q->ft_b[j];
    for (int i = 0; i < p->count; i++) {
        const int16_t *row = q->ft_w + (size_t)nnue_feature(c, o, p->piece[i], p->square[i]) * (size_t)q->hidden;
        for (int j = 0; j < q->hidden; j++)
            acc[j] = (int16_t)(uint16_t)((unsigned)acc[j] + (unsigned)row[j]);
    }
}

/* The version-1 output: SCReLU against int16 weights, int32 wrapping. */
static int64_t output_v1(const QuantNet *q, int bucket, int16_t acc[COLOR_NB][NNUE_HIDDEN_MAX]) {
    const int16_t *w = q->out_w + (size_t)bucket * 2 * (size_t)q->hidden;
    uint32_t sum = 0; /* int32 with wraparound */
    for (int half = 0; half < 2; half++)
        for (int j = 0; j < q->hidden; j++) {
            int a = acc[half][j], v = a < 0 ? 0 : a > NNUE_QA ? NNUE_QA : a;
            int16_t vw = (int16_t)(uint16_t)(unsigned)(v * w[half * q->hidden + j]);
            sum += (uint32_t)(vw * v);
        }
    return nnue_output_scale((int32_t)sum, q->out_b[bucket], q->scale);
}

/* The version-2 stack, straight from nnue_arch.h's formulas. */
static int64_t output_stack(const QuantNet *q, int bucket, int16_t acc[COLOR_NB][NNUE_HIDDEN_MAX]) {
    const int H = q->hidden, H2 = 2 * H;
    const int8_t *w1 = q->l1_w + (size_t)bucket * NNUE_L1 * (size_t)H2;
    const int8_t *w2 = q->l2_w + (size_t)bucket * NNUE_L2 * NNUE_L1, *w3 = q->l3_w + (size_t)bucket * NNUE_L2;
    int u[2 * NNUE_HIDDEN_MAX], h1[NNUE_L1];
    for (int i = 0; i < H2; i++)
        u[i] = nnue_sqr_unit(acc[i / H][i % H]);
    for (int j = 0; j < NNUE_L1; j++) {
        int32_t s = q->l1_b[bucket * NNUE_L1 + j];
        for (int i = 0; i < H2; i++)
            s += u[i] * w1[(size_t)j * (size_t)H2 + (size_t)i];
        h1[j] = nnue_crelu(s);
    }
    int32_t out = q->l3_b[bucket];
    for (int k = 0; k < NNUE_L2; k++) {
        int32_t s = q->l2_b[bucket * NNUE_L2 + k];
        for (int j = 0; j < NNUE_L1; j++)
            s += h1[j] * w2[k * NNUE_L1 + j];
        out += nnue_crelu(s) * w3[k];
    }
    return nnue_stack_scale(out, q->scale);
}

int train_quant_eval(const QuantNet *q, const TrainPosition *p) {
    int16_t acc[COLOR_NB][NNUE_HIDDEN_MAX];
    Square king[COLOR_NB];
    train_position_kings(p, king);
    accumulate(q, p, king, p->stm, acc[0]);
    accumulate(q, p, king, (Color)!p->stm, acc[1]);
    int bucket = nnue_output_bucket(p->count, q->out_buckets);
    /* Version 3 sums both heads' evals (engine units) before the clamp. */
    int64_t eval =
        (q->stack ? output_stack(q, bucket, acc) : 0) + (!q->stack || q->skip ? output_v1(q, bucket, acc) : 0);
    return (int)(eval > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : eval < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : eval);
}
