// SPDX-License-Identifier: GPL-3.0-or-later
#include "perft_table.h"

#include <string.h>

#include "sys.h"

enum { CACHE_LINE = 64, DEPTH_MASK = 0xFF };

_Static_assert(sizeof(PerftBucket) == CACHE_LINE, "a perft bucket fills one cache line");

bool perft_table_init(PerftTable *t, size_t bytes) {
    size_t count = 1;
    while (count <= SIZE_MAX / 2 / sizeof(PerftBucket) && count * 2 * sizeof(PerftBucket) <= bytes)
        count *= 2;
    size_t size = count * sizeof(PerftBucket);
    /* Probes land anywhere in the table: on huge pages (sys_large_alloc)
     * they miss the TLB far less, and touching every page here keeps the
     * page faults out of the count. */
    void *memory = sys_large_alloc(size);
    if (!memory) return false;
    memset(memory, 0, size);
    perft_table_free(t);
    t->buckets = memory;
    t->mask = count - 1;
    return true;
}

void perft_table_free(PerftTable *t) {
    if (t->buckets) sys_large_free(t->buckets, (size_t)(t->mask + 1) * sizeof(PerftBucket));
    t->buckets = NULL;
    t->mask = 0;
}

bool perft_table_probe(const PerftTable *t, Key key, int depth, uint64_t *count) {
    if (!t->buckets) return false;
    PerftBucket *b = &t->buckets[key & t->mask];
    for (int i = 0; i < PERFT_BUCKET_SIZE; i++) {
        uint64_t data = atomic_load_explicit(&b->entry[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b->entry[i].check, memory_order_relaxed);
        if ((data & DEPTH_MASK) == (uint64_t)depth && (check ^ data) == key) {
            *count = data >> PERFT_COUNT_SHIFT;
            return true;
        }
    }
    return false;
}

void perft_table_store(PerftTable *t, Key key, int depth, uint64_t count) {
    if (!t->buckets || count >> (64 - PERFT_COUNT_SHIFT) || depth <= 0 || depth > DEPTH_MASK) return;
    PerftBucket *b = &t->buckets[key & t->mask];
    int victim = 0;
    uint64_t least = DEPTH_MASK + 1;
    for (int i = 0; i < PERFT_BUCKET_SIZE; i++) {
        uint64_t data = atomic_load_explicit(&b->entry[i].data, memory_order_relaxed);
        uint64_t d = data & DEPTH_MASK;
        /* Another thread counted the same subtree: one copy is enough. */
        if (d == (uint64_t)depth && (atomic_load_explicit(&b->entry[i].check, memory_order_relaxed) ^ data) == key)
            return;
        if (d < least) {
            least = d;
            victim = i;
        }
    }
    uint64_t data = count << PERFT_COUNT_SHIFT | (uint64_t)depth;
    atomic_store_explicit(&b->entry[victim].data, data, memory_order_relaxed);
    atomic_store_explicit(&b->entry[victim].check, key ^ data, memory_order_relaxed);
}
