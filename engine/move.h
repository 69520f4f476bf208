// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Move encoding (16 bits):
 *
 *   15 14 | 13 ........ 7 | 6 ......... 0
 *   unused|   to square   |  from square
 *
 * MOVE_NONE is 0 (a0a0) and MOVE_NULL is 1|1<<7 (b0b0): neither is ever a
 * real move because from == to. Captures are not flagged: the board knows.
 */
#include <stdint.h>

#include "types.h"

typedef uint16_t Move;

enum { MOVE_NONE = 0, MOVE_NULL = 1 | (1 << 7) };

static inline Move make_move(Square from, Square to) { return (Move)(from | (to << 7)); }
static inline Square move_from(Move m) { return m & 0x7F; }
static inline Square move_to(Move m) { return (m >> 7) & 0x7F; }

/* A fixed-capacity list of moves. Even pseudo-legal counts stay far below
 * MAX_MOVES: every piece of a side at its most mobile gives about 120. */
typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;
