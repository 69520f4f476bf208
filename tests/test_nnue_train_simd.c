// SPDX-License-Identifier: GPL-3.0-or-later
/* The trainer's float kernels (bench/nnue/train_simd.h): the path the
 * trainer is built with (AVX2 + FMA on a native x86 build) against the
 * portable C path (tests/support/train_simd_scalar.c). Sums of the
 * feature transformer's rows add in the same order on both paths and must
 * agree bit for bit; dot products and the stack's backward pass may differ
 * by FMA rounding only. */
#include "test_support.h"

#include <math.h>
#include <string.h>

#include "train_simd.h"
#include "train_simd_scalar.h"

enum { H = 256, ROWS = 300, N = 40 };
static float Table[ROWS * H], Bias[H];
static uint64_t Rng = 4242;

static uint64_t rnd64(void) {
    uint64_t z = (Rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in (-1, 1), with some exact zeros and values outside 0..1 for
 * the clamps. */
static float rndf(void) {
    if (rnd64() % 8 == 0) return 0.0f;
    return (float)((double)(rnd64() >> 11) / (double)(1ull << 53) * 3.0 - 1.5);
}

static void fill(float *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = rndf();
}

static int setup(void **state) {
    (void)state;
    fill(Table, ROWS * H);
    fill(Bias, H);
    print_message("trainer kernels: %s against portable C\n",
#if TRAIN_AVX2
                  "AVX2 + FMA"
#else
                  "portable C (this build)"
#endif
    );
    return 0;
}

static void assert_close(const float *a, const float *b, int n, const char *what) {
    for (int i = 0; i < n; i++)
        if (fabsf(a[i] - b[i]) > 1e-5f * (1.0f + fabsf(a[i])))
            fail_msg("%s[%d]: %.9g against %.9g on the portable path", what, i, a[i], b[i]);
}

/* Both halves of an accumulator's blocks, from up to 32 features each. */
static void test_sum_block2(void **state) {
    (void)state;
    for (int trial = 0; trial < 50; trial++) {
        int32_t f0[32], f1[32];
        int n = (int)(rnd64() % 33);
        for (int j = 0; j < n; j++) {
            f0[j] = (int32_t)(rnd64() % ROWS);
            f1[j] = (int32_t)(rnd64() % ROWS);
        }
        for (int i = 0; i < H; i += TRAIN_BLOCK) {
            float a0[TRAIN_BLOCK], a1[TRAIN_BLOCK], b0[TRAIN_BLOCK], b1[TRAIN_BLOCK];
            train_sum_block2(a0, a1, Bias + i, Table + i, f0, f1, n, H);
            scalar_train_sum_block2(b0, b1, Bias + i, Table + i, f0, f1, n, H);
            assert_memory_equal(a0, b0, sizeof a0);
            assert_memory_equal(a1, b1, sizeof a1);
        }
    }
}

/* A row's block plus the d_acc blocks of its uses, in order. */
static void test_gather_block(void **state) {
    (void)state;
    static float d[N * 2 * H];
    fill(d, N * 2 * H);
    for (int trial = 0; trial < 50; trial++) {
        int32_t at[N];
        int n = (int)(rnd64() % N);
        for (int j = 0; j < n; j++)
            at[j] = (int32_t)(rnd64() % (2 * N)) * H;
        for (int i = 0; i < H; i += TRAIN_BLOCK) {
            float a[TRAIN_BLOCK], b[TRAIN_BLOCK];
            memcpy(a, Table + i, sizeof a);
            memcpy(b, Table + i, sizeof b);
            train_gather_block(a, at, n, d + i);
            scalar_train_gather_block(b, at, n, d + i);
            assert_memory_equal(a, b, sizeof a);
        }
    }
}

/* Up to N - 1 random rows of x (offsets at[j]) with random factors d[j];
 * returns how many. */
static int random_rows(int32_t at[N], float d[N]) {
    int n = (int)(rnd64() % N);
    for (int j = 0; j < n; j++) {
        at[j] = (int32_t)(rnd64() % (2 * N)) * H;
        d[j] = rndf();
    }
    return n;
}

/* A weight row's block plus d[j] times the blocks of x, in order. */
static void test_axpy_gather_block(void **state) {
    (void)state;
    static float x[N * 2 * H];
    fill(x, N * 2 * H);
    for (int trial = 0; trial < 50; trial++) {
        int32_t at[N];
        float d[N];
        int n = random_rows(at, d);
        for (int i = 0; i < H; i += TRAIN_BLOCK) {
            float a[TRAIN_BLOCK], b[TRAIN_BLOCK];
            memcpy(a, Table + i, sizeof a);
            memcpy(b, Table + i, sizeof b);
            train_axpy_gather_block(a, d, at, n, x + i);
            scalar_train_axpy_gather_block(b, d, at, n, x + i);
            assert_close(a, b, TRAIN_BLOCK, "axpy_gather");
        }
    }
}

/* The 64-unit block of a weight row (the stack's first-layer gradient):
 * bit for bit two 32-unit blocks, on both paths. */
static void test_axpy_gather_block64(void **state) {
    (void)state;
    static float x[N * 2 * H];
    fill(x, N * 2 * H);
    for (int trial = 0; trial < 50; trial++) {
        int32_t at[N];
        float d[N];
        int n = random_rows(at, d);
        for (int i = 0; i < H; i += 2 * TRAIN_BLOCK) {
            float a[2 * TRAIN_BLOCK], b[2 * TRAIN_BLOCK];
            memcpy(a, Table + i, sizeof a);
            memcpy(b, Table + i, sizeof b);
            train_axpy_gather_block64(a, d, at, n, x + i);
            train_axpy_gather_block(b, d, at, n, x + i);
            train_axpy_gather_block(b + TRAIN_BLOCK, d, at, n, x + i + TRAIN_BLOCK);
            assert_memory_equal(a, b, sizeof a);
        }
    }
}

/* The dense stack's first layer: clamp(acc)^2, four dot products at a
 * time, and d_acc from the live units. */
static void test_stack_kernels(void **state) {
    (void)state;
    static float acc[2 * H], u[2 * H], v[2 * H], w[16 * 2 * H];
    for (int trial = 0; trial < 20; trial++) {
        fill(acc, 2 * H);
        fill(w, 16 * 2 * H);
        train_sqr_clamp(u, acc, 2 * H);
        scalar_train_sqr_clamp(v, acc, 2 * H);
        assert_memory_equal(u, v, sizeof u);
        for (int j = 0; j < 16; j += 4) {
            float a[4], b[4];
            train_dot4(w + j * 2 * H, u, 2 * H, a);
            scalar_train_dot4(w + j * 2 * H, u, 2 * H, b);
            assert_close(a, b, 4, "dot4");
        }
        int rows[16], m = 0;
        float dl[16], da[2 * H], db[2 * H];
        for (int j = 0; j < 16; j++)
            if (rnd64() % 3) {
                rows[m] = j;
                dl[m++] = rndf();
            }
        train_stack_d_acc(da, acc, w, rows, dl, m, 2 * H);
        scalar_train_stack_d_acc(db, acc, w, rows, dl, m, 2 * H);
        assert_close(da, db, 2 * H, "d_acc");
    }
}

/* The stack's second layer, transposed: on the trainer's path the same
 * floats as train_dot row by row, bit for bit (train_batch uses it only on
 * the AVX2 path); on the portable path close to them. */
static void test_dot16_t(void **state) {
    (void)state;
    static float w[32 * 16], wt[16 * 32], x[16];
    for (int trial = 0; trial < 50; trial++) {
        fill(w, 32 * 16);
        fill(x, 16);
        for (int k = 0; k < 32; k++)
            for (int i = 0; i < 16; i++)
                wt[32 * i + k] = w[16 * k + i];
        float a[32], b[32];
        train_dot16_t(wt, x, a);
        scalar_train_dot16_t(wt, x, b);
        for (int k = 0; k < 32; k++) {
            const float rows = train_dot(w + 16 * k, x, 16), scalar_rows = scalar_train_dot(w + 16 * k, x, 16);
            if (TRAIN_AVX2 && memcmp(&a[k], &rows, sizeof rows))
                fail_msg("row %d: %.9g against %.9g row by row", k, a[k], rows);
            assert_close(&b[k], &scalar_rows, 1, "portable dot16_t");
            assert_close(&a[k], &rows, 1, "dot16_t");
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_block2),
        cmocka_unit_test(test_gather_block),
        cmocka_unit_test(test_axpy_gather_block),
        cmocka_unit_test(test_stack_kernels),
        cmocka_unit_test(test_dot16_t),
        cmocka_unit_test(test_axpy_gather_block64),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
