// SPDX-License-Identifier: GPL-3.0-or-later
/* Compiled for the x86-64 baseline whatever the build's target (see cpu.h):
 * nothing here may need the instructions it checks for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define CPU_X86 1
#endif

/* Most telling first: a CPU without AVX lacks AVX2 too, and "needs AVX2"
 * is what a user can look up. */
static const struct {
    unsigned bit;
    const char *name;
} Features[] = {
    {CPU_AVX512F, "AVX512F"},
    {CPU_AVX512BW, "AVX512BW"},
    {CPU_AVX512DQ, "AVX512DQ"},
    {CPU_AVX512VL, "AVX512VL"},
    {CPU_AVX512CD, "AVX512CD"},
    {CPU_AVX512VNNI, "AVX512VNNI"},
    {CPU_AVX512VBMI, "AVX512VBMI"},
    {CPU_AVX512VBMI2, "AVX512VBMI2"},
    {CPU_AVX512IFMA, "AVX512IFMA"},
    {CPU_AVX512BITALG, "AVX512BITALG"},
    {CPU_AVX512VPOPCNTDQ, "AVX512VPOPCNTDQ"},
    {CPU_AVX2, "AVX2"},
    {CPU_AVX, "AVX"},
    {CPU_BMI2, "BMI2"},
    {CPU_FMA, "FMA"},
    {CPU_BMI, "BMI"},
    {CPU_LZCNT, "LZCNT"},
    {CPU_MOVBE, "MOVBE"},
    {CPU_F16C, "F16C"},
    {CPU_SSE42, "SSE4.2"},
    {CPU_POPCNT, "POPCNT"},
    {CPU_SSE41, "SSE4.1"},
    {CPU_SSSE3, "SSSE3"},
    {CPU_SSE3, "SSE3"},
};
enum { FEATURE_COUNT = sizeof Features / sizeof Features[0] };

/* The features named in TUONG_HIDE_CPU_FEATURES (the test hook). */
static unsigned hidden(void) {
    const char *p = getenv("TUONG_HIDE_CPU_FEATURES");
    unsigned mask = 0;
    while (p && *p) {
        size_t n = strcspn(p, ", ");
        if (n == 3 && !strncasecmp(p, "all", 3)) mask = ~0u;
        for (int i = 0; i < FEATURE_COUNT; i++)
            if (strlen(Features[i].name) == n && !strncasecmp(p, Features[i].name, n)) mask |= Features[i].bit;
        p += n;
        p += strspn(p, ", ");
    }
    return mask;
}

#ifdef CPU_X86
/* What the CPU offers and the OS has enabled (__builtin_cpu_supports checks
 * that the OS saves the AVX registers); the builtins know no LZCNT, MOVBE
 * or F16C, so those come from CPUID. */
static unsigned detect(void) {
    __builtin_cpu_init(); /* we may run before libgcc's own constructor */
    unsigned f = 0;
    f |= __builtin_cpu_supports("sse3") ? CPU_SSE3 : 0;
    f |= __builtin_cpu_supports("ssse3") ? CPU_SSSE3 : 0;
    f |= __builtin_cpu_supports("sse4.1") ? CPU_SSE41 : 0;
    f |= __builtin_cpu_supports("sse4.2") ? CPU_SSE42 : 0;
    f |= __builtin_cpu_supports("popcnt") ? CPU_POPCNT : 0;
    f |= __builtin_cpu_supports("avx") ? CPU_AVX : 0;
    f |= __builtin_cpu_supports("avx2") ? CPU_AVX2 : 0;
    f |= __builtin_cpu_supports("fma") ? CPU_FMA : 0;
    f |= __builtin_cpu_supports("bmi") ? CPU_BMI : 0;
    f |= __builtin_cpu_supports("bmi2") ? CPU_BMI2 : 0;
    f |= __builtin_cpu_supports("avx512f") ? CPU_AVX512F : 0;
    f |= __builtin_cpu_supports("avx512cd") ? CPU_AVX512CD : 0;
    f |= __builtin_cpu_supports("avx512bw") ? CPU_AVX512BW : 0;
    f |= __builtin_cpu_supports("avx512dq") ? CPU_AVX512DQ : 0;
    f |= __builtin_cpu_supports("avx512vl") ? CPU_AVX512VL : 0;
    f |= __builtin_cpu_supports("avx512vnni") ? CPU_AVX512VNNI : 0;
    f |= __builtin_cpu_supports("avx512vbmi") ? CPU_AVX512VBMI : 0;
    f |= __builtin_cpu_supports("avx512vbmi2") ? CPU_AVX512VBMI2 : 0;
    f |= __builtin_cpu_supports("avx512ifma") ? CPU_AVX512IFMA : 0;
    f |= __builtin_cpu_supports("avx512bitalg") ? CPU_AVX512BITALG : 0;
    f |= __builtin_cpu_supports("avx512vpopcntdq") ? CPU_AVX512VPOPCNTDQ : 0;
    unsigned a, b, c, d;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        f |= c & bit_MOVBE ? CPU_MOVBE : 0;
        f |= (c & bit_F16C) && (f & CPU_AVX) ? CPU_F16C : 0;
    }
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d)) f |= c & bit_LZCNT ? CPU_LZCNT : 0;
    return f;
}
#else
static unsigned detect(void) { return ~0u; }
#endif

unsigned cpu_features(void) { return detect() & ~hidden(); }

const char *cpu_missing(unsigned needs, unsigned have) {
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (needs & ~have & Features[i].bit) return Features[i].name;
    return NULL;
}

bool cpu_refusal(unsigned needs, unsigned have, char *text, size_t size) {
    const char *missing = cpu_missing(needs, have);
    if (!missing) return false;
    bool avx2_runs = !cpu_missing(CPU_AVX2_BUILD, have);
    snprintf(text, size, "this build needs %s; use the %s build", missing, avx2_runs ? "avx2" : "x86-64");
    return true;
}

void cpu_require(void) {
    char text[128];
    if (!cpu_refusal(CpuBuildNeeds, cpu_features(), text, sizeof text)) return;
    fprintf(stderr, "tuong: error: %s\n", text);
    exit(1);
}

/* Before every unprioritised constructor (101 is the first one programs may
 * use), so before any code built for the target instruction sets. */
__attribute__((constructor(101))) static void cpu_require_at_start(void) { cpu_require(); }
