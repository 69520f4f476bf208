// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Perft hash table: the leaf count of a subtree, keyed by the Zobrist key of
 * its root position and its depth. Perft counts depend on nothing else (no
 * history, no repetition), so an entry stays valid for every later perft of
 * any position, at any root depth.
 *
 * A bucket is one 64-byte cache line of PERFT_BUCKET_SIZE entries of two
 * 64-bit words:
 *
 *   data   bits 8-63  leaf count (counts of 2^56 and more are not stored)
 *          bits 0-7   depth (0 = empty entry; stored depths are >= 2)
 *   check  key ^ data
 *
 * Threads read and write the words without locks (relaxed atomics). An
 * entry torn by two concurrent writes pairs the check of one with the data
 * of the other, so check ^ data no longer gives the probed key and the
 * probe misses: a torn entry costs a recount, never a wrong count. A hit
 * needs all 64 key bits and the depth to match; the bucket index uses the
 * low key bits.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { PERFT_BUCKET_SIZE = 4, PERFT_COUNT_SHIFT = 8 };

typedef struct {
    _Atomic uint64_t check, data;
} PerftEntry;

typedef struct {
    PerftEntry entry[PERFT_BUCKET_SIZE];
} PerftBucket;

typedef struct {
    PerftBucket *buckets; /* NULL: no table (every probe misses) */
    uint64_t mask;        /* bucket count - 1, a power of two minus one */
} PerftTable;

/* Allocate a zeroed table of at most `bytes` (the largest power of two of
 * buckets that fits, at least one bucket; on huge pages where the system
 * has them); false, and t untouched, if the memory cannot be had. */
bool perft_table_init(PerftTable *t, size_t bytes);
/* Release the table (safe on a zeroed or failed table). */
void perft_table_free(PerftTable *t);
/* The stored count of (key, depth), if there is one. */
bool perft_table_probe(const PerftTable *t, Key key, int depth, uint64_t *count);
/* Start loading the bucket of key into the cache. */
static inline void perft_table_prefetch(const PerftTable *t, Key key) {
    if (t->buckets) __builtin_prefetch(&t->buckets[key & t->mask]);
}
/* Store a count, replacing the bucket's entry of least depth. */
void perft_table_store(PerftTable *t, Key key, int depth, uint64_t count);
