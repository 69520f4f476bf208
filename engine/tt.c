// SPDX-License-Identifier: GPL-3.0-or-later
#include "tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys.h"

_Static_assert(sizeof(TTEntry) == 12, "TT entry layout");
_Static_assert(sizeof(TTBucket) == 64, "TT bucket is one cache line");

static struct {
    TTBucket *buckets; /* sys_large_alloc's: zero, page aligned */
    uint64_t count;
    uint8_t generation;
} TT;

static inline TTBucket *bucket_of(Key key) {
    return &TT.buckets[(uint64_t)(((unsigned __int128)key * TT.count) >> 64)];
}

/* Zeroed memory for `count` buckets: fresh pages, so a big table costs no
 * time until it is used, on huge pages where the system has them (a probe
 * lands anywhere in the table: with 4 kB pages nearly every one missed the
 * TLB, and prefetch and probe stood out in a profile of `bench`). */
static bool allocate(uint64_t count) {
    if (count > SIZE_MAX / sizeof(TTBucket)) return false;
    TTBucket *buckets = sys_large_alloc((size_t)count * sizeof(TTBucket));
    if (!buckets) return false;
    sys_large_free(TT.buckets, (size_t)TT.count * sizeof(TTBucket));
    TT.buckets = buckets;
    TT.count = count;
    return true;
}

bool tt_resize(size_t mb) {
    if (mb > SIZE_MAX / (1024 * 1024) / 2) return false;
    uint64_t count = (uint64_t)mb * 1024 * 1024 / sizeof(TTBucket);
    if (count < 1) count = 1;
    if (!allocate(count)) return false;
    TT.generation = 0;
    return true;
}

void tt_clear(void) {
    /* A fresh allocation is cheaper than touching every page of a big table. */
    if (TT.buckets && !allocate(TT.count)) memset(TT.buckets, 0, TT.count * sizeof(TTBucket));
    TT.generation = 0;
}

void tt_free(void) {
    sys_large_free(TT.buckets, (size_t)TT.count * sizeof(TTBucket));
    TT.buckets = NULL;
    TT.count = 0;
}

void tt_new_search(void) { TT.generation = (uint8_t)(TT.generation + TT_GEN_STEP); }

void tt_prefetch(Key key) { __builtin_prefetch(bucket_of(key)); }

bool tt_probe(Key key, int ply, TTHit *hit) {
    TTEntry *e = bucket_of(key)->entry;
    uint32_t key32 = (uint32_t)key;
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        if (e[i].key32 != key32 || !e[i].depth) continue;
        /* Refresh the age so the entry survives this search. */
        e[i].genbound = (uint8_t)(TT.generation | (e[i].genbound & (TT_PV_BIT | 3)));
        hit->found = true;
        hit->move = e[i].move;
        hit->score = score_from_tt(e[i].score, ply);
        hit->eval = e[i].eval;
        hit->depth = e[i].depth - TT_DEPTH_OFFSET;
        hit->bound = (Bound)(e[i].genbound & 3);
        hit->pv = (e[i].genbound & TT_PV_BIT) != 0;
        return true;
    }
    hit->found = false;
    hit->move = MOVE_NONE;
    hit->score = hit->eval = SCORE_NONE;
    hit->depth = -TT_DEPTH_OFFSET;
    hit->bound = BOUND_NONE;
    hit->pv = false;
    return false;
}

/* Replacement value: deep and recent entries are worth keeping. */
static inline int entry_worth(const TTEntry *e) {
    int age = (uint8_t)(TT.generation - (e->genbound & TT_GEN_MASK)) / TT_GEN_STEP;
    return e->depth - 4 * age;
}

void tt_store(Key key, int ply, Move move, Score score, Score eval, Depth depth, Bound bound, bool pv) {
    TTEntry *e = bucket_of(key)->entry;
    uint32_t key32 = (uint32_t)key;
    TTEntry *slot = &e[0];
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        if (e[i].key32 == key32 || !e[i].depth) {
            slot = &e[i];
            break;
        }
        if (entry_worth(&e[i]) < entry_worth(slot)) slot = &e[i];
    }
    bool same = slot->key32 == key32 && slot->depth;
    if (move != MOVE_NONE || !same) slot->move = move;
    /* Keep a deeper result for the same position unless the new one is exact. */
    if (same && bound != BOUND_EXACT && depth + TT_DEPTH_OFFSET + 3 < slot->depth &&
        (slot->genbound & TT_GEN_MASK) == TT.generation)
        return;
    slot->key32 = key32;
    slot->score = (int16_t)score_to_tt(score, ply);
    slot->eval = (int16_t)eval;
    int d = depth + TT_DEPTH_OFFSET;
    slot->depth = (uint8_t)(d < 1 ? 1 : d > 255 ? 255 : d);
    slot->genbound = (uint8_t)(TT.generation | (pv ? TT_PV_BIT : 0) | bound);
}

int tt_hashfull(void) {
    if (!TT.buckets) return 0;
    int used = 0, sampled = 0;
    for (uint64_t b = 0; b < TT.count && sampled < 1000; b++)
        for (int i = 0; i < TT_BUCKET_SIZE; i++, sampled++)
            used += TT.buckets[b].entry[i].depth && (TT.buckets[b].entry[i].genbound & TT_GEN_MASK) == TT.generation;
    return sampled ? used * 1000 / sampled : 0;
}
