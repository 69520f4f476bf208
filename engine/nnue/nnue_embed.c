// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The embedded net: the assembler's .incbin copies the file named by
 * TUONG_NNUE_EMBED_FILE (set by CMake) into read-only data, so the build
 * needs no generated source and no extra tool (gcc, clang and mingw alike).
 * NNUE_EMBED_NAME renames the symbols (tests embed a file of their own).
 */
#include "nnue_embed.h"

#ifndef NNUE_EMBED_NAME
#define NNUE_EMBED_NAME nnue_embedded
#endif
#define EMBED_CAT2(a, b) a##b
#define EMBED_CAT(a, b) EMBED_CAT2(a, b)
#define EMBED_STR2(x) #x
#define EMBED_STR(x) EMBED_STR2(x)
#define EMBED_BEGIN EMBED_CAT(NNUE_EMBED_NAME, _begin)
#define EMBED_END EMBED_CAT(NNUE_EMBED_NAME, _end)
/* The assembler name of a C symbol ("_" in front on Mach-O and 32-bit Windows). */
#define EMBED_ASM_NAME(sym) EMBED_STR(__USER_LABEL_PREFIX__) EMBED_STR(sym)

#ifdef TUONG_NNUE_EMBED_FILE
#if defined(__APPLE__)
#define EMBED_PUSH ".const_data\n"
#define EMBED_POP ".text\n"
#elif defined(_WIN32)
#define EMBED_PUSH ".section .rdata,\"dr\"\n"
#define EMBED_POP ".text\n"
#else
#define EMBED_PUSH ".pushsection .rodata\n"
#define EMBED_POP ".popsection\n"
#endif

#define EMBED_LABEL(sym) ".globl " EMBED_ASM_NAME(sym) "\n" EMBED_ASM_NAME(sym) ":\n"

/* The file, then one zero byte so that an empty file still has an end. */
// clang-format off
__asm__(EMBED_PUSH
        ".balign 64\n"
        EMBED_LABEL(EMBED_BEGIN)
        ".incbin \"" TUONG_NNUE_EMBED_FILE "\"\n"
        EMBED_LABEL(EMBED_END)
        ".byte 0\n"
        EMBED_POP);
// clang-format on

extern const unsigned char EMBED_BEGIN[], EMBED_END[];

const unsigned char *EMBED_CAT(NNUE_EMBED_NAME, _data)(size_t *size) {
    *size = (size_t)(EMBED_END - EMBED_BEGIN);
    return *size ? EMBED_BEGIN : NULL;
}
#else
const unsigned char *EMBED_CAT(NNUE_EMBED_NAME, _data)(size_t *size) {
    *size = 0;
    return NULL;
}
#endif
