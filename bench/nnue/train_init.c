// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_init.h"

#include <stdio.h>
#include <string.h>

/* Engine weight (output j, input i) of a stack layer with n outputs: the
 * kernels' input-pair layout (nnue_net.h). */
static float dense_weight(const int16_t *w, int n, int j, int i) {
    return (float)w[((size_t)(i / 2) * (size_t)n + (size_t)j) * 2 + (size_t)(i % 2)] / NNUE_QW;
}

static void copy_stack(TrainNet *net, const NnueNet *src) {
    const size_t H2 = 2 * (size_t)net->hidden;
    float *p = net->params;
    const float bias_unit = (float)NNUE_QH * NNUE_QW;
    for (int o = 0; o < net->out_buckets; o++) {
        const NnueDense *d = &src->dense[o];
        for (int j = 0; j < NNUE_L1; j++) {
            for (size_t i = 0; i < H2; i++)
                p[net->l1_w + ((size_t)o * NNUE_L1 + (size_t)j) * H2 + i] = dense_weight(d->l1_w, NNUE_L1, j, (int)i);
            p[net->l1_b + (size_t)o * NNUE_L1 + (size_t)j] = (float)d->l1_b[j] / bias_unit;
        }
        for (int j = 0; j < NNUE_L2; j++) {
            for (int i = 0; i < NNUE_L1; i++)
                p[net->l2_w + ((size_t)o * NNUE_L2 + (size_t)j) * NNUE_L1 + (size_t)i] =
                    dense_weight(d->l2_w, NNUE_L2, j, i);
            p[net->l2_b + (size_t)o * NNUE_L2 + (size_t)j] = (float)d->l2_b[j] / bias_unit;
            p[net->l3_w + (size_t)o * NNUE_L2 + (size_t)j] = (float)d->l3_w[j] / NNUE_QW;
        }
        p[net->l3_b + (size_t)o] = (float)d->l3_b / bias_unit;
    }
}

static void copy_output_layer(TrainNet *net, const NnueNet *src) {
    const size_t n = (size_t)net->out_buckets * 2 * (size_t)net->hidden;
    for (size_t i = 0; i < n; i++)
        net->params[net->out_w + i] = (float)src->out_weights[i] / NNUE_QB;
    for (int o = 0; o < net->out_buckets; o++)
        net->params[net->out_b + (size_t)o] = (float)src->out_bias[o] / ((float)NNUE_QA * NNUE_QB);
}

/* A new stack beside an inherited output layer: its l3 weights and bias 0,
 * so it adds exactly 0 (l1 and l2 keep their random weights, so that the
 * l3 gradients are not all 0 and the stack can start learning). */
static void silence_stack(TrainNet *net) {
    memset(net->params + net->l3_w, 0, sizeof(float) * (size_t)net->out_buckets * NNUE_L2);
    memset(net->params + net->l3_b, 0, sizeof(float) * (size_t)net->out_buckets);
}

/* A new output layer beside an inherited stack: all 0, so it adds 0. */
static void silence_output_layer(TrainNet *net) {
    memset(net->params + net->out_w, 0, sizeof(float) * (net->l1_w - net->out_w));
}

bool train_net_init_from(TrainNet *net, const NnueNet *src, TrainInitReport *report, char *err, size_t errlen) {
    memset(report, 0, sizeof *report);
    if (src->hidden != net->hidden) {
        snprintf(err, errlen, "the starting net has %d units, the run trains %d", src->hidden, net->hidden);
        return false;
    }
    if (src->feature_set == NNUE_FS_KING_BUCKETS && net->feature_set == NNUE_FS_PLAIN) {
        snprintf(err, errlen, "the starting net has king buckets, the run trains plain features");
        return false;
    }
    const size_t H = (size_t)net->hidden, src_rows = (size_t)src->inputs, rows = (size_t)net->inputs;
    float *p = net->params;
    /* Every ft row: the bucket rows, then (factorised, plain source) the factor block. */
    const bool into_factor = net->factorised && src->feature_set == NNUE_FS_PLAIN;
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < H; j++)
            p[net->ft_w + r * H + j] = into_factor ? 0.0f : (float)src->ft_weights[(r % src_rows) * H + j] / NNUE_QA;
    if (net->factorised) {
        for (size_t r = 0; r < TRAIN_FACTOR_ROWS; r++)
            for (size_t j = 0; j < H; j++)
                p[net->fac_w + r * H + j] = into_factor ? (float)src->ft_weights[r * H + j] / NNUE_QA : 0.0f;
        train_net_refresh_eff(net, 0, rows);
    }
    for (size_t j = 0; j < H; j++)
        p[net->ft_b + j] = (float)src->ft_bias[j] / NNUE_QA;
    if (src->out_buckets != net->out_buckets || src->scale != net->scale) return true;
    const bool src_out = !src->stack || src->skip, net_out = !net->stack || net->skip;
    if (src->stack == net->stack && src->skip == net->skip) {
        report->head = true;
    } else if (net->skip) {
        report->output_layer = src_out; /* a version-1 source */
        report->stack = src->stack;     /* a version-2 source */
    } else {
        return true; /* another head: the target's stays random */
    }
    if (net->stack && src->stack) copy_stack(net, src);
    if (net_out && src_out) copy_output_layer(net, src);
    if (report->output_layer) silence_stack(net);
    if (report->stack) silence_output_layer(net);
    return true;
}
