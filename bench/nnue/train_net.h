// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The float network of the trainer, its forward and backward passes for
 * one position, and the loss. Same architecture as the engine's
 * (engine/nnue/nnue_arch.h) in float units: accumulator 1.0 = QA, output
 * weight 1.0 = QB, eval = output * SCALE.
 *
 * All parameters live in one float array (gradients and Adam moments use
 * the same layout): ft weights [inputs][H], ft bias [H], out weights
 * [O][2H] (side to move's half first), out bias [O].
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue/nnue_arch.h"
#include "train_data.h"

/* Output weights are kept within +-OUT_CLIP so that an int16 clamp(acc) *
 * weight never overflows: 255 * 127 < 32768 (the engine's madd trick). */
#define TRAIN_OUT_CLIP (127.0f / NNUE_QB)
/* Feature transformer weights and biases stay within what int16 holds. */
#define TRAIN_FT_CLIP (32767.0f / NNUE_QA)

typedef struct {
    int feature_set, inputs, hidden, out_buckets, scale;
    size_t count; /* parameters */
    float *params;
    /* Offsets of the four tensors in params. */
    size_t ft_w, ft_b, out_w, out_b;
    /* Quantisation-aware training: when set, the forward and backward passes
     * use these output weights (the params' rounded to the QB grid) instead
     * of the params', and the gradient goes to the params unchanged
     * (straight-through). NULL: plain float training. */
    const float *out_q;
} TrainNet;

/* Active features of one position, both perspectives. */
typedef struct {
    int count;
    Color stm;
    int bucket; /* output bucket */
    int32_t feature[COLOR_NB][TRAIN_MAX_PIECES];
} TrainFeatures;

/* Allocate a net of this shape (parameters zero); false if the shape is
 * not one the engine reads or memory is short. */
bool train_net_alloc(TrainNet *net, int feature_set, int hidden, int out_buckets, int scale, char *err, size_t errlen);
void train_net_free(TrainNet *net);
/* Seeded small uniform weights, zero biases. */
void train_net_randomise(TrainNet *net, uint64_t seed);
/* Clip every parameter into the range quantisation needs. */
void train_net_clip(TrainNet *net, size_t begin, size_t end);
/* The output weights rounded to the QB grid, into out (O * 2H floats). */
void train_net_round_output(const TrainNet *net, float *out);

/* The features of p for net (mirrored left-right when mirror is set). */
void train_features(const TrainNet *net, const TrainPosition *p, bool mirror, TrainFeatures *f);
/* Forward pass: the eval in engine units (side to move's view). acc (2H
 * floats: side to move's accumulator, then the other) is kept for backward. */
float train_forward(const TrainNet *net, const TrainFeatures *f, float *acc);
/* Backward pass: add d(loss)/d(params) to grad for d(loss)/d(eval) = g. */
void train_backward(const TrainNet *net, const TrainFeatures *f, const float *acc, float g, float *grad);

typedef struct {
    double k;      /* sigmoid scale in engine units: p = sigma(eval / k) */
    double lambda; /* weight of the search score against the game result */
    double power;  /* loss = |p - target| ^ power */
} TrainLoss;

/* Target of a position: lambda * sigma(score / k) + (1 - lambda) * result / 2. */
double train_target(const TrainLoss *loss, const TrainPosition *p);
/* Loss of one eval against a target, and its derivative by eval in *grad. */
double train_loss(const TrainLoss *loss, double eval, double target, double *grad);
