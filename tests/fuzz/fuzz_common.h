// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Shared by the libFuzzer harnesses: one-time engine set-up, a check that
 * aborts (so libFuzzer records the input) with a message, and turning the
 * fuzzer's bytes into a NUL-terminated string. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"

#define FUZZ_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                                   \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

static inline void fuzz_engine_init(void) {
    static int done;
    if (!done) {
        engine_init();
        done = 1;
    }
}

/* Copy at most cap - 1 bytes of data into buf and terminate it. */
static inline void fuzz_text(const uint8_t *data, size_t size, char *buf, size_t cap) {
    size_t n = size < cap - 1 ? size : cap - 1;
    memcpy(buf, data, n);
    buf[n] = '\0';
}
