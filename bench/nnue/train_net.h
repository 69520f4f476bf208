// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The float network of the trainer, its forward and backward passes for
 * one position, and the loss. Same architecture as the engine's
 * (engine/nnue/nnue_arch.h) in float units: accumulator 1.0 = QA, eval =
 * output * SCALE; without the dense stack the output weight 1.0 = QB, with
 * it the stack's activations 1.0 = QH and its weights 1.0 = QW.
 *
 * All parameters live in one float array (gradients and Adam moments use
 * the same layout):
 *
 *   ft weights [inputs][H], ft bias [H], then the head:
 *   no stack:  out weights [O][2H] (side to move's half first), out bias [O]
 *   stack:     l1 weights [O][L1][2H], l1 bias [O][L1], l2 weights
 *              [O][L2][L1], l2 bias [O][L2], l3 weights [O][L2], l3 bias [O]
 *   skip:      the output layer's, then the stack's (eval = the sum of both)
 *   then, factorised king buckets only: the factor block [14 * 90][H]
 *
 * The factoriser: with king buckets every piece-on-point input of a bucket
 * also feeds a shared piece x point row, so every position trains the row
 * that all buckets use, not only its own bucket's. The passes use the
 * effective weights (bucket row + factor row, kept in `ft_eff` and rebuilt
 * after every step); the factor row's gradient is the sum of its buckets'.
 * The exported net holds the effective weights: the engine never sees the
 * factor.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue/nnue_arch.h"
#include "train_data.h"

/* Weights that the engine stores in 8 or 16 bits at scale 64 (QB = QW) stay
 * within +-CLIP: 255 * 127 < 32768 (the output layer's madd trick), and
 * int8 holds 127. */
#define TRAIN_OUT_CLIP (127.0f / NNUE_QB)
/* Feature transformer weights and biases stay within what int16 holds. */
#define TRAIN_FT_CLIP (32767.0f / NNUE_QA)

enum { TRAIN_FACTOR_ROWS = NNUE_PIECE_INDEX_NB * 90 };

typedef struct {
    int feature_set, inputs, hidden, out_buckets, scale;
    bool stack;      /* the dense 16-32 stack (a version-2 net) */
    bool skip;       /* stack + the output layer beside it, evals summed (a version-3 net) */
    bool factorised; /* king buckets with the shared factor block */
    size_t count;    /* parameters */
    float *params;
    /* Offsets of the tensors in params (those of the other head are 0). */
    size_t ft_w, ft_b, out_w, out_b;
    size_t l1_w, l1_b, l2_w, l2_b, l3_w, l3_b;
    size_t head, head_end; /* the head's range: [head, head_end) */
    /* The part of the head a warm start adds, the range --head-epochs trains
     * alone: [fresh, head_end), the stack of a skip net, else the whole head. */
    size_t fresh;
    size_t fac_w; /* factor block (factorised), else == count */
    /* The ft weights the passes read: params + ft_w, or the effective
     * weights of a factorised net. */
    float *ft_eff;
    /* Quantisation-aware training: when set, the passes use this copy of the
     * head ([head, head_end), its weights rounded to the 1/64 grid) instead
     * of the params', and the gradient goes to the params unchanged
     * (straight-through). NULL: plain float training. */
    const float *head_q;
} TrainNet;

/* Active features of one position, both perspectives. */
typedef struct {
    int count;
    Color stm;
    int bucket; /* output bucket */
    int32_t feature[COLOR_NB][TRAIN_MAX_PIECES];
} TrainFeatures;

/* What the forward pass keeps for the backward pass. */
typedef struct {
    float acc[2 * NNUE_HIDDEN_MAX]; /* train_forward: side to move's accumulator, then the other's */
    float u[2 * NNUE_HIDDEN_MAX];   /* stack: clamp(acc)^2 */
    float o1[NNUE_L1], h1[NNUE_L1]; /* stack: first layer's sums and activations */
    float o2[NNUE_L2], h2[NNUE_L2];
} TrainActs;

/* The shape of a net (skip: with stack, a version-3 net). */
typedef struct {
    int feature_set, hidden, out_buckets, scale;
    bool stack, factorised, skip;
} TrainShape;

/* Allocate a net of this shape (parameters zero); false if the shape is
 * not one the engine reads or memory is short. */
bool train_net_alloc(TrainNet *net, const TrainShape *shape, char *err, size_t errlen);
void train_net_free(TrainNet *net);
/* Seeded small uniform weights, zero biases (a factorised net starts with
 * zero bucket rows: a plain net in disguise). */
void train_net_randomise(TrainNet *net, uint64_t seed);
/* Clip every parameter of [begin, end) into the range quantisation needs. */
void train_net_clip(TrainNet *net, size_t begin, size_t end);
/* The clip bound of parameter i (INFINITY: not clipped), the same for all
 * parameters up to *span_end. */
float train_net_clip_span(const TrainNet *net, size_t i, size_t *span_end);
/* Is parameter i one the engine stores at scale 64 (clipped, rounded by QAT)? */
bool train_net_is_q64(const TrainNet *net, size_t i);
/* The head with its scale-64 weights rounded to the grid, into out
 * (head_end - head floats). */
void train_net_round_head(const TrainNet *net, float *out);
/* Rebuild the effective ft rows [row_begin, row_end) of a factorised net
 * (no-op otherwise). */
void train_net_refresh_eff(TrainNet *net, size_t row_begin, size_t row_end);
/* Fold a factorised net's ft gradient into its factor rows
 * [row_begin, row_end): factor row r gets the sum over threads and buckets. */
void train_net_fold_factor_grad(const TrainNet *net, float *const *grads, int n_grads, size_t row_begin,
                                size_t row_end);

/* The features of p for net (mirrored left-right when mirror is set). */
void train_features(const TrainNet *net, const TrainPosition *p, bool mirror, TrainFeatures *f);
/* The passes in two halves, for a chunk of positions at a time
 * (train_batch): the feature transformer of positions f[0..n) into acc
 * (2H floats a position, side to move's half first), and back from d_acc
 * (laid out the same) into grad's ft rows and biases. When a 32-unit block
 * of all the rows fits TRAIN_BLOCK_MAJOR_BYTES (plain features) they walk
 * the units a block at a time through all n positions, so that a block of
 * the rows the chunk shares is read from memory once and then from cache;
 * every sum is taken in the same order as for one position at a time. */
enum { TRAIN_BLOCK_MAJOR_BYTES = 256 << 10 }; /* half the per-core L2 of the machine measured */
void train_ft_forward(const TrainNet *net, const TrainFeatures *f, int n, float *acc);
void train_ft_backward(const TrainNet *net, const TrainFeatures *f, int n, const float *d_acc, float *grad,
                       int32_t *scratch);
/* The int32s of scratch train_ft_backward needs for n positions. */
size_t train_ft_scratch_ints(const TrainNet *net, int n);
/* The head (output layer or dense stack) of output bucket `bucket` on one
 * accumulator: the eval in engine units, a keeping what the backward pass
 * needs; and backwards for d(loss)/d(eval) = g, the head's gradient into
 * grad and d(loss)/d(acc) into d_acc (2H floats). l2t: the stack's
 * second-layer weights transposed (train_stack_l2_transpose), or NULL to
 * read them row by row: the same floats bit for bit, the transposed ones
 * in a fifth of the instructions (a chunk's positions share one copy). */
float train_head_forward(const TrainNet *net, int bucket, const float *acc, TrainActs *a, const float *l2t);
/* The stack's second-layer weights of every output bucket, as the passes
 * read them (head_q when set), transposed into l2t (out_buckets x NNUE_L1
 * x NNUE_L2 floats: the 32 units of one input side by side). */
enum { TRAIN_L2T_FLOATS = NNUE_OUT_BUCKETS_MAX * NNUE_L1 * NNUE_L2 };
void train_stack_l2_transpose(const TrainNet *net, float *l2t);
void train_head_backward(const TrainNet *net, int bucket, const float *acc, const TrainActs *a, float g, float *grad,
                         float *d_acc, float *d_l1);
/* The dense stack's first-layer weights take the most stores of the head:
 * a row of 2H floats for every live unit of every position. With d_l1 set,
 * train_head_backward leaves them out and writes the position's NNUE_L1
 * first-layer gradients there (0 for units that pass none), and
 * train_stack_l1_grad adds them for a chunk of n positions (d_l1 and u,
 * the positions' a->u, n x NNUE_L1 and n x 2H), each row held in registers
 * through its positions: the same sums in the same order. scratch:
 * 2 * NNUE_L1 * n int32s (train_ft_scratch_ints(net, n) is more); n at most
 * TRAIN_STACK_CHUNK_MAX. */
enum { TRAIN_STACK_CHUNK_MAX = 1024 };
void train_stack_l1_grad(const TrainNet *net, const TrainFeatures *f, int n, const float *d_l1, const float *u,
                         float *grad, int32_t *scratch);

/* Forward pass: the eval in engine units (side to move's view). */
float train_forward(const TrainNet *net, const TrainFeatures *f, TrainActs *a);
/* Backward pass: add d(loss)/d(params) to grad for d(loss)/d(eval) = g
 * (the ft part at the rows of the effective weights). */
void train_backward(const TrainNet *net, const TrainFeatures *f, const TrainActs *a, float g, float *grad);

typedef struct {
    double k;      /* sigmoid scale in engine units: p = sigma(eval / k) */
    double lambda; /* weight of the search score against the game result */
    double power;  /* loss = |p - target| ^ power */
} TrainLoss;

/* Target of a position: lambda * sigma(score / k) + (1 - lambda) * result / 2. */
double train_target(const TrainLoss *loss, const TrainPosition *p);
/* Loss of one eval against a target, and its derivative by eval in *grad. */
double train_loss(const TrainLoss *loss, double eval, double target, double *grad);
