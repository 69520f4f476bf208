// SPDX-License-Identifier: GPL-3.0-or-later
/* The kernels of nnue_kernels.h for one instruction set. NNUE_FORCE_SCALAR,
 * NNUE_FORCE_SSE2 (no SSSE3 either) or NNUE_FORCE_SSSE3 (no AVX2) narrow the
 * choice (the SIMD test builds each path). */
#include "nnue_kernels.h"

#include <string.h>

#include "nnue_arch.h"

#if defined(NNUE_FORCE_SCALAR)
#define NNUE_SCALAR 1
#elif defined(__AVX2__) && !defined(NNUE_FORCE_SSE2) && !defined(NNUE_FORCE_SSSE3)
#define NNUE_AVX2 1
#include <immintrin.h>
#elif defined(__SSE2__)
#define NNUE_SSE2 1
#include <emmintrin.h>
#if defined(__SSSE3__) && !defined(NNUE_FORCE_SSE2)
#define NNUE_SSSE3 1 /* 128-bit vectors with pmaddubsw: the dense stack's quads */
#include <tmmintrin.h>
#endif
#else
#define NNUE_SCALAR 1
#endif
#if defined(NNUE_FORCE_SSSE3) && !NNUE_SSSE3
#error "NNUE_FORCE_SSSE3 needs an SSSE3 target (-mssse3)"
#endif
/* The dense stack's first layer takes its inputs four bytes at a time
 * (u is 0..127) against int8 weights: maddubs needs SSSE3. With VNNI (AVX-
 * VNNI, or AVX-512 VNNI on 256-bit vectors) one vpdpbusd does the quad's
 * multiply-and-sum without the int16 step; NNUE_NO_VNNI keeps the AVX2
 * path to maddubs (the SIMD test builds both). */
#define NNUE_QUADS (NNUE_AVX2 || NNUE_SSSE3)
#if NNUE_AVX2 && !defined(NNUE_NO_VNNI) && (defined(__AVXVNNI__) || (defined(__AVX512VNNI__) && defined(__AVX512VL__)))
#define NNUE_VNNI 1
#else
#define NNUE_VNNI 0
#endif
#if defined(NNUE_FORCE_VNNI) && !NNUE_VNNI
#error "NNUE_FORCE_VNNI needs an AVX2 target with AVX-VNNI (-mavxvnni)"
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
static inline Vec vsrli16(Vec v, int n) { return _mm256_srli_epi16(v, n); }
static inline Vec vbcast32(uint32_t x) { return _mm256_set1_epi32((int)x); }
/* Bit k set when int32 lane k is > 0. */
static inline unsigned vpositive32(Vec v) {
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, vzero())));
}
/* int16 a, b to one vector of bytes (unsigned saturation) in unit order: the
 * packs work per 128-bit lane, the permute puts the lanes back in order. */
static inline Vec vpacku8(Vec a, Vec b) { return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8); }
/* int32 a, b to int16 (signed saturation) in unit order, as vpacku8. */
static inline Vec vpack16(Vec a, Vec b) { return _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8); }
static inline Vec vloadb(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vstoreb(void *p, Vec v) { _mm256_storeu_si256((__m256i *)p, v); }
/* acc + the four-byte dot products of u8 (0..127) and s8 in each int32 lane. */
#if NNUE_VNNI && defined(__AVX512VNNI__) && defined(__AVX512VL__)
static inline Vec vdot_quads(Vec acc, Vec u8, Vec s8) { return _mm256_dpbusd_epi32(acc, u8, s8); }
#elif NNUE_VNNI
static inline Vec vdot_quads(Vec acc, Vec u8, Vec s8) { return _mm256_dpbusd_avx_epi32(acc, u8, s8); }
#else
static inline Vec vdot_quads(Vec acc, Vec u8, Vec s8) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u8, s8), _mm256_set1_epi16(1)));
}
#endif
static inline Vec vmax32(Vec a, Vec b) { return _mm256_max_epi32(a, b); }
static inline Vec vmin32(Vec a, Vec b) { return _mm256_min_epi32(a, b); }
static inline Vec vset32(int x) { return _mm256_set1_epi32(x); }
static inline Vec vsrai32(Vec v, int n) { return _mm256_srai_epi32(v, n); }
static inline int32_t vsum32(Vec v) {
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return _mm_cvtsi128_si32(x);
}
#if NNUE_VNNI
static const char IsaName[] = "avx2-vnni";
#else
static const char IsaName[] = "avx2";
#endif
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
static inline Vec vsrli16(Vec v, int n) { return _mm_srli_epi16(v, n); }
static inline Vec vbcast32(uint32_t x) { return _mm_set1_epi32((int)x); }
static inline unsigned vpositive32(Vec v) {
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v, vzero())));
}
static inline int32_t vsum32(Vec x) {
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return _mm_cvtsi128_si32(x);
}
#if NNUE_SSSE3
static inline Vec vpacku8(Vec a, Vec b) { return _mm_packus_epi16(a, b); }
static inline Vec vpack16(Vec a, Vec b) { return _mm_packs_epi32(a, b); }
static inline Vec vloadb(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void vstoreb(void *p, Vec v) { _mm_storeu_si128((__m128i *)p, v); }
static inline Vec vdot_quads(Vec acc, Vec u8, Vec s8) {
    return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(u8, s8), _mm_set1_epi16(1)));
}
/* SSSE3 has no 32-bit min/max (SSE4.1): compare and select. */
static inline Vec vselect(Vec m, Vec a, Vec b) { return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)); }
static inline Vec vmax32(Vec a, Vec b) { return vselect(_mm_cmpgt_epi32(a, b), a, b); }
static inline Vec vmin32(Vec a, Vec b) { return vselect(_mm_cmpgt_epi32(a, b), b, a); }
static inline Vec vset32(int x) { return _mm_set1_epi32(x); }
static inline Vec vsrai32(Vec v, int n) { return _mm_srai_epi32(v, n); }
static const char IsaName[] = "ssse3";
#else
static const char IsaName[] = "sse2";
#endif
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

/* out[0..N) = bias + the madd of the listed input pairs against their
 * weight rows (w: [pair][N][2]). Inlined with N constant, so the sums stay
 * in registers. */
static inline __attribute__((always_inline)) void affine_pairs(int32_t *out, const int32_t *bias, const uint32_t *in,
                                                               const uint16_t *idx, int n, const int16_t *w, int N) {
    enum { MAXR = NNUE_L2 * 2 / LANES };
    const int R = N * 2 / LANES;
    Vec acc[MAXR];
    for (int k = 0; k < R; k++)
        acc[k] = vload((const int16_t *)(bias + k * LANES / 2));
    for (int i = 0; i < n; i++) {
        const Vec x = vbcast32(in[idx[i]]);
        const int16_t *row = w + (size_t)idx[i] * (size_t)N * 2;
        for (int k = 0; k < R; k++)
            acc[k] = vadd32(acc[k], vmadd16(x, vload(row + k * LANES)));
    }
    for (int k = 0; k < R; k++)
        vstore((int16_t *)(out + k * LANES / 2), acc[k]);
}

#if NNUE_QUADS
/* The first layer in quads (SSSE3, AVX2). u is 0..127 and the weights
 * int8, so maddubs (u8 x s8, adjacent products summed in int16 with
 * saturation) never saturates: 2 * 127 * 128 = 32,512 < 32,767. Its int16
 * pair sums, summed again by a madd against ones, are the exact int32 quad
 * sums the scalar path adds one by one (vpdpbusd sums the four products
 * in int32 directly, equally exact). */
enum {
    QUAD = 4,                              /* inputs per 32-bit broadcast */
    MASK_UNITS = 32,                       /* accumulator units per nonzero-mask lookup */
    MASK_QUADS = MASK_UNITS / QUAD,        /* 8: one byte of mask */
    MASK_NB = 1 << MASK_QUADS,             /* table entries */
    NZ_MAX = 2 * NNUE_HIDDEN_MAX / QUAD,   /* quads of the largest net */
    NZ_SLACK = MASK_QUADS,                 /* each lookup stores a whole entry, used or not */
    BYTE_LANES = 2 * LANES,                /* bytes per vector */
    L1_VECS = NNUE_L1 * QUAD / BYTE_LANES, /* a weight row of one quad, in vectors */
    L1_OUT_VECS = NNUE_L1 * 2 / LANES,     /* the first layer's int32 outputs, in vectors */
    L2_OUT_VECS = NNUE_L2 * 2 / LANES,     /* the second layer's */
    /* Independent sets of first-layer sums: vpdpbusd takes 5 cycles before
     * its sum can be used again, so one set would wait on each quad; the
     * maddubs path's dependency is a 1-cycle add, and more sets would only
     * take registers (16 on SSSE3). */
    L1_CHAINS = NNUE_VNNI ? 4 : 1,
};
_Static_assert(NNUE_HIDDEN_STEP % MASK_UNITS == 0, "a half is a whole number of mask lookups");
_Static_assert(L1_VECS == L1_OUT_VECS, "one weight vector per output vector");

/* For each 8-bit mask of nonzero quads, the offsets of its set bits in
 * order (the rest zero) and how many there are: the nonzero list grows by
 * one store and one add per 8 quads, with no branch per bit. Filled before
 * main (no first-use test in the kernel). */
static _Alignas(64) uint8_t NzOffsets[MASK_NB][MASK_QUADS];
static uint8_t NzCount[MASK_NB];

__attribute__((constructor)) static void nz_table_init(void) {
    for (int m = 0; m < MASK_NB; m++) {
        int c = 0;
        for (int b = 0; b < MASK_QUADS; b++)
            if (m >> b & 1) NzOffsets[m][c++] = (uint8_t)b;
        NzCount[m] = (uint8_t)c;
    }
}

/* u = (clamp(acc)^2 + 256) >> 9 of 16-bit lanes: v * v is 65,025 at most,
 * so it fits uint16, and so does + 256; the shift is logical. */
static inline Vec sqr_unit(Vec acc, Vec hi, Vec round) {
    Vec v = vclamp(acc, hi);
    return vsrli16(vadd16(vmullo16(v, v), round), NNUE_SQR_SHIFT);
}

/* u of one half as bytes into in, appending the index of every nonzero
 * quad (base + its quad in the half) to nz; returns the new count. A quad
 * is nonzero when its int32 is > 0: its bytes are at most 127, so its sign
 * bit is clear. Inlined into its one caller (twice per evaluation): as a
 * call it took 2.6 % of bench 12's cycles with 6b5a1b82 beside 7.3 % for
 * the rest of the kernel, inlined the whole took 9.2 %. */
static inline __attribute__((always_inline)) int sqr_quads(const int16_t *acc, int H, uint8_t *in, uint16_t *nz, int n,
                                                           int base) {
    const Vec hi = vset16(NNUE_QA), round = vset16(1 << (NNUE_SQR_SHIFT - 1));
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < H; i += MASK_UNITS) {
        unsigned mask = 0;
        for (int k = 0; k < MASK_UNITS / BYTE_LANES; k++) {
            const int16_t *a = acc + i + k * BYTE_LANES;
            Vec u = vpacku8(sqr_unit(vload(a), hi, round), sqr_unit(vload(a + LANES), hi, round));
            vstoreb(in + i + k * BYTE_LANES, u);
            mask |= vpositive32(u) << (k * BYTE_LANES / QUAD);
        }
        __m128i offsets = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)NzOffsets[mask]), zero);
        offsets = _mm_add_epi16(offsets, _mm_set1_epi16((short)(base + i / QUAD)));
        _mm_storeu_si128((__m128i *)(nz + n), offsets);
        n += NzCount[mask];
    }
    return n;
}

/* The stack's crelu on int32 lanes, as nnue_crelu: max(x, 0) + 32 cannot
 * overflow (biases within +-2^30, sums below 2^25, nnue_arch.h). */
static inline Vec vcrelu32(Vec x) {
    Vec v = vsrai32(vadd32(vmax32(x, vzero()), vset32(NNUE_QW >> 1)), NNUE_QW_SHIFT);
    return vmin32(v, vset32(NNUE_QH));
}

/* Sums o[0..NNUE_L1) += the dot products of quad q of the inputs with its weight row. */
static inline __attribute__((always_inline)) void l1_quad(Vec *o, const uint8_t *in, const int8_t *w, unsigned q) {
    uint32_t x;
    memcpy(&x, in + (size_t)q * QUAD, QUAD);
    const Vec xb = vbcast32(x);
    const int8_t *row = w + (size_t)q * (NNUE_L1 * QUAD);
    for (int k = 0; k < L1_VECS; k++)
        o[k] = vdot_quads(o[k], xb, vloadb(row + k * BYTE_LANES));
}

int32_t NNUE_K(nnue_k_dense)(const int16_t *us, const int16_t *them, int H, const NnueDense *d) {
    _Alignas(64) uint8_t in[2 * NNUE_HIDDEN_MAX];
    _Alignas(64) uint16_t nz[NZ_MAX + NZ_SLACK];
    int n = sqr_quads(us, H, in, nz, 0, 0);
    n = sqr_quads(them, H, in + H, nz, n, H / QUAD);

    /* L1_CHAINS independent sets of sums, one quad each in turn, added at
     * the end (int32 addition: the order does not change the bits). */
    Vec o1[L1_CHAINS][L1_OUT_VECS];
    for (int c = 0; c < L1_CHAINS; c++)
        for (int k = 0; k < L1_OUT_VECS; k++)
            o1[c][k] = c ? vzero() : vload((const int16_t *)(d->l1_b + k * LANES / 2));
    int i = 0;
    for (; i + L1_CHAINS <= n; i += L1_CHAINS)
        for (int c = 0; c < L1_CHAINS; c++)
            l1_quad(o1[c], in, d->l1_q, nz[i + c]);
    for (; i < n; i++)
        l1_quad(o1[0], in, d->l1_q, nz[i]);
    for (int c = 1; c < L1_CHAINS; c++)
        for (int k = 0; k < L1_OUT_VECS; k++)
            o1[0][k] = vadd32(o1[0][k], o1[c][k]);

    /* h1 = crelu(o1) in the pair layout of the second layer (0..127 packs
     * exactly), then the second layer over all of its 8 input pairs. */
    _Alignas(64) uint32_t h1[NNUE_L1 / 2];
    for (int k = 0; k < L1_OUT_VECS; k += 2)
        vstore((int16_t *)(h1 + k * LANES / 4), vpack16(vcrelu32(o1[0][k]), vcrelu32(o1[0][k + 1])));
    static const uint16_t All[NNUE_L1 / 2] = {0, 1, 2, 3, 4, 5, 6, 7};
    _Static_assert(NNUE_L1 / 2 == 8, "All lists every input pair of the second layer");
    _Alignas(64) int32_t o2[NNUE_L2];
    affine_pairs(o2, d->l2_b, h1, All, NNUE_L1 / 2, d->l2_w, NNUE_L2);

    /* The output: crelu(o2) packed to int16 against the l3 weights (madd). */
    Vec sum = vzero();
    for (int k = 0; k < L2_OUT_VECS; k += 2) {
        Vec h2 = vpack16(vcrelu32(vload((const int16_t *)(o2 + k * LANES / 2))),
                         vcrelu32(vload((const int16_t *)(o2 + (k + 1) * LANES / 2))));
        sum = vadd32(sum, vmadd16(h2, vload(d->l3_w + k * LANES / 2)));
    }
    return d->l3_b + vsum32(sum);
}

#else  /* SSE2: the pair method (no maddubs) */

/* u = (clamp(acc)^2 + 256) >> 9 of one half into pairs (u[2p] | u[2p+1] <<
 * 16), appending the index of every nonzero pair to nz. v * v is 65,025 at
 * most: it fits uint16, and so does + 256; the shift is logical. */
static int sqr_pairs(const int16_t *acc, int H, uint32_t *pairs, uint16_t *nz, int n, int base) {
    const Vec hi = vset16(NNUE_QA), round = vset16(1 << (NNUE_SQR_SHIFT - 1));
    for (int i = 0; i < H; i += LANES) {
        Vec v = vclamp(vload(acc + i), hi);
        Vec u = vsrli16(vadd16(vmullo16(v, v), round), NNUE_SQR_SHIFT);
        vstore((int16_t *)(pairs + i / 2), u);
        for (unsigned m = vpositive32(u); m; m &= m - 1)
            nz[n++] = (uint16_t)(base + i / 2 + __builtin_ctz(m));
    }
    return n;
}

int32_t NNUE_K(nnue_k_dense)(const int16_t *us, const int16_t *them, int H, const NnueDense *d) {
    _Alignas(64) uint32_t pairs[NNUE_HIDDEN_MAX];
    _Alignas(64) int32_t o1[NNUE_L1], o2[NNUE_L2];
    uint16_t nz[NNUE_HIDDEN_MAX];
    int n = sqr_pairs(us, H, pairs, nz, 0, 0);
    n = sqr_pairs(them, H, pairs + H / 2, nz, n, H / 2);
    affine_pairs(o1, d->l1_b, pairs, nz, n, d->l1_w, NNUE_L1);
    uint32_t h1[NNUE_L1 / 2];
    uint16_t all[NNUE_L1 / 2];
    for (int p = 0; p < NNUE_L1 / 2; p++) {
        h1[p] = (uint32_t)nnue_crelu(o1[2 * p]) | (uint32_t)nnue_crelu(o1[2 * p + 1]) << 16;
        all[p] = (uint16_t)p;
    }
    affine_pairs(o2, d->l2_b, h1, all, NNUE_L1 / 2, d->l2_w, NNUE_L2);
    int32_t sum = d->l3_b;
    for (int j = 0; j < NNUE_L2; j++)
        sum += nnue_crelu(o2[j]) * d->l3_w[j];
    return sum;
}
#endif /* NNUE_QUADS */

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

/* One layer in the pair layout of nnue_net.h, every input. */
static void affine(int32_t *out, const int32_t *bias, const int *in, int n_in, const int16_t *w, int N) {
    for (int j = 0; j < N; j++) {
        int32_t s = bias[j];
        for (int i = 0; i < n_in; i++)
            s += in[i] * w[((size_t)(i / 2) * (size_t)N + (size_t)j) * 2 + (size_t)(i % 2)];
        out[j] = s;
    }
}

int32_t NNUE_K(nnue_k_dense)(const int16_t *us, const int16_t *them, int H, const NnueDense *d) {
    int u[2 * NNUE_HIDDEN_MAX], h1[NNUE_L1];
    int32_t o1[NNUE_L1], o2[NNUE_L2];
    for (int i = 0; i < H; i++) {
        u[i] = nnue_sqr_unit(us[i]);
        u[H + i] = nnue_sqr_unit(them[i]);
    }
    affine(o1, d->l1_b, u, 2 * H, d->l1_w, NNUE_L1);
    for (int j = 0; j < NNUE_L1; j++)
        h1[j] = nnue_crelu(o1[j]);
    affine(o2, d->l2_b, h1, NNUE_L1, d->l2_w, NNUE_L2);
    int32_t sum = d->l3_b;
    for (int j = 0; j < NNUE_L2; j++)
        sum += nnue_crelu(o2[j]) * d->l3_w[j];
    return sum;
}

static const char IsaName[] = "scalar";
#endif

const char *NNUE_K(nnue_k_isa)(void) { return IsaName; }
