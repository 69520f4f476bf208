// SPDX-License-Identifier: GPL-3.0-or-later
/* The NNUE kernels: the scalar, SSE2, SSSE3, AVX2 and AVX-VNNI paths (engine/nnue/
 * nnue_kernels.c compiled once per path into this test, see
 * tests/CMakeLists.txt) and the engine's own build give the same bits,
 * on realistic values and on values that wrap around int16 / int32. */
#include "test_support.h"

#include <string.h>

#include "nnue/nnue_arch.h"
#include "nnue_testnet.h"

#include "nnue/nnue_kernels.h" /* the engine's build: no suffix */
#undef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX _scalar
#include "nnue/nnue_kernels.h"
#if TEST_HAS_SSE2
#undef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX _sse2
#include "nnue/nnue_kernels.h"
#endif
#if TEST_HAS_SSSE3
#undef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX _ssse3
#include "nnue/nnue_kernels.h"
#endif
#if TEST_HAS_AVX2
#undef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX _avx2
#include "nnue/nnue_kernels.h"
#endif
#if TEST_HAS_VNNI
#undef NNUE_KERNEL_SUFFIX
#define NNUE_KERNEL_SUFFIX _vnni
#include "nnue/nnue_kernels.h"
#endif

typedef struct {
    const char *name;
    void (*refresh)(int16_t *, const int16_t *, const int16_t *const *, int, int);
    void (*update)(int16_t *, const int16_t *, const int16_t *const *, int, const int16_t *const *, int, int);
    int32_t (*output)(const int16_t *, const int16_t *, const int16_t *, int);
    int32_t (*dense)(const int16_t *, const int16_t *, int, const NnueDense *);
    const char *(*isa)(void);
} Path;

enum { PATHS_MAX = 7 }; /* engine, scalar, sse2, ssse3, avx2, vnni, and room to spare */
static Path Paths[PATHS_MAX];
static int PathCount;

enum { ROWS = 40 };
static int16_t Rows[ROWS][NNUE_HIDDEN_MAX], Bias[NNUE_HIDDEN_MAX], Weights[2 * NNUE_HIDDEN_MAX];
static int16_t Us[NNUE_HIDDEN_MAX], Them[NNUE_HIDDEN_MAX];
static int16_t Out[PATHS_MAX][NNUE_HIDDEN_MAX];
static uint64_t Rng = 99;

static int setup(void **state) {
    (void)state;
    Paths[PathCount++] = (Path){"engine", nnue_k_refresh, nnue_k_update, nnue_k_output, nnue_k_dense, nnue_k_isa};
    Paths[PathCount++] =
        (Path){"scalar",         nnue_k_refresh_scalar, nnue_k_update_scalar, nnue_k_output_scalar, nnue_k_dense_scalar,
               nnue_k_isa_scalar};
#if TEST_HAS_SSE2
    Paths[PathCount++] =
        (Path){"sse2", nnue_k_refresh_sse2, nnue_k_update_sse2, nnue_k_output_sse2, nnue_k_dense_sse2, nnue_k_isa_sse2};
#endif
#if TEST_HAS_SSSE3
    if (__builtin_cpu_supports("ssse3"))
        Paths[PathCount++] =
            (Path){"ssse3",         nnue_k_refresh_ssse3, nnue_k_update_ssse3, nnue_k_output_ssse3, nnue_k_dense_ssse3,
                   nnue_k_isa_ssse3};
#endif
#if TEST_HAS_AVX2
    if (__builtin_cpu_supports("avx2"))
        Paths[PathCount++] = (Path){
            "avx2", nnue_k_refresh_avx2, nnue_k_update_avx2, nnue_k_output_avx2, nnue_k_dense_avx2, nnue_k_isa_avx2};
#endif
#if TEST_HAS_VNNI
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avxvnni"))
        Paths[PathCount++] = (Path){
            "vnni", nnue_k_refresh_vnni, nnue_k_update_vnni, nnue_k_output_vnni, nnue_k_dense_vnni, nnue_k_isa_vnni};
#endif
    print_message("kernel paths compared:");
    for (int i = 0; i < PathCount; i++)
        print_message(" %s (%s)", Paths[i].name, Paths[i].isa());
    print_message("\n");
    return 0;
}

/* Fill the inputs; `wide` spans all of int16 (wraparound everywhere). */
static void fill(bool wide) {
    int lo = wide ? INT16_MIN : -60, hi = wide ? INT16_MAX : 60;
    for (int r = 0; r < ROWS; r++)
        for (int i = 0; i < NNUE_HIDDEN_MAX; i++)
            Rows[r][i] = (int16_t)testnet_range(&Rng, lo, hi);
    for (int i = 0; i < NNUE_HIDDEN_MAX; i++) {
        Bias[i] = (int16_t)testnet_range(&Rng, wide ? INT16_MIN : -100, wide ? INT16_MAX : 300);
        Us[i] = (int16_t)testnet_range(&Rng, wide ? INT16_MIN : -100, wide ? INT16_MAX : 400);
        Them[i] = (int16_t)testnet_range(&Rng, wide ? INT16_MIN : -100, wide ? INT16_MAX : 400);
    }
    for (int i = 0; i < 2 * NNUE_HIDDEN_MAX; i++)
        Weights[i] = (int16_t)testnet_range(&Rng, wide ? INT16_MIN : -127, wide ? INT16_MAX : 127);
}

static void compare_outputs(int H) {
    for (int p = 1; p < PathCount; p++)
        if (memcmp(Out[0], Out[p], sizeof(int16_t) * (size_t)H))
            fail_msg("%s and %s differ (H %d)", Paths[0].name, Paths[p].name, H);
}

static void run_all(bool wide) {
    static const int Sizes[] = {128, 160, 256, 512, 1024};
    for (int round = 0; round < 20; round++) {
        fill(wide);
        const int16_t *rows[ROWS];
        for (int r = 0; r < ROWS; r++)
            rows[r] = Rows[testnet_range(&Rng, 0, ROWS - 1)];
        for (size_t s = 0; s < sizeof Sizes / sizeof *Sizes; s++) {
            int H = Sizes[s], n = testnet_range(&Rng, 0, 32), na = testnet_range(&Rng, 0, 2);
            int ns = testnet_range(&Rng, 0, 3);
            for (int p = 0; p < PathCount; p++)
                Paths[p].refresh(Out[p], Bias, rows, n, H);
            compare_outputs(H);
            for (int p = 0; p < PathCount; p++)
                Paths[p].update(Out[p], Us, rows, na, rows + 4, ns, H);
            compare_outputs(H);
            for (int p = 0; p < PathCount; p++) { /* in place, as a null-move copy would not be */
                memcpy(Out[p], Them, sizeof(int16_t) * (size_t)H);
                Paths[p].update(Out[p], Out[p], rows + 8, na, rows + 12, ns, H);
            }
            compare_outputs(H);
            int32_t want = Paths[0].output(Us, Them, Weights, H);
            for (int p = 1; p < PathCount; p++)
                if (Paths[p].output(Us, Them, Weights, H) != want)
                    fail_msg("output: %s %d != %s %d (H %d)", Paths[p].name, Paths[p].output(Us, Them, Weights, H),
                             Paths[0].name, want, H);
        }
    }
}

/* A dense stack (version-2 nets) with int8-range weights in the kernels'
 * pair layout (and the quad copy made from it as the net reader makes it),
 * its biases spread so that some units of each layer are dead, some
 * saturated and some in between. WEIGHTS_EXTREME: every weight -128 or 127
 * and the biases at the +-2^30 the reader allows, the bounds of the
 * no-overflow argument (nnue_arch.h) and of maddubs' int16 pair sums.
 * WEIGHTS_SMALL: weights within +-3, so that even all 2H inputs at 127
 * leave the first layer's sums inside crelu's live range, where a wrong
 * weight or input shows in the result (full-range weights on saturated
 * inputs mostly clamp it). */
enum { WEIGHTS_RANDOM, WEIGHTS_EXTREME, WEIGHTS_SMALL, WEIGHT_MODES };
static _Alignas(64) int16_t L1W[2 * NNUE_HIDDEN_MAX * NNUE_L1], L2W[NNUE_L1 * NNUE_L2], L3W[NNUE_L2];
static _Alignas(64) int8_t L1Q[2 * NNUE_HIDDEN_MAX * NNUE_L1];
static _Alignas(64) int32_t L1B[NNUE_L1], L2B[NNUE_L2];

static int weight(int mode) {
    return mode == WEIGHTS_EXTREME ? (testnet_range(&Rng, 0, 1) ? 127 : -128)
           : mode == WEIGHTS_SMALL ? testnet_range(&Rng, -3, 3)
                                   : testnet_range(&Rng, -128, 127);
}

static NnueDense random_dense(int mode) {
    for (size_t i = 0; i < sizeof L1W / sizeof *L1W; i++)
        L1W[i] = (int16_t)weight(mode);
    for (size_t i = 0; i < sizeof L2W / sizeof *L2W; i++)
        L2W[i] = (int16_t)weight(mode == WEIGHTS_SMALL ? WEIGHTS_RANDOM : mode);
    for (int i = 0; i < NNUE_L2; i++)
        L3W[i] = (int16_t)weight(mode == WEIGHTS_SMALL ? WEIGHTS_RANDOM : mode);
    const bool extreme = mode == WEIGHTS_EXTREME;
    const int b1 = extreme ? NNUE_STACK_BIAS_MAX : mode == WEIGHTS_SMALL ? 4000 : 400000;
    const int b2 = extreme ? NNUE_STACK_BIAS_MAX : 30000;
    for (int i = 0; i < NNUE_L1; i++)
        L1B[i] = testnet_range(&Rng, -b1, b1);
    for (int i = 0; i < NNUE_L2; i++)
        L2B[i] = testnet_range(&Rng, extreme ? -b2 : -20000, b2);
    nnue_dense_quads(L1Q, L1W, NNUE_HIDDEN_MAX);
    return (NnueDense){.l1_w = L1W,
                       .l1_b = L1B,
                       .l2_w = L2W,
                       .l2_b = L2B,
                       .l3_w = L3W,
                       .l3_b = testnet_range(&Rng, -100000, 100000),
                       .l1_q = L1Q};
}

/* Accumulators of one kind: 0 random over all of int16 (wrapping values,
 * most saturated or negative), 1 mostly clamped to zero, 2 mostly live,
 * 3 every unit <= 0 (no input is nonzero), 4 every unit >= 16 (every input
 * is nonzero: (16^2 + 256) >> 9 = 1), 5 every unit at or beyond the clamp
 * (>= 255: every input 127), 6 zero and saturated units in random runs. */
enum { ACC_KINDS = 7 };
static int16_t acc_unit(int kind) {
    switch (kind) {
    case 0: return (int16_t)testnet_range(&Rng, INT16_MIN, INT16_MAX);
    case 1: return (int16_t)testnet_range(&Rng, -300, 30);
    case 2: return (int16_t)testnet_range(&Rng, -300, 400);
    case 3: return (int16_t)testnet_range(&Rng, INT16_MIN, 0);
    case 4: return (int16_t)testnet_range(&Rng, 16, INT16_MAX);
    case 5: return (int16_t)testnet_range(&Rng, NNUE_QA, INT16_MAX);
    default: return (int16_t)(testnet_range(&Rng, 0, 3) ? testnet_range(&Rng, -500, 0) : testnet_range(&Rng, 255, 600));
    }
}

/* Every path's dense stack gives the same sum, on accumulators of every
 * kind above with weights of every mode (7 and 3 are coprime: 21 rounds
 * meet every pair), every hidden size. */
static void test_dense_paths_agree(void **state) {
    (void)state;
    static const int Sizes[] = {128, 160, 256, 512, 1024};
    for (int round = 0; round < 126; round++) {
        int kind = round % ACC_KINDS;
        for (int i = 0; i < NNUE_HIDDEN_MAX; i++) {
            Us[i] = acc_unit(kind);
            Them[i] = acc_unit(kind);
        }
        NnueDense d = random_dense(round % WEIGHT_MODES); /* the layouts do not depend on H */
        for (size_t s = 0; s < sizeof Sizes / sizeof *Sizes; s++) {
            int H = Sizes[s];
            int32_t want = Paths[1].dense(Us, Them, H, &d);
            for (int p = 0; p < PathCount; p++)
                if (Paths[p].dense(Us, Them, H, &d) != want)
                    fail_msg("dense: %s %d != scalar %d (H %d, round %d)", Paths[p].name,
                             Paths[p].dense(Us, Them, H, &d), want, H, round);
        }
    }
}

/* The quad copy holds the pair layout's weights, each where nnue_net.h says. */
static void test_dense_quads_layout(void **state) {
    (void)state;
    enum { H = 128 };
    for (int i = 0; i < 2 * H; i++)
        for (int j = 0; j < NNUE_L1; j++)
            L1W[(i / 2 * NNUE_L1 + j) * 2 + i % 2] = (int16_t)((i * 7 + j * 13) % 256 - 128);
    nnue_dense_quads(L1Q, L1W, H);
    for (int i = 0; i < 2 * H; i++)
        for (int j = 0; j < NNUE_L1; j++)
            assert_int_equal(L1Q[(i / 4 * NNUE_L1 + j) * 4 + i % 4], (i * 7 + j * 13) % 256 - 128);
}

/* The scalar path against a plain reading of the definition. */
static void test_scalar_definition(void **state) {
    (void)state;
    fill(false);
    int64_t sum = 0;
    for (int i = 0; i < 256; i++) {
        int v = Us[i] < 0 ? 0 : Us[i] > NNUE_QA ? NNUE_QA : Us[i];
        int t = Them[i] < 0 ? 0 : Them[i] > NNUE_QA ? NNUE_QA : Them[i];
        sum += (int64_t)v * v * Weights[i] + (int64_t)t * t * Weights[256 + i];
    }
    assert_int_equal(nnue_k_output_scalar(Us, Them, Weights, 256), (int32_t)sum);
    const int16_t *rows[3] = {Rows[0], Rows[1], Rows[2]};
    nnue_k_refresh_scalar(Out[0], Bias, rows, 3, 256);
    for (int i = 0; i < 256; i++)
        assert_int_equal(Out[0][i], Bias[i] + Rows[0][i] + Rows[1][i] + Rows[2][i]);
}

static void test_paths_agree(void **state) {
    (void)state;
    assert_true(PathCount >= 2);
    run_all(false);
}

static void test_paths_agree_wrapping(void **state) {
    (void)state;
    run_all(true);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_definition),    cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_paths_agree_wrapping), cmocka_unit_test(test_dense_paths_agree),
        cmocka_unit_test(test_dense_quads_layout),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
