// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Zobrist hashing: one random key per (piece, square) and one for Black to
 * move. Keys come from a fixed-seed generator so every build agrees. */
#include "types.h"

extern Key ZobristPiece[PIECE_NB][SQUARE_NB];
extern Key ZobristSide;

/* Fill the key tables; called once by engine_init(). */
void zobrist_init(void);

/* splitmix64 step: the project's one deterministic PRNG. */
uint64_t prng_next(uint64_t *state);
