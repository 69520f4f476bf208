// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The trainer's inner loops in float: AVX2 + FMA intrinsics when the
 * compiler targets them (-march=native on a recent x86), portable C
 * otherwise (which compilers still vectorise with SSE), or when
 * TRAIN_FORCE_SCALAR is defined (tests/test_nnue_train_simd.c compares the
 * two). n is a multiple of 32 everywhere.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "train_alloc.h"
#if defined(__AVX2__) && defined(__FMA__) && !defined(TRAIN_FORCE_SCALAR)
#include <immintrin.h>
#define TRAIN_AVX2 1
#else
#define TRAIN_AVX2 0 /* also read in C expressions (train_batch.c), not only by #if */
#endif

/* dst += src */
static inline void train_add(float *restrict dst, const float *restrict src, int n) {
#if TRAIN_AVX2
    for (int i = 0; i < n; i += 16) {
        __m256 a = _mm256_add_ps(_mm256_loadu_ps(dst + i), _mm256_loadu_ps(src + i));
        __m256 b = _mm256_add_ps(_mm256_loadu_ps(dst + i + 8), _mm256_loadu_ps(src + i + 8));
        _mm256_storeu_ps(dst + i, a);
        _mm256_storeu_ps(dst + i + 8, b);
    }
#else
    for (int i = 0; i < n; i++)
        dst[i] += src[i];
#endif
}

/* The ft passes walk H (a multiple of 32) in blocks of TRAIN_BLOCK units
 * held in registers: 2 AVX-512 or 4 AVX2 registers, plain C otherwise. */
enum { TRAIN_BLOCK = 32 };
#if defined(__AVX512F__) && TRAIN_AVX2
#define TRAIN_AVX512 1
typedef __m512 TrainBlockVec;
enum { TRAIN_BLOCK_REGS = 2, TRAIN_BLOCK_LANES = 16 };
static inline TrainBlockVec tb_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void tb_store(float *p, TrainBlockVec v) { _mm512_storeu_ps(p, v); }
static inline TrainBlockVec tb_add(TrainBlockVec a, TrainBlockVec b) { return _mm512_add_ps(a, b); }
#elif TRAIN_AVX2
typedef __m256 TrainBlockVec;
enum { TRAIN_BLOCK_REGS = 4, TRAIN_BLOCK_LANES = 8 };
static inline TrainBlockVec tb_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void tb_store(float *p, TrainBlockVec v) { _mm256_storeu_ps(p, v); }
static inline TrainBlockVec tb_add(TrainBlockVec a, TrainBlockVec b) { return _mm256_add_ps(a, b); }
#endif

/* One block of one ft row: row[0..32) += d[at[j] + 0..32) for j in order,
 * the row held in registers meanwhile (one load and one store for all its
 * adds). */
static inline void train_gather_block(float *row, const int32_t *at, int n, const float *d) {
#if TRAIN_AVX2
    TrainBlockVec r[TRAIN_BLOCK_REGS];
    for (int k = 0; k < TRAIN_BLOCK_REGS; k++)
        r[k] = tb_load(row + TRAIN_BLOCK_LANES * k);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < TRAIN_BLOCK_REGS; k++)
            r[k] = tb_add(r[k], tb_load(d + at[j] + TRAIN_BLOCK_LANES * k));
    for (int k = 0; k < TRAIN_BLOCK_REGS; k++)
        tb_store(row + TRAIN_BLOCK_LANES * k, r[k]);
#else
    for (int i = 0; i < TRAIN_BLOCK; i++) {
        float a = row[i];
        for (int j = 0; j < n; j++)
            a += d[at[j] + i];
        row[i] = a;
    }
#endif
}

/* One block of a weight row: row[0..32) += d[j] * x[at[j] + 0..32) for j
 * in order (each step as train_axpy takes it), the row held in registers
 * meanwhile. */
static inline void train_axpy_gather_block(float *row, const float *d, const int32_t *at, int n, const float *x) {
#if TRAIN_AVX2
    __m256 r[4];
    for (int k = 0; k < 4; k++)
        r[k] = _mm256_loadu_ps(row + 8 * k);
    for (int j = 0; j < n; j++) {
        const __m256 a = _mm256_set1_ps(d[j]);
        for (int k = 0; k < 4; k++)
            r[k] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + at[j] + 8 * k), r[k]);
    }
    for (int k = 0; k < 4; k++)
        _mm256_storeu_ps(row + 8 * k, r[k]);
#else
    for (int i = 0; i < TRAIN_BLOCK; i++) {
        float a = row[i];
        for (int j = 0; j < n; j++)
            a += d[j] * x[at[j] + i];
        row[i] = a;
    }
#endif
}

/* train_axpy_gather_block on 64 floats: 8 registers of sums, each a chain
 * of dependent multiply-adds, where 4 chains left the adder waiting on its
 * latency. The same sums in the same order. */
static inline void train_axpy_gather_block64(float *row, const float *d, const int32_t *at, int n, const float *x) {
#if TRAIN_AVX2
    __m256 r[8];
    for (int k = 0; k < 8; k++)
        r[k] = _mm256_loadu_ps(row + 8 * k);
    for (int j = 0; j < n; j++) {
        const __m256 a = _mm256_set1_ps(d[j]);
        for (int k = 0; k < 8; k++)
            r[k] = _mm256_fmadd_ps(a, _mm256_loadu_ps(x + at[j] + 8 * k), r[k]);
    }
    for (int k = 0; k < 8; k++)
        _mm256_storeu_ps(row + 8 * k, r[k]);
#else
    train_axpy_gather_block(row, d, at, n, x);
    train_axpy_gather_block(row + TRAIN_BLOCK, d, at, n, x + TRAIN_BLOCK);
#endif
}

/* One block of both halves of an accumulator: dst[h][0..32) = bias[0..32)
 * + the sum of base[feature[h][j] * H + 0..32) over j (added in order),
 * for the two halves h, which have n features each. The two halves' sums
 * are interleaved: each is a chain of dependent adds, and two chains keep
 * the adder busy where one waits on its own latency. */
static inline void train_sum_block2(float *restrict dst0, float *restrict dst1, const float *restrict bias,
                                    const float *base, const int32_t *feature0, const int32_t *feature1, int n,
                                    size_t H) {
#if TRAIN_AVX2
    TrainBlockVec r0[TRAIN_BLOCK_REGS], r1[TRAIN_BLOCK_REGS];
    for (int k = 0; k < TRAIN_BLOCK_REGS; k++)
        r0[k] = r1[k] = tb_load(bias + TRAIN_BLOCK_LANES * k);
    for (int j = 0; j < n; j++) {
        const float *row0 = base + (size_t)feature0[j] * H, *row1 = base + (size_t)feature1[j] * H;
        for (int k = 0; k < TRAIN_BLOCK_REGS; k++) {
            r0[k] = tb_add(r0[k], tb_load(row0 + TRAIN_BLOCK_LANES * k));
            r1[k] = tb_add(r1[k], tb_load(row1 + TRAIN_BLOCK_LANES * k));
        }
    }
    for (int k = 0; k < TRAIN_BLOCK_REGS; k++) {
        tb_store(dst0 + TRAIN_BLOCK_LANES * k, r0[k]);
        tb_store(dst1 + TRAIN_BLOCK_LANES * k, r1[k]);
    }
#else
    for (int i = 0; i < TRAIN_BLOCK; i++) {
        float a0 = bias[i], a1 = bias[i];
        for (int j = 0; j < n; j++) {
            a0 += base[(size_t)feature0[j] * H + (size_t)i];
            a1 += base[(size_t)feature1[j] * H + (size_t)i];
        }
        dst0[i] = a0;
        dst1[i] = a1;
    }
#endif
}

/* dst += a * x */
static inline void train_axpy(float *restrict dst, float a, const float *restrict x, int n) {
#if TRAIN_AVX2
    const __m256 aa = _mm256_set1_ps(a);
    for (int i = 0; i < n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_fmadd_ps(aa, _mm256_loadu_ps(x + i), _mm256_loadu_ps(dst + i)));
#else
    for (int i = 0; i < n; i++)
        dst[i] += a * x[i];
#endif
}

/* sum of a * b (n a multiple of 16) */
static inline float train_dot(const float *restrict a, const float *restrict b, int n) {
#if TRAIN_AVX2
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 16) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
    }
    __m256 s = _mm256_add_ps(s0, s1);
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    x = _mm_add_ss(x, _mm_shuffle_ps(x, x, 1));
    return _mm_cvtss_f32(x);
#else
    float s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
#endif
}

/* The dense stack's second layer: out[k] = train_dot(w + 16 k, x, 16) for
 * the 32 rows k of w, bit for bit, from w transposed (wt[32 i + k] =
 * w[16 k + i]) so that the rows are the lanes: train_dot's 16 products and
 * its pairwise sums of them (lane l + lane l + 8, then + 4, + 2, + 1), 8
 * rows at a time, instead of a horizontal sum per row. */
static inline void train_dot16_t(const float *restrict wt, const float *restrict x, float *restrict out) {
#if TRAIN_AVX2
    const __m256 zero = _mm256_setzero_ps();
    for (int k = 0; k < 32; k += 8) {
        __m256 t[8];
        for (int l = 0; l < 8; l++) /* fma with 0 as train_dot's first step takes each product */
            t[l] = _mm256_add_ps(_mm256_fmadd_ps(_mm256_loadu_ps(wt + 32 * l + k), _mm256_set1_ps(x[l]), zero),
                                 _mm256_fmadd_ps(_mm256_loadu_ps(wt + 32 * (l + 8) + k), _mm256_set1_ps(x[l + 8]), zero));
        for (int m = 0; m < 4; m++)
            t[m] = _mm256_add_ps(t[m], t[m + 4]);
        const __m256 z0 = _mm256_add_ps(t[0], t[2]), z1 = _mm256_add_ps(t[1], t[3]);
        _mm256_storeu_ps(out + k, _mm256_add_ps(z0, z1));
    }
#else
    for (int k = 0; k < 32; k++) { /* close to train_dot's, not always bit for bit (see train_batch.c) */
        float row[16];
        for (int i = 0; i < 16; i++)
            row[i] = wt[32 * i + k];
        out[k] = train_dot(row, x, 16);
    }
#endif
}

/* u = clamp(acc, 0, 1)^2 */
static inline void train_sqr_clamp(float *restrict u, const float *restrict acc, int n) {
#if TRAIN_AVX2
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    for (int i = 0; i < n; i += 8) {
        __m256 v = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(acc + i), zero), one);
        _mm256_storeu_ps(u + i, _mm256_mul_ps(v, v));
    }
#else
    for (int i = 0; i < n; i++) {
        float v = acc[i] < 0.0f ? 0.0f : acc[i] > 1.0f ? 1.0f : acc[i];
        u[i] = v * v;
    }
#endif
}

/* out[r] = train_dot(w + r * n, x, n) for the 4 rows r, bit for bit: x is
 * read once for the four rows (the dense stack's first layer). */
static inline void train_dot4(const float *restrict w, const float *restrict x, int n, float out[4]) {
#if TRAIN_AVX2
    __m256 s[4][2];
    for (int r = 0; r < 4; r++)
        s[r][0] = s[r][1] = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 16) {
        __m256 x0 = _mm256_loadu_ps(x + i), x1 = _mm256_loadu_ps(x + i + 8);
        for (int r = 0; r < 4; r++) {
            s[r][0] = _mm256_fmadd_ps(_mm256_loadu_ps(w + (size_t)r * (size_t)n + i), x0, s[r][0]);
            s[r][1] = _mm256_fmadd_ps(_mm256_loadu_ps(w + (size_t)r * (size_t)n + i + 8), x1, s[r][1]);
        }
    }
    for (int r = 0; r < 4; r++) {
        __m256 t = _mm256_add_ps(s[r][0], s[r][1]);
        __m128 y = _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
        y = _mm_add_ps(y, _mm_movehl_ps(y, y));
        y = _mm_add_ss(y, _mm_shuffle_ps(y, y, 1));
        out[r] = _mm_cvtss_f32(y);
    }
#else
    for (int r = 0; r < 4; r++)
        out[r] = train_dot(w + (size_t)r * (size_t)n, x, n);
#endif
}

/* The dense stack's first layer backwards into the accumulator: with
 * d_u = sum over k of d[k] * w[rows[k]] (k in order, the rows n floats
 * apart), d_acc = 2 * acc * d_u where 0 < acc < 1, else 0. d_u is summed
 * in registers, a block of units at a time, instead of in memory. */
static inline void train_stack_d_acc(float *restrict d_acc, const float *restrict acc, const float *restrict w,
                                     const int *rows, const float *d, int m, int n) {
#if TRAIN_AVX2
    /* 64 units at a time: 8 chains of dependent multiply-adds keep the FMA
     * units busy where 4 waited on their latency (n is 2H, a multiple of 64). */
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f);
    for (int i = 0; i < n; i += 64) {
        __m256 s[8] = {zero, zero, zero, zero, zero, zero, zero, zero};
        for (int k = 0; k < m; k++) {
            const __m256 dk = _mm256_set1_ps(d[k]);
            const float *row = w + (size_t)rows[k] * (size_t)n + i;
            for (int b = 0; b < 8; b++)
                s[b] = _mm256_fmadd_ps(dk, _mm256_loadu_ps(row + 8 * b), s[b]);
        }
        for (int b = 0; b < 8; b++) {
            __m256 a = _mm256_loadu_ps(acc + i + 8 * b);
            __m256 inside = _mm256_and_ps(_mm256_cmp_ps(a, zero, _CMP_GT_OQ), _mm256_cmp_ps(a, one, _CMP_LT_OQ));
            _mm256_storeu_ps(d_acc + i + 8 * b, _mm256_and_ps(_mm256_mul_ps(_mm256_mul_ps(two, a), s[b]), inside));
        }
    }
#else
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += d[k] * w[(size_t)rows[k] * (size_t)n + i];
        d_acc[i] = acc[i] > 0.0f && acc[i] < 1.0f ? 2.0f * acc[i] * s : 0.0f;
    }
#endif
}

/* a * b + c, rounded once where the target has FMA: what GCC makes of
 * `c += a * b` when it contracts (-ffp-contract=fast, the GNU C default),
 * written out so that the sum no longer depends on where the compiler
 * chooses to contract (moving the stack's second layer out of its loop
 * once stopped it contracting the third, and the nets changed). */
static inline float train_fmaf(float a, float b, float c) {
#if defined(__FMA__)
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}

static inline float train_clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

/* sum of clamp(acc, 0, 1)^2 * w */
static inline float train_screlu_dot(const float *restrict acc, const float *restrict w, int n) {
#if TRAIN_AVX2
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    __m256 s0 = zero, s1 = zero;
    for (int i = 0; i < n; i += 16) {
        __m256 v0 = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(acc + i), zero), one);
        __m256 v1 = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(acc + i + 8), zero), one);
        s0 = _mm256_fmadd_ps(_mm256_mul_ps(v0, v0), _mm256_loadu_ps(w + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_mul_ps(v1, v1), _mm256_loadu_ps(w + i + 8), s1);
    }
    __m256 s = _mm256_add_ps(s0, s1);
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    x = _mm_add_ss(x, _mm_shuffle_ps(x, x, 1));
    return _mm_cvtss_f32(x);
#else
    float s = 0;
    for (int i = 0; i < n; i++) {
        float v = train_clamp01(acc[i]);
        s += v * v * w[i];
    }
    return s;
#endif
}

/* The SCReLU layer backwards for d(loss)/d(output) = g: gw += g * v^2 and
 * d_acc = g * 2v * w where 0 < acc < 1, else 0. */
static inline void train_screlu_backward(const float *restrict acc, const float *restrict w, float g,
                                         float *restrict gw, float *restrict d_acc, int n) {
#if TRAIN_AVX2
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), gg = _mm256_set1_ps(g),
                 g2 = _mm256_set1_ps(2.0f * g);
    for (int i = 0; i < n; i += 8) {
        __m256 a = _mm256_loadu_ps(acc + i);
        __m256 v = _mm256_min_ps(_mm256_max_ps(a, zero), one);
        _mm256_storeu_ps(gw + i, _mm256_fmadd_ps(_mm256_mul_ps(v, v), gg, _mm256_loadu_ps(gw + i)));
        __m256 inside = _mm256_and_ps(_mm256_cmp_ps(a, zero, _CMP_GT_OQ), _mm256_cmp_ps(a, one, _CMP_LT_OQ));
        __m256 d = _mm256_mul_ps(_mm256_mul_ps(g2, v), _mm256_loadu_ps(w + i));
        _mm256_storeu_ps(d_acc + i, _mm256_and_ps(d, inside));
    }
#else
    for (int i = 0; i < n; i++) {
        float v = train_clamp01(acc[i]);
        gw[i] += g * v * v;
        d_acc[i] = acc[i] > 0.0f && acc[i] < 1.0f ? 2.0f * g * v * w[i] : 0.0f;
    }
#endif
}
