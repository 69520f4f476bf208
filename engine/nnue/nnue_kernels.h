// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The vector kernels of the inference: accumulator refresh and update, and
 * the SCReLU output dot product. nnue_kernels.c compiles one instruction
 * set, picked at build time from the compiler's target macros (__AVX2__,
 * then __SSE2__, with __SSSE3__ for the dense stack's byte quads, else
 * portable C); all paths give the same bits: int16 sums wrap, the int32
 * output sum wraps.
 *
 * This header has no include guard on purpose: the SIMD test compiles the
 * kernels several times with a NNUE_KERNEL_SUFFIX (e.g. _scalar) and
 * includes this header once per suffix to declare each copy.
 */
#include <stdint.h>

#include "nnue_net.h"

#ifndef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX
#endif
#define NNUE_CAT2(a, b) a##b
#define NNUE_CAT(a, b) NNUE_CAT2(a, b)
#undef NNUE_K
#define NNUE_K(name) NNUE_CAT(name, NNUE_KERNEL_SUFFIX)

/* acc = bias + the sum of n rows, H units each (H a multiple of 32). */
void NNUE_K(nnue_k_refresh)(int16_t *acc, const int16_t *bias, const int16_t *const *rows, int n, int H);
/* out = in + the sum of add rows - the sum of sub rows (out may be in). */
void NNUE_K(nnue_k_update)(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add,
                           const int16_t *const *sub, int n_sub, int H);
/* The wrapped int32 sum over both halves of clamp(a, 0, QA)^2 * w, computed
 * as (v * w) * v with v * w in int16: us against w[0..H), them against
 * w[H..2H). */
int32_t NNUE_K(nnue_k_output)(const int16_t *us, const int16_t *them, const int16_t *w, int H);
/* One output bucket's dense stack (version-2 nets, nnue_arch.h) on the two
 * accumulators: the l3 sum with its bias, at scale QH * QW. The first layer
 * skips the input pairs (SSSE3, AVX2: quads) that are zero (sparse: most
 * units are). */
int32_t NNUE_K(nnue_k_dense)(const int16_t *us, const int16_t *them, int H, const NnueDense *d);
/* The instruction set compiled: "avx2", "ssse3", "sse2" or "scalar". */
const char *NNUE_K(nnue_k_isa)(void);
