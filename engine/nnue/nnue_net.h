// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* A network in memory, and its file format's reader and validator
 * (the layout is drawn in nnue_arch.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue_arch.h"

/* One output bucket's dense stack (version-2 nets), its int8 weights
 * widened to int16 and laid out in input pairs for the kernels: weight
 * (output j, input i) of a layer with N outputs is at ((i / 2) * N + j) * 2
 * + i % 2, so one 32-bit broadcast of inputs 2p, 2p + 1 meets N weight
 * pairs in a row (madd). The first layer is kept a second time as int8 in
 * input quads, ((i / 4) * NNUE_L1 + j) * 4 + i % 4: one 32-bit broadcast of
 * four byte inputs meets NNUE_L1 weight quads in a row (the SSSE3 and AVX2
 * kernels' maddubs; the scalar and SSE2 kernels read l1_w). */
typedef struct {
    const int16_t *l1_w; /* [H pairs][NNUE_L1][2] over the 2H inputs u */
    const int32_t *l1_b; /* [NNUE_L1] */
    const int16_t *l2_w; /* [NNUE_L1 / 2][NNUE_L2][2] */
    const int32_t *l2_b; /* [NNUE_L2] */
    const int16_t *l3_w; /* [NNUE_L2] */
    int32_t l3_b;
    const int8_t *l1_q; /* [H / 2 quads][NNUE_L1][4]: l1_w again, 64-byte aligned */
} NnueDense;

/* The first layer's quad copy (l1_q) from its pair layout (l1_w), 2H inputs. */
void nnue_dense_quads(int8_t *quads, const int16_t *pairs, int hidden);

typedef struct {
    int version; /* of the file: 1, 2 or 3 (nnue_arch.h) */
    int feature_set, inputs, hidden, out_buckets, scale;
    bool stack; /* versions 2 and 3: the dense stack */
    bool skip;  /* version 3: the output layer too, its eval added to the stack's */
    uint32_t hash;
    int16_t *ft_weights;  /* [inputs][hidden] */
    int16_t *ft_bias;     /* [hidden] */
    int16_t *out_weights; /* [out_buckets][2 * hidden]: side to move's half first (no stack, or skip) */
    int32_t *out_bias;    /* [out_buckets] (no stack, or skip) */
    NnueDense dense[NNUE_OUT_BUCKETS_MAX]; /* per output bucket (stack) */
    void *memory;                          /* one 64-byte aligned block holding the tensors */
} NnueNet;

/* Parse and validate a whole net file held in memory; on failure err says
 * what is wrong and net is left empty. */
bool nnue_net_parse(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t errlen);
/* Read and parse a net file. */
bool nnue_net_read_file(NnueNet *net, const char *path, char *err, size_t errlen);
/* Release the tensors (net becomes empty; freeing an empty net is fine). */
void nnue_net_free(NnueNet *net);
/* One-line description: "1a2b3c4d (king buckets, 256 units, 8 output buckets, scale 400)"; a
 * version-2 net adds "dense 16-32 stacks, ", a version-3 net "dense 16-32 stacks + skip, ". */
void nnue_net_describe(const NnueNet *net, char *out, size_t size);
