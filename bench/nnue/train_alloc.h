// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The trainer's float arrays. The large ones (parameters, Adam moments, one
 * gradient per thread: 7.7 MB each for a 256-unit king-bucket net) are read
 * a row at a time at random, so with 4 KB pages nearly every row access
 * misses the TLB; on Linux they are aligned to 2 MB and marked for
 * transparent huge pages (a hint: the system may ignore it).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

enum { TRAIN_HUGE_PAGE = 2 << 20 };

/* 64-byte aligned floats (free() releases them), zeroed. */
static inline float *train_alloc_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    if (!bytes) bytes = 64;
    size_t align = 64;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= TRAIN_HUGE_PAGE) {
        align = TRAIN_HUGE_PAGE;
        bytes = (bytes + TRAIN_HUGE_PAGE - 1) / TRAIN_HUGE_PAGE * TRAIN_HUGE_PAGE;
    }
#endif
    float *p = aligned_alloc(align, bytes);
    if (!p) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == TRAIN_HUGE_PAGE) madvise(p, bytes, MADV_HUGEPAGE); /* before the first touch */
#endif
    memset(p, 0, bytes);
    return p;
}
