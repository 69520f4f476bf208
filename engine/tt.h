// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Transposition table: one shared table of 64-byte buckets, each holding
 * TT_BUCKET_SIZE entries of 12 bytes (plus 4 bytes of padding):
 *
 *   bytes 0-3   key32     low 32 bits of the Zobrist key (the bucket index
 *                         comes from the high bits, so together they check
 *                         far more than 32 bits)
 *   bytes 4-5   move      best or refutation move (validated before use)
 *   bytes 6-7   score     search score, mate scores counted from this node
 *   bytes 8-9   eval      static evaluation, SCORE_NONE when in check
 *   byte  10    depth     draft + TT_DEPTH_OFFSET (0 = empty entry)
 *   byte  11    genbound  generation in bits 3-7, PV flag in bit 2, Bound
 *                         in bits 0-1 (the PV flag: the position was on
 *                         or near a principal variation when stored)
 *
 * Threads read and write entries without locks; a torn entry can at worst
 * give a wrong score or an illegal move, and moves are always checked.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "move.h"
#include "score.h"
#include "search.h"
#include "types.h"

enum { TT_BUCKET_SIZE = 5, TT_DEPTH_OFFSET = 8, TT_PV_BIT = 4, TT_GEN_STEP = 8, TT_GEN_MASK = 0xF8 };

typedef struct {
    uint32_t key32;
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t genbound;
} TTEntry;

typedef struct {
    TTEntry entry[TT_BUCKET_SIZE];
    uint8_t padding[4];
} TTBucket;

typedef struct {
    bool found;
    Move move;
    Score score; /* already adjusted to the probing node's ply */
    Score eval;
    Depth depth;
    Bound bound;
    bool pv;
} TTHit;

/* Allocate a table of `mb` megabytes (at least one bucket); false and the
 * old table kept if the memory cannot be had. */
bool tt_resize(size_t mb);
/* Zero every entry. */
void tt_clear(void);
/* Free the table (shutdown). */
void tt_free(void);
/* Start a new search: entries of older generations become replaceable. */
void tt_new_search(void);
/* Look key up; fills hit (scores adjusted to ply). Returns whether found. */
bool tt_probe(Key key, int ply, TTHit *hit);
/* Store a result for key; the move is kept when the new one is MOVE_NONE
 * and the key matches. `pv` marks a principal-variation node. */
void tt_store(Key key, int ply, Move move, Score score, Score eval, Depth depth, Bound bound, bool pv);
/* Bring key's bucket into the cache ahead of the probe. */
void tt_prefetch(Key key);
/* Per mille of sampled entries written in the current generation. */
int tt_hashfull(void);

/* Mate and table scores are stored relative to the node, not the root. */
static inline Score score_to_tt(Score s, int ply) {
    return s >= SCORE_TB_WIN_IN_MAX ? s + ply : s <= -SCORE_TB_WIN_IN_MAX ? s - ply : s;
}
static inline Score score_from_tt(Score s, int ply) {
    return s >= SCORE_TB_WIN_IN_MAX ? s - ply : s <= -SCORE_TB_WIN_IN_MAX ? s + ply : s;
}
