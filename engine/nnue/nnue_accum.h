// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Accumulators: per search thread, a stack indexed by game ply (modulo
 * NNUE_STACK_SIZE), each entry holding both perspectives' H units and the
 * key of the position each was computed for.
 *
 * Updates are lazy and make/unmake know nothing of them: an entry is valid
 * for a perspective when its stored key equals the position's key at that
 * ply (same key, same board). When evaluate() finds the current entry
 * stale, nnue_stack_update() walks back through the position's history
 * (undoing the moves on a copy of the mailbox to learn which piece moved)
 * until it meets a valid ancestor, then replays the moves forward with
 * incremental updates, storing every intermediate entry. A perspective whose
 * own king moved on the way (king buckets), or with no valid ancestor within
 * NNUE_MAX_WALK plies, is refreshed from scratch instead.
 */
#include "nnue_net.h"
#include "position.h"

enum {
    NNUE_STACK_SIZE = 256, /* a power of two above the deepest search line */
    NNUE_MAX_WALK = 12,    /* farther ancestors cost more than a refresh */
};

typedef struct NnueStack {
    _Alignas(64) int16_t acc[NNUE_STACK_SIZE][COLOR_NB][NNUE_HIDDEN_MAX];
    Key key[NNUE_STACK_SIZE][COLOR_NB]; /* position key each accumulator is for */
    uint32_t net_id;                    /* the net the entries were computed with */
} NnueStack;

static inline int nnue_slot(int game_ply) { return game_ply & (NNUE_STACK_SIZE - 1); }

/* Forget every entry (a new net). */
void nnue_stack_reset(NnueStack *st, uint32_t net_id);
/* Make both accumulators of pos's current ply valid in st. */
void nnue_stack_update(NnueStack *st, const NnueNet *net, const Position *pos);
/* Perspective c's accumulator of pos, computed from scratch into acc. */
void nnue_refresh(const NnueNet *net, const Position *pos, Color c, int16_t *acc);
