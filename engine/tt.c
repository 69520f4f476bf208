// SPDX-License-Identifier: GPL-3.0-or-later
#include "tt.h"

#include <pthread.h>
#include <stdbool.h>
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

/* tt_clear writes over the table, by several threads when it is large.
 * Writing a fresh table's pages at once (`setoption Hash`, `ucinewgame`)
 * takes their faults out of the first search (on the development machine
 * about 1.5 ms a 2 MB huge page: a 1 GB table left to fault under the
 * search took 1.7 s to depth 10 where one written in advance takes 0.02 s),
 * and a table already in memory is cleared far faster by writing over it
 * (about 20 GB a second) than by mapping it afresh and faulting again. */
enum { ZERO_SLICE_MIN = 64 << 20, ZERO_THREADS_MAX = 64 };

typedef struct {
    unsigned char *p;
    size_t len;
} ZeroSlice;

static void *zero_slice(void *arg) {
    ZeroSlice *z = arg;
    memset(z->p, 0, z->len);
    return NULL;
}

static void zero_table(void) {
    size_t size = (size_t)TT.count * sizeof(TTBucket);
    long cpus = sys_cpu_count();
    size_t n = size / ZERO_SLICE_MIN, most = cpus > 0 ? (size_t)cpus : 1;
    if (most > ZERO_THREADS_MAX) most = ZERO_THREADS_MAX;
    if (n > most) n = most;
    if (n < 1) n = 1;
    size_t per = (size + n - 1) / n;
    ZeroSlice z[ZERO_THREADS_MAX];
    pthread_t th[ZERO_THREADS_MAX];
    bool started[ZERO_THREADS_MAX] = {false};
    for (size_t i = 0; i < n; i++) {
        size_t at = i * per;
        z[i] = (ZeroSlice){(unsigned char *)TT.buckets + at, at < size ? (size - at < per ? size - at : per) : 0};
        if (i > 0) started[i] = pthread_create(&th[i], NULL, zero_slice, &z[i]) == 0;
    }
    zero_slice(&z[0]);
    for (size_t i = 1; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
        else
            zero_slice(&z[i]); /* no thread to be had: this one does it */
}

/* Zeroed memory for `count` buckets, on huge pages where the system has
 * them (a probe lands anywhere in the table: with 4 kB pages nearly every
 * one missed the TLB, and prefetch and probe stood out in a profile of
 * `bench`). Its pages are not touched here: a process that never searches
 * (`tuong perft`, a tool's engine that is only asked `uci`) never pays for
 * them; tt_clear writes them through. */
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
    if (TT.buckets) zero_table();
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
