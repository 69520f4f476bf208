// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* A network in memory, and its file format's reader and validator
 * (the layout is drawn in nnue_arch.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue_arch.h"

typedef struct {
    int feature_set, inputs, hidden, out_buckets, scale;
    uint32_t hash;
    int16_t *ft_weights;  /* [inputs][hidden] */
    int16_t *ft_bias;     /* [hidden] */
    int16_t *out_weights; /* [out_buckets][2 * hidden]: side to move's half first */
    int32_t *out_bias;    /* [out_buckets] */
    void *memory;         /* one 64-byte aligned block holding the four tensors */
} NnueNet;

/* Parse and validate a whole net file held in memory; on failure err says
 * what is wrong and net is left empty. */
bool nnue_net_parse(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t errlen);
/* Read and parse a net file. */
bool nnue_net_read_file(NnueNet *net, const char *path, char *err, size_t errlen);
/* Release the tensors (net becomes empty; freeing an empty net is fine). */
void nnue_net_free(NnueNet *net);
/* One-line description: "1a2b3c4d (king buckets, 256 units, 8 output buckets)". */
void nnue_net_describe(const NnueNet *net, char *out, size_t size);
