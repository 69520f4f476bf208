// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Quantisation of a float net to the engine's integer format, the net file
 * writer, and the trainer's own integer forward pass (written from the
 * quantised tensors alone, to be checked against the engine's evaluate()).
 *
 *   ft weight, ft bias  round(x * QA)         int16 (a factorised net's
 *                                             effective weights)
 *   no stack (version 1):
 *   out weight          round(x * QB)         int16 (|x| <= 127/64)
 *   out bias            round(x * QA * QB)    int32
 *   stack (version 2):
 *   l1, l2, l3 weights  round(x * QW)         int8 (|x| <= 127/64)
 *   l1, l2, l3 biases   round(x * QH * QW)    int32
 *   stack + skip (version 3): both of the above, each as in its version
 */
#include <stdbool.h>
#include <stdint.h>

#include "train_net.h"

typedef struct {
    int feature_set, inputs, hidden, out_buckets, scale;
    bool stack, skip;             /* skip: with stack, the output layer too (version 3) */
    int16_t *ft_w, *ft_b, *out_w; /* out_w [O][2H] and out_b [O]: no stack, or skip */
    int32_t *out_b;
    /* The stack, per output bucket, in file order: l1_w [O][L1][2H], l1_b
     * [O][L1], l2_w [O][L2][L1], l2_b [O][L2], l3_w [O][L2], l3_b [O]. */
    int8_t *l1_w, *l2_w, *l3_w;
    int32_t *l1_b, *l2_b, *l3_b;
    size_t saturated; /* values clamped to the integer range */
} QuantNet;

/* Quantise net (allocates q). */
bool train_quantise(const TrainNet *net, QuantNet *q);
void train_quant_free(QuantNet *q);
/* Write q as a net file the engine loads; the payload hash in *hash. */
bool train_quant_write(const QuantNet *q, const char *path, uint32_t *hash, char *err, size_t errlen);
/* The engine's integer evaluation of p (side to move's view, engine units,
 * clamped like the engine). */
int train_quant_eval(const QuantNet *q, const TrainPosition *p);
