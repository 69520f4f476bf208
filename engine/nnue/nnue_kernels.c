// SPDX-License-Identifier: GPL-3.0-or-later
/* The kernels of nnue_kernels.h for one instruction set. NNUE_FORCE_SCALAR
 * or NNUE_FORCE_SSE2 narrow the choice (the SIMD test builds each path). */
#include "nnue_kernels.h"

#include "nnue_arch.h"

#if defined(NNUE_FORCE_SCALAR)
#define NNUE_SCALAR 1
#elif defined(__AVX2__) && !defined(NNUE_FORCE_SSE2)
#define NNUE_AVX2 1
#include <immintrin.h>
#elif defined(__SSE2__)
#define NNUE_SSE2 1
#include <emmintrin.h>
#else
#define NNUE_SCALAR 1
#endif

/* Units handled per inner step: every path walks the accumulator in
 * blocks of this many int16 (H is a multiple of it). */
enum { BLOCK = NNUE_HIDDEN_STEP };

#if NNUE_AVX2
typedef __m256i Vec;
enum { LANES = 16 };
static inline Vec vload(const int16_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vstore(int16_t *p, Vec v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline Vec vadd16(Vec a, Vec b) { return _mm256_add_epi16(a, b); }
static inline Vec vsub16(Vec a, Vec b) { return _mm256_sub_epi16(a, b); }
static inline Vec vadd32(Vec a, Vec b) { return _mm256_add_epi32(a, b); }
static inline Vec vzero(void) { return _mm256_setzero_si256(); }
static inline Vec vset16(int x) { return _mm256_set1_epi16((short)x); }
static inline Vec vclamp(Vec v, Vec hi) { return _mm256_min_epi16(_mm256_max_epi16(v, vzero()), hi); }
static inline Vec vmullo16(Vec a, Vec b) { return _mm256_mullo_epi16(a, b); }
static inline Vec vmadd16(Vec a, Vec b) { return _mm256_madd_epi16(a, b); }
static inline int32_t vsum32(Vec v) {
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return _mm_cvtsi128_si32(x);
}
static const char IsaName[] = "avx2";
#elif NNUE_SSE2
typedef __m128i Vec;
enum { LANES = 8 };
static inline Vec vload(const int16_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void vstore(int16_t *p, Vec v) { _mm_storeu_si128((__m128i *)p, v); }
static inline Vec vadd16(Vec a, Vec b) { return _mm_add_epi16(a, b); }
static inline Vec vsub16(Vec a, Vec b) { return _mm_sub_epi16(a, b); }
static inline Vec vadd32(Vec a, Vec b) { return _mm_add_epi32(a, b); }
static inline Vec vzero(void) { return _mm_setzero_si128(); }
static inline Vec vset16(int x) { return _mm_set1_epi16((short)x); }
static inline Vec vclamp(Vec v, Vec hi) { return _mm_min_epi16(_mm_max_epi16(v, vzero()), hi); }
static inline Vec vmullo16(Vec a, Vec b) { return _mm_mullo_epi16(a, b); }
static inline Vec vmadd16(Vec a, Vec b) { return _mm_madd_epi16(a, b); }
static inline int32_t vsum32(Vec x) {
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return _mm_cvtsi128_si32(x);
}
static const char IsaName[] = "sse2";
#endif

#if NNUE_AVX2 || NNUE_SSE2
enum { REGS = BLOCK / LANES };

void NNUE_K(nnue_k_refresh)(int16_t *acc, const int16_t *bias, const int16_t *const *rows, int n, int H) {
    for (int i = 0; i < H; i += BLOCK) {
        Vec r[REGS];
        for (int k = 0; k < REGS; k++)
            r[k] = vload(bias + i + k * LANES);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < REGS; k++)
                r[k] = vadd16(r[k], vload(rows[j] + i + k * LANES));
        for (int k = 0; k < REGS; k++)
            vstore(acc + i + k * LANES, r[k]);
    }
}

void NNUE_K(nnue_k_update)(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add,
                           const int16_t *const *sub, int n_sub, int H) {
    for (int i = 0; i < H; i += BLOCK) {
        Vec r[REGS];
        for (int k = 0; k < REGS; k++)
            r[k] = vload(in + i + k * LANES);
        for (int j = 0; j < n_add; j++)
            for (int k = 0; k < REGS; k++)
                r[k] = vadd16(r[k], vload(add[j] + i + k * LANES));
        for (int j = 0; j < n_sub; j++)
            for (int k = 0; k < REGS; k++)
                r[k] = vsub16(r[k], vload(sub[j] + i + k * LANES));
        for (int k = 0; k < REGS; k++)
            vstore(out + i + k * LANES, r[k]);
    }
}

/* One half of the output: two partial sums for instruction-level overlap. */
static inline Vec output_half(Vec sum, const int16_t *acc, const int16_t *w, int H) {
    const Vec hi = vset16(NNUE_QA);
    Vec other = vzero();
    for (int i = 0; i < H; i += 2 * LANES) {
        Vec v0 = vclamp(vload(acc + i), hi), v1 = vclamp(vload(acc + i + LANES), hi);
        sum = vadd32(sum, vmadd16(vmullo16(v0, vload(w + i)), v0));
        other = vadd32(other, vmadd16(vmullo16(v1, vload(w + i + LANES)), v1));
    }
    return vadd32(sum, other);
}

int32_t NNUE_K(nnue_k_output)(const int16_t *us, const int16_t *them, const int16_t *w, int H) {
    Vec sum = output_half(vzero(), us, w, H);
    sum = output_half(sum, them, w + H, H);
    return vsum32(sum);
}

#else /* portable C, with the wraparound of the vector instructions */

static inline int16_t wrap16(int x) { return (int16_t)(uint16_t)(unsigned)x; }

void NNUE_K(nnue_k_refresh)(int16_t *acc, const int16_t *bias, const int16_t *const *rows, int n, int H) {
    for (int i = 0; i < H; i++) {
        int16_t a = bias[i];
        for (int j = 0; j < n; j++)
            a = wrap16(a + rows[j][i]);
        acc[i] = a;
    }
}

void NNUE_K(nnue_k_update)(int16_t *out, const int16_t *in, const int16_t *const *add, int n_add,
                           const int16_t *const *sub, int n_sub, int H) {
    for (int i = 0; i < H; i++) {
        int16_t a = in[i];
        for (int j = 0; j < n_add; j++)
            a = wrap16(a + add[j][i]);
        for (int j = 0; j < n_sub; j++)
            a = wrap16(a - sub[j][i]);
        out[i] = a;
    }
}

static uint32_t output_half(uint32_t sum, const int16_t *acc, const int16_t *w, int H) {
    for (int i = 0; i < H; i++) {
        int v = acc[i] < 0 ? 0 : acc[i] > NNUE_QA ? NNUE_QA : acc[i];
        int16_t vw = wrap16(v * w[i]);
        sum += (uint32_t)(vw * v);
    }
    return sum;
}

int32_t NNUE_K(nnue_k_output)(const int16_t *us, const int16_t *them, const int16_t *w, int H) {
    return (int32_t)output_half(output_half(0, us, w, H), them, w + H, H);
}

static const char IsaName[] = "scalar";
#endif

const char *NNUE_K(nnue_k_isa)(void) { return IsaName; }
