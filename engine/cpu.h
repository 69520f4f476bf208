// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Refusing to start on a CPU that lacks an instruction set the build uses:
 * one clear line ("this build needs AVX2; use the x86-64 build") and exit
 * status 1 instead of dying with SIGILL somewhere later.
 *
 * cpu_needs.c is compiled like the rest of the engine and records, from the
 * compiler's predefined macros, what the build may use. cpu_check.c and
 * main.c are compiled for the x86-64 baseline (engine/CMakeLists.txt), and
 * cpu_check.c runs the check from a constructor that goes before every
 * other one (eval.c fills its tables in a constructor, possibly with AVX2).
 * On mingw-w64 constructors run from main's first call, hence main.c too.
 *
 * TUONG_HIDE_CPU_FEATURES=avx2,bmi2 (names as below, any case, or "all")
 * makes the CPU look as if it lacked them: the test hook for the refusal.
 */
#include <stdbool.h>
#include <stddef.h>

/* Features beyond the x86-64 baseline (SSE2) a build may need. */
enum {
    CPU_SSE3 = 1u << 0,
    CPU_SSSE3 = 1u << 1,
    CPU_SSE41 = 1u << 2,
    CPU_SSE42 = 1u << 3,
    CPU_POPCNT = 1u << 4,
    CPU_AVX = 1u << 5,
    CPU_AVX2 = 1u << 6,
    CPU_FMA = 1u << 7,
    CPU_BMI = 1u << 8,
    CPU_BMI2 = 1u << 9,
    CPU_LZCNT = 1u << 10,
    CPU_MOVBE = 1u << 11,
    CPU_F16C = 1u << 12,
    CPU_AVX512F = 1u << 13,
    CPU_AVX512CD = 1u << 14,
    CPU_AVX512BW = 1u << 15,
    CPU_AVX512DQ = 1u << 16,
    CPU_AVX512VL = 1u << 17,
    CPU_AVX512VNNI = 1u << 18,
    CPU_AVX512VBMI = 1u << 19,
    CPU_AVX512VBMI2 = 1u << 20,
    CPU_AVX512IFMA = 1u << 21,
    CPU_AVX512BITALG = 1u << 22,
    CPU_AVX512VPOPCNTDQ = 1u << 23,
};

/* What the avx2 build (-march=x86-64-v3) needs. */
enum {
    CPU_AVX2_BUILD = CPU_SSE3 | CPU_SSSE3 | CPU_SSE41 | CPU_SSE42 | CPU_POPCNT | CPU_AVX | CPU_AVX2 | CPU_FMA | CPU_BMI |
                     CPU_BMI2 | CPU_LZCNT | CPU_MOVBE | CPU_F16C
};

/* The features this build was compiled to use (cpu_needs.c). */
extern const unsigned CpuBuildNeeds;

/* The features this CPU and its OS offer, less the hidden ones; every
 * feature on a machine that is not x86-64. */
unsigned cpu_features(void);
/* The most telling feature in needs but not in have ("AVX2"), NULL if none. */
const char *cpu_missing(unsigned needs, unsigned have);
/* The refusal line, without newline, for a CPU offering have; false (and
 * text untouched) if the build runs there. */
bool cpu_refusal(unsigned needs, unsigned have, char *text, size_t size);
/* Print the refusal line to stderr and exit 1 if this CPU cannot run the
 * build; main calls it first (it also links the constructor in). */
void cpu_require(void);
