// SPDX-License-Identifier: GPL-3.0-or-later
/* The CPU check (engine/cpu.h): the refusal line names the most telling
 * missing feature and the build to use instead; the test hook hides
 * features; the built tuong refuses to start when its features are hidden,
 * with one line on stderr and exit status 1. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "engine_proc.h"

static void test_missing_feature_names(void **state) {
    (void)state;
    assert_null(cpu_missing(0, 0));
    assert_null(cpu_missing(CPU_AVX2_BUILD, CPU_AVX2_BUILD | CPU_AVX512F));
    assert_string_equal(cpu_missing(CPU_AVX2_BUILD, 0), "AVX2");
    assert_string_equal(cpu_missing(CPU_AVX2_BUILD, CPU_AVX2_BUILD & ~CPU_BMI2), "BMI2");
    assert_string_equal(cpu_missing(CPU_AVX2_BUILD | CPU_AVX512F | CPU_AVX512BW, CPU_AVX2_BUILD), "AVX512F");
    assert_string_equal(cpu_missing(CPU_SSE42 | CPU_POPCNT, CPU_POPCNT), "SSE4.2");
}

static void test_refusal_line(void **state) {
    (void)state;
    char text[128] = "untouched";
    assert_false(cpu_refusal(CPU_AVX2_BUILD, CPU_AVX2_BUILD, text, sizeof text));
    assert_string_equal(text, "untouched");
    assert_false(cpu_refusal(0, 0, text, sizeof text)); /* the x86-64 build runs everywhere */
    assert_true(cpu_refusal(CPU_AVX2_BUILD, CPU_SSE3 | CPU_SSSE3, text, sizeof text));
    assert_string_equal(text, "this build needs AVX2; use the x86-64 build");
    /* A native AVX-512 build on an AVX2 machine: the avx2 build runs there. */
    assert_true(cpu_refusal(CPU_AVX2_BUILD | CPU_AVX512F, CPU_AVX2_BUILD, text, sizeof text));
    assert_string_equal(text, "this build needs AVX512F; use the avx2 build");
}

static void test_hide_hook(void **state) {
    (void)state;
    unsigned all = cpu_features();
    setenv("TUONG_HIDE_CPU_FEATURES", "avx2, sse4.2", 1);
    unsigned some = cpu_features();
    assert_int_equal(some & (CPU_AVX2 | CPU_SSE42), 0);
    assert_int_equal(some, all & ~(CPU_AVX2 | CPU_SSE42));
    setenv("TUONG_HIDE_CPU_FEATURES", "ALL", 1);
    assert_int_equal(cpu_features(), 0);
    setenv("TUONG_HIDE_CPU_FEATURES", "nonsense", 1);
    assert_int_equal(cpu_features(), all);
    unsetenv("TUONG_HIDE_CPU_FEATURES");
}

/* This library is compiled like tuong, so CpuBuildNeeds is tuong's too. */
static void test_binary_refuses(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE], expected[160] = "tuong: error: ";
    eng_start_full(&e, NULL, "exec 2>&1; TUONG_HIDE_CPU_FEATURES=all");
    if (CpuBuildNeeds) {
        assert_true(cpu_refusal(CpuBuildNeeds, 0, expected + strlen(expected), sizeof expected - strlen(expected)));
        assert_true(eng_read_line(&e, line, sizeof line, eng_slow(5000)));
        assert_string_equal(line, expected);
        assert_int_equal(eng_wait(&e, eng_slow(5000)), 1);
    } else { /* the x86-64 baseline build needs nothing to hide */
        eng_send(&e, "uci");
        eng_expect(&e, "uciok", eng_slow(5000), NULL, 0);
        eng_send(&e, "quit");
        assert_int_equal(eng_wait(&e, eng_slow(5000)), 0);
    }
    eng_finish(&e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_feature_names),
        cmocka_unit_test(test_refusal_line),
        cmocka_unit_test(test_hide_hook),
        cmocka_unit_test(test_binary_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
