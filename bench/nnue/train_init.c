// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_init.h"

#include <stdio.h>
#include <string.h>

/* Engine weight (output j, input i) of a stack layer with n outputs: the
 * kernels' input-pair layout (nnue_net.h). */
static float dense_weight(const int16_t *w, int n, int j, int i) {
    return (float)w[((size_t)(i / 2) * (size_t)n + (size_t)j) * 2 + (size_t)(i % 2)] / NNUE_QW;
}

/* Where the source's head input i (0..2 * src_hidden: its side-to-move
 * half, then the other half) sits in the target's 2 * hidden inputs: the
 * same unit of the same half. The other half starts at `hidden` in the
 * target, so a widened net's second half shifts by hidden - src_hidden;
 * inputs src_hidden..hidden of each half are the new units. */
static size_t widen_index(size_t i, size_t src_hidden, size_t hidden) {
    return i < src_hidden ? i : hidden + (i - src_hidden);
}

/* A target head row of 2 * hidden inputs before the source's weights
 * land in it: every input that reads a new unit set to exactly 0, so that
 * the new units add nothing to the eval however large their activations
 * (the source's evals stay exact), while their own gradients, activation
 * times the error, are not 0: training can start to use them. */
static float *clear_row(float *row, const TrainNet *net) {
    memset(row, 0, sizeof(float) * 2 * (size_t)net->hidden);
    return row;
}

static void copy_stack(TrainNet *net, const NnueNet *src) {
    const size_t H = (size_t)net->hidden, H2 = 2 * H, Hs = (size_t)src->hidden;
    float *p = net->params;
    const float bias_unit = (float)NNUE_QH * NNUE_QW;
    for (int o = 0; o < net->out_buckets; o++) {
        const NnueDense *d = &src->dense[o];
        for (int j = 0; j < NNUE_L1; j++) {
            float *row = clear_row(p + net->l1_w + ((size_t)o * NNUE_L1 + (size_t)j) * H2, net);
            for (size_t i = 0; i < 2 * Hs; i++)
                row[widen_index(i, Hs, H)] = dense_weight(d->l1_w, NNUE_L1, j, (int)i);
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
    const size_t H = (size_t)net->hidden, Hs = (size_t)src->hidden;
    for (int o = 0; o < net->out_buckets; o++) {
        float *row = clear_row(net->params + net->out_w + (size_t)o * 2 * H, net);
        const int16_t *w = src->out_weights + (size_t)o * 2 * Hs;
        for (size_t i = 0; i < 2 * Hs; i++)
            row[widen_index(i, Hs, H)] = (float)w[i] / NNUE_QB;
        net->params[net->out_b + (size_t)o] = (float)src->out_bias[o] / ((float)NNUE_QA * NNUE_QB);
    }
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

/* The feature transformer: the source's units into the first src->hidden
 * units of every target row (for a factorised target from a plain source:
 * into the factor block, its bucket rows 0) and of the bias. A widened
 * target's new units keep what the seeded init gave them (small random
 * weights, bias 0), so that they are alive and get gradients as soon as
 * the head reads them. */
static void copy_ft(TrainNet *net, const NnueNet *src) {
    const size_t H = (size_t)net->hidden, Hs = (size_t)src->hidden;
    const size_t src_rows = (size_t)src->inputs, rows = (size_t)net->inputs;
    float *p = net->params;
    /* Every ft row: the bucket rows, then (factorised, plain source) the factor block. */
    const bool into_factor = net->factorised && src->feature_set == NNUE_FS_PLAIN;
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < Hs; j++)
            p[net->ft_w + r * H + j] = into_factor ? 0.0f : (float)src->ft_weights[(r % src_rows) * Hs + j] / NNUE_QA;
    if (net->factorised) {
        for (size_t r = 0; r < TRAIN_FACTOR_ROWS; r++)
            for (size_t j = 0; j < Hs; j++)
                p[net->fac_w + r * H + j] = into_factor ? (float)src->ft_weights[r * Hs + j] / NNUE_QA : 0.0f;
        train_net_refresh_eff(net, 0, rows);
    }
    for (size_t j = 0; j < Hs; j++)
        p[net->ft_b + j] = (float)src->ft_bias[j] / NNUE_QA;
}

bool train_net_init_from(TrainNet *net, const NnueNet *src, TrainInitReport *report, char *err, size_t errlen) {
    memset(report, 0, sizeof *report);
    if (src->hidden > net->hidden) {
        snprintf(err, errlen,
                 "the starting net has %d units, the run trains %d: a warm start can widen a net, not narrow it "
                 "(--hidden %d or more)",
                 src->hidden, net->hidden, src->hidden);
        return false;
    }
    if (src->feature_set == NNUE_FS_KING_BUCKETS && net->feature_set == NNUE_FS_PLAIN) {
        snprintf(err, errlen, "the starting net has king buckets, the run trains plain features");
        return false;
    }
    if (src->hidden < net->hidden) report->widened_from = src->hidden;
    copy_ft(net, src);
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
