// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Random networks in the engine's file format for the NNUE tests, built
 * without the trainer: ft weights and biases spread so that accumulators
 * land below 0, inside 0..QA and above it, output weights within +-127.
 * Header-only (static functions).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnue/nnue_arch.h"

typedef struct {
    unsigned char *bytes;
    size_t size;
} TestNet;

static inline uint64_t testnet_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline int testnet_range(uint64_t *s, int lo, int hi) {
    /* hi - lo in 64 bits: the dense tests draw biases from +-2^30 */
    return (int)(lo + (int64_t)(testnet_rand(s) % (uint64_t)((int64_t)hi - lo + 1)));
}

static inline void testnet_u32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void testnet_i16(unsigned char *p, int v) {
    p[0] = (unsigned char)((uint16_t)v & 0xFF);
    p[1] = (unsigned char)((uint16_t)v >> 8);
}

/* A valid random net of this shape (free net.bytes). */
static inline TestNet testnet_make(int feature_set, int hidden, int out_buckets, uint64_t seed) {
    uint64_t s = seed;
    size_t payload = nnue_payload_size(feature_set, hidden, out_buckets);
    TestNet n = {malloc(NNUE_HEADER_SIZE + payload), NNUE_HEADER_SIZE + payload};
    unsigned char *p = n.bytes + NNUE_HEADER_SIZE;
    size_t ft = (size_t)nnue_input_count(feature_set) * (size_t)hidden;
    for (size_t i = 0; i < ft; i++, p += 2)
        testnet_i16(p, testnet_range(&s, -40, 44));
    for (int i = 0; i < hidden; i++, p += 2)
        testnet_i16(p, testnet_range(&s, -60, 120));
    for (int i = 0; i < out_buckets * 2 * hidden; i++, p += 2)
        testnet_i16(p, testnet_range(&s, -127, 127));
    for (int i = 0; i < out_buckets; i++, p += 4)
        testnet_u32(p, (uint32_t)testnet_range(&s, -2000000, 2000000));
    memcpy(n.bytes, NNUE_MAGIC, 8);
    const uint32_t fields[8] = {NNUE_VERSION,
                                (uint32_t)feature_set,
                                (uint32_t)hidden,
                                (uint32_t)out_buckets,
                                NNUE_QA,
                                NNUE_QB,
                                NNUE_SCALE_DEFAULT,
                                nnue_fnv1a(NNUE_FNV_SEED, n.bytes + NNUE_HEADER_SIZE, payload)};
    for (int i = 0; i < 8; i++)
        testnet_u32(n.bytes + 8 + 4 * i, fields[i]);
    return n;
}

/* Recompute the header's payload hash after editing the bytes. */
static inline void testnet_rehash(TestNet *n) {
    testnet_u32(n->bytes + 36, nnue_fnv1a(NNUE_FNV_SEED, n->bytes + NNUE_HEADER_SIZE, n->size - NNUE_HEADER_SIZE));
}

/* Write bytes to a fresh temporary file; its path goes to path (size 64). */
static inline void testnet_write(const unsigned char *bytes, size_t size, char *path) {
    strcpy(path, "/tmp/tuong-nnue-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = '\0';
        return;
    }
    FILE *f = fdopen(fd, "wb");
    if (f) {
        fwrite(bytes, 1, size, f);
        fclose(f);
    }
}
