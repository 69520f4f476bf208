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

bool train_quantise(const TrainNet *net, QuantNet *q) {
    memset(q, 0, sizeof *q);
    size_t H = (size_t)net->hidden, O = (size_t)net->out_buckets, ft = (size_t)net->inputs * H;
    q->feature_set = net->feature_set;
    q->inputs = net->inputs;
    q->hidden = net->hidden;
    q->out_buckets = net->out_buckets;
    q->scale = net->scale;
    q->ft_w = malloc(sizeof(int16_t) * ft);
    q->ft_b = malloc(sizeof(int16_t) * H);
    q->out_w = malloc(sizeof(int16_t) * O * 2 * H);
    q->out_b = malloc(sizeof(int32_t) * O);
    if (!q->ft_w || !q->ft_b || !q->out_w || !q->out_b) {
        train_quant_free(q);
        return false;
    }
    const float *p = net->params;
    for (size_t i = 0; i < ft; i++)
        q->ft_w[i] = to_i16((double)p[net->ft_w + i] * NNUE_QA, &q->saturated);
    for (size_t i = 0; i < H; i++)
        q->ft_b[i] = to_i16((double)p[net->ft_b + i] * NNUE_QA, &q->saturated);
    for (size_t i = 0; i < O * 2 * H; i++)
        q->out_w[i] = to_i16((double)p[net->out_w + i] * NNUE_QB, &q->saturated);
    for (size_t i = 0; i < O; i++) {
        double b = round((double)p[net->out_b + i] * NNUE_QA * NNUE_QB);
        if (b > INT32_MAX || b < INT32_MIN) q->saturated++;
        q->out_b[i] = (int32_t)(b > INT32_MAX ? INT32_MAX : b < INT32_MIN ? INT32_MIN : b);
    }
    return true;
}

void train_quant_free(QuantNet *q) {
    free(q->ft_w);
    free(q->ft_b);
    free(q->out_w);
    free(q->out_b);
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

bool train_quant_write(const QuantNet *q, const char *path, uint32_t *hash, char *err, size_t errlen) {
    size_t H = (size_t)q->hidden, O = (size_t)q->out_buckets;
    size_t payload = nnue_payload_size(q->feature_set, q->hidden, q->out_buckets);
    unsigned char *buf = malloc(NNUE_HEADER_SIZE + payload);
    if (!buf) {
        snprintf(err, errlen, "out of memory writing '%.200s'", path);
        return false;
    }
    unsigned char *p = buf + NNUE_HEADER_SIZE;
    p = put_i16s(p, q->ft_w, (size_t)q->inputs * H);
    p = put_i16s(p, q->ft_b, H);
    p = put_i16s(p, q->out_w, O * 2 * H);
    for (size_t i = 0; i < O; i++, p += 4)
        put_u32(p, (uint32_t)q->out_b[i]);
    uint32_t h = nnue_fnv1a(NNUE_FNV_SEED, buf + NNUE_HEADER_SIZE, payload);
    memcpy(buf, NNUE_MAGIC, 8);
    const uint32_t fields[8] = {NNUE_VERSION,
                                (uint32_t)q->feature_set,
                                (uint32_t)q->hidden,
                                (uint32_t)q->out_buckets,
                                NNUE_QA,
                                NNUE_QB,
                                (uint32_t)q->scale,
                                h};
    for (int i = 0; i < 8; i++)
        put_u32(buf + 8 + 4 * i, fields[i]);
    /* Write beside the target and rename: a reader never sees half a net. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, NNUE_HEADER_SIZE + payload, f) == NNUE_HEADER_SIZE + payload;
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

int train_quant_eval(const QuantNet *q, const TrainPosition *p) {
    int16_t acc[COLOR_NB][NNUE_HIDDEN_MAX];
    Square king[COLOR_NB];
    train_position_kings(p, king);
    accumulate(q, p, king, p->stm, acc[0]);
    accumulate(q, p, king, (Color)!p->stm, acc[1]);
    int bucket = nnue_output_bucket(p->count, q->out_buckets);
    const int16_t *w = q->out_w + (size_t)bucket * 2 * (size_t)q->hidden;
    uint32_t sum = 0; /* int32 with wraparound */
    for (int half = 0; half < 2; half++)
        for (int j = 0; j < q->hidden; j++) {
            int a = acc[half][j], v = a < 0 ? 0 : a > NNUE_QA ? NNUE_QA : a;
            int16_t vw = (int16_t)(uint16_t)(unsigned)(v * w[half * q->hidden + j]);
            sum += (uint32_t)(vw * v);
        }
    int64_t eval = nnue_output_scale((int32_t)sum, q->out_b[bucket], q->scale);
    return (int)(eval > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : eval < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : eval);
}
