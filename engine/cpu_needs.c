// SPDX-License-Identifier: GPL-3.0-or-later
/* Compiled with the engine's flags: the compiler's macros say which
 * instruction sets the build may use. Data only, no code to run. */
#include "cpu.h"

const unsigned CpuBuildNeeds = 0
#ifdef __SSE3__
                               | CPU_SSE3
#endif
#ifdef __SSSE3__
                               | CPU_SSSE3
#endif
#ifdef __SSE4_1__
                               | CPU_SSE41
#endif
#ifdef __SSE4_2__
                               | CPU_SSE42
#endif
#ifdef __POPCNT__
                               | CPU_POPCNT
#endif
#ifdef __AVX__
                               | CPU_AVX
#endif
#ifdef __AVX2__
                               | CPU_AVX2
#endif
#ifdef __FMA__
                               | CPU_FMA
#endif
#ifdef __BMI__
                               | CPU_BMI
#endif
#ifdef __BMI2__
                               | CPU_BMI2
#endif
#ifdef __LZCNT__
                               | CPU_LZCNT
#endif
#ifdef __MOVBE__
                               | CPU_MOVBE
#endif
#ifdef __F16C__
                               | CPU_F16C
#endif
#ifdef __AVX512F__
                               | CPU_AVX512F
#endif
#ifdef __AVX512CD__
                               | CPU_AVX512CD
#endif
#ifdef __AVX512BW__
                               | CPU_AVX512BW
#endif
#ifdef __AVX512DQ__
                               | CPU_AVX512DQ
#endif
#ifdef __AVX512VL__
                               | CPU_AVX512VL
#endif
#ifdef __AVX512VNNI__
                               | CPU_AVX512VNNI
#endif
#ifdef __AVX512VBMI__
                               | CPU_AVX512VBMI
#endif
#ifdef __AVX512VBMI2__
                               | CPU_AVX512VBMI2
#endif
#ifdef __AVX512IFMA__
                               | CPU_AVX512IFMA
#endif
#ifdef __AVX512BITALG__
                               | CPU_AVX512BITALG
#endif
#ifdef __AVX512VPOPCNTDQ__
                               | CPU_AVX512VPOPCNTDQ
#endif
    ;
