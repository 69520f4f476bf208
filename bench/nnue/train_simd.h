// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The trainer's inner loops in float: AVX2 + FMA intrinsics when the
 * compiler targets them (-march=native on a recent x86), portable C
 * otherwise (which compilers still vectorise with SSE). n is a multiple of
 * 32 everywhere.
 */
#include <stddef.h>
#include <stdlib.h>
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define TRAIN_AVX2 1
#endif

/* 64-byte aligned floats (free() releases them), zeroed. */
static inline float *train_alloc_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    float *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p)
        for (size_t i = 0; i < n; i++)
            p[i] = 0;
    return p;
}

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
