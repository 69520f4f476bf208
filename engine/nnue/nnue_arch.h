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
 * Net file (little-endian):
 *
 *   offset  size  field
 *        0     8  magic "TUONGNN1"
 *        8     4  version (NNUE_VERSION)
 *       12     4  feature set (NNUE_FS_PLAIN or NNUE_FS_KING_BUCKETS)
 *       16     4  H, accumulator units (128..1024, a multiple of 32)
 *       20     4  O, output buckets (1 or 8)
 *       24     4  QA (255)
 *       28     4  QB (64)
 *       32     4  SCALE (eval = float output * SCALE)
 *       36     4  FNV-1a hash of the payload
 *       40        payload: int16 ft weights [inputs][H], int16 ft bias [H],
 *                 int16 out weights [O][2H], int32 out bias [O]
 */
#include <stddef.h>
#include <stdint.h>

enum {
    NNUE_VERSION = 1,
    NNUE_HEADER_SIZE = 40,
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

/* Bytes of the payload after the header. */
static inline size_t nnue_payload_size(int feature_set, int hidden, int out_buckets) {
    return (size_t)nnue_input_count(feature_set) * (size_t)hidden * 2 + (size_t)hidden * 2 +
           (size_t)out_buckets * 2 * (size_t)hidden * 2 + (size_t)out_buckets * 4;
}

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
