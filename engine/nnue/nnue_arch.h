// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The network architecture, shared by the engine (engine/nnue) and the
 * trainer (bench/nnue); docs/nnue.md explains it.
 *
 *   inputs (sparse, per perspective) -> accumulator of H int16 units
 *   -> SCReLU, both perspectives (side to move first) -> 2H
 *   -> one of O output buckets (by piece count) -> eval
 *
 * Version 2 nets may put a small dense stack between the two (below);
 * version 3 nets sum the stack's eval and the version-1 output layer's.
 *
 * Net file (little-endian):
 *
 *   offset  size  field
 *        0     8  magic "TUONGNN1"
 *        8     4  version (1: no dense stack; 2: with one; 3: stack + skip)
 *       12     4  feature set (NNUE_FS_PLAIN or NNUE_FS_KING_BUCKETS)
 *       16     4  H, accumulator units (128..1024, a multiple of 32)
 *       20     4  O, output buckets (1 or 8)
 *       24     4  QA (255)
 *       28     4  QB (64)
 *       32     4  SCALE (eval = float output * SCALE)
 *       36     4  FNV-1a hash of the payload
 *       40        version 1 payload: int16 ft weights [inputs][H], int16 ft
 *                 bias [H], int16 out weights [O][2H], int32 out bias [O]
 *
 * Version 2 (the dense stack, one per output bucket):
 *
 *       40     4  L1 (NNUE_L1), units of the first dense layer
 *       44     4  L2 (NNUE_L2), units of the second
 *       48        payload: int16 ft weights [inputs][H], int16 ft bias [H],
 *                 then for each output bucket: int8 l1 weights [L1][2H],
 *                 int32 l1 bias [L1], int8 l2 weights [L2][L1], int32 l2
 *                 bias [L2], int8 l3 weights [L2], int32 l3 bias
 *
 *   u  = (clamp(acc, 0, QA)^2 + 256) >> 9     0..127, both halves: 2H values
 *   h1 = crelu(l1 bias + l1 weights . u)      L1 values
 *   h2 = crelu(l2 bias + l2 weights . h1)     L2 values
 *   eval = (l3 bias + l3 weights . h2) * SCALE / (QH * QW)
 *
 * where crelu(x) = clamp((max(x, 0) + 32) >> 6, 0, QH): float 1.0 = QH for
 * u, h1, h2, float 1.0 = QW for the int8 weights, and each bias is at the
 * scale of its sum (QH * QW). No step can overflow or wrap.
 *
 * Version 3 (the stack with a skip: the version-1 output layer beside it):
 * the version-2 header and payload (version field 3), then the version-1
 * output layer: int16 out weights [O][2H], int32 out bias [O]. eval = the
 * output layer's eval + the stack's eval, each computed exactly as in a
 * version-1 and a version-2 net (int64, engine units), then clamped. A
 * version-1 net is a version-3 net whose stack has l3 weights and bias 0:
 * that is how a stack is warm-started without losing the output layer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    NNUE_VERSION = 1,       /* no dense stack */
    NNUE_VERSION_STACK = 2, /* with the dense stack */
    NNUE_VERSION_SKIP = 3,  /* the dense stack plus the version-1 output layer (the skip) */
    NNUE_HEADER_SIZE = 40,
    NNUE_HEADER_SIZE_STACK = 48,
    NNUE_L1 = 16, /* the stack's shape is fixed: its kernels are unrolled for it */
    NNUE_L2 = 32,
    NNUE_QH = 127,      /* the stack's activations: float 1.0 = 127 */
    NNUE_QW = 64,       /* the stack's int8 weights: float 1.0 = 64 */
    NNUE_QW_SHIFT = 6,  /* log2(NNUE_QW) */
    NNUE_SQR_SHIFT = 9, /* clamp(acc)^2 >> 9: 255^2 -> 127 */
    /* The stack's biases stay within +-2^30: with a layer's sum of at most
     * 2048 * 127 * 128 < 2^25 no int32 sum can overflow. */
    NNUE_STACK_BIAS_MAX = 1 << 30,
    NNUE_FS_PLAIN = 0,        /* piece x point */
    NNUE_FS_KING_BUCKETS = 1, /* piece x point x own king's palace point, file-mirrored */
    NNUE_FS_NB = 2,
    NNUE_PIECE_INDEX_NB = 14, /* own K..P, then the opponent's */
    NNUE_KING_BUCKET_NB = 6,  /* 3 palace ranks x 2 files once mirrored */
    NNUE_HIDDEN_MIN = 128,
    NNUE_HIDDEN_MAX = 1024,
    NNUE_HIDDEN_STEP = 32,
    NNUE_OUT_BUCKETS_MAX = 8,
    NNUE_QA = 255, /* accumulator scale: float 1.0 = 255 */
    NNUE_QB = 64,  /* output weight scale */
    NNUE_SCALE_MIN = 1,
    NNUE_SCALE_MAX = 10000,
    NNUE_SCALE_DEFAULT = 400,
    NNUE_MAX_PIECES = 32,
    NNUE_EVAL_LIMIT = 9000, /* evals are clamped to +-this, far from mate scores */
};

#define NNUE_MAGIC "TUONGNN1"

/* Inputs per perspective of a feature set. */
static inline int nnue_input_count(int feature_set) {
    return (feature_set == NNUE_FS_KING_BUCKETS ? NNUE_KING_BUCKET_NB : 1) * NNUE_PIECE_INDEX_NB * 90;
}

/* Bytes of one output bucket's dense stack in a version-2 file. */
static inline size_t nnue_stack_bytes(int hidden) {
    return (size_t)NNUE_L1 * 2 * (size_t)hidden + 4 * NNUE_L1 + NNUE_L2 * NNUE_L1 + 4 * NNUE_L2 + NNUE_L2 + 4;
}

/* Bytes of the version-1 output layer: int16 weights [O][2H], int32 bias [O]. */
static inline size_t nnue_output_layer_bytes(int hidden, int out_buckets) {
    return (size_t)out_buckets * (2 * (size_t)hidden * 2 + 4);
}

/* Bytes of the payload after the header (`stack`: a version-2 net). */
static inline size_t nnue_payload_bytes(int feature_set, int hidden, int out_buckets, bool stack) {
    size_t ft = (size_t)nnue_input_count(feature_set) * (size_t)hidden * 2 + (size_t)hidden * 2;
    return ft + (stack ? (size_t)out_buckets * nnue_stack_bytes(hidden) : nnue_output_layer_bytes(hidden, out_buckets));
}

/* Bytes of the payload of a net of any version (1, 2 or 3). */
static inline size_t nnue_payload_bytes_v(int feature_set, int hidden, int out_buckets, int version) {
    size_t bytes = nnue_payload_bytes(feature_set, hidden, out_buckets, version != NNUE_VERSION);
    return bytes + (version == NNUE_VERSION_SKIP ? nnue_output_layer_bytes(hidden, out_buckets) : 0);
}

/* Bytes of the header of a net of this version (the stack's adds its shape). */
static inline size_t nnue_header_bytes(int version) {
    return version == NNUE_VERSION ? NNUE_HEADER_SIZE : NNUE_HEADER_SIZE_STACK;
}

/* Bytes of a version-1 payload. */
static inline size_t nnue_payload_size(int feature_set, int hidden, int out_buckets) {
    return nnue_payload_bytes(feature_set, hidden, out_buckets, false);
}

/* The stack's clipped ReLU: an int32 sum at scale QH * QW to 0..QH. */
static inline int nnue_crelu(int32_t x) {
    int v = x <= 0 ? 0 : (int)(((int64_t)x + (NNUE_QW >> 1)) >> NNUE_QW_SHIFT);
    return v > NNUE_QH ? NNUE_QH : v;
}

/* The squared clipped accumulator unit fed to the stack: 0..QH. */
static inline int nnue_sqr_unit(int acc) {
    int v = acc < 0 ? 0 : acc > NNUE_QA ? NNUE_QA : acc;
    return (v * v + (1 << (NNUE_SQR_SHIFT - 1))) >> NNUE_SQR_SHIFT;
}

/* The stack's final step: eval from the l3 sum (bias included). */
static inline int64_t nnue_stack_scale(int32_t sum, int scale) { return (int64_t)sum * scale / (NNUE_QH * NNUE_QW); }

/* Output bucket of a position with `pieces` pieces on the board (2..32). */
static inline int nnue_output_bucket(int pieces, int out_buckets) {
    int b = (pieces - 2) * out_buckets / 31;
    return b < 0 ? 0 : b > out_buckets - 1 ? out_buckets - 1 : b;
}

/* The final integer step shared by engine and trainer: `sum` is the wrapped
 * int32 sum of v*w*v over both halves, bias the bucket's int32 bias. */
static inline int64_t nnue_output_scale(int32_t sum, int32_t bias, int scale) {
    return ((int64_t)(sum / NNUE_QA) + bias) * scale / (NNUE_QA * NNUE_QB);
}

/* FNV-1a, 32 bits: the payload hash of a net file. */
static inline uint32_t nnue_fnv1a(uint32_t h, const unsigned char *data, size_t n) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}
#define NNUE_FNV_SEED 2166136261u
