// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Choosing one book move. The UCCI `randomness` setting says how far the
 * engine strays from the heaviest move: a move of weight w is drawn with a
 * probability proportional to w raised to the level's exponent.
 *
 *   none    the heaviest move (the first of equal weights), no chance
 *   small   w^2: the main lines, with an occasional side line
 *   medium  w:   the book's own odds (ElephantEye's and Polyglot's rule)
 *   large   w^0.5: side lines often
 *
 * A move of weight 0 is never played.
 */
#include <stdint.h>

#include "book.h"

typedef enum { BOOK_RANDOM_NONE = 0, BOOK_RANDOM_SMALL, BOOK_RANDOM_MEDIUM, BOOK_RANDOM_LARGE } BookRandomness;

#define BOOK_EXPONENT_SMALL 2.0
#define BOOK_EXPONENT_MEDIUM 1.0
#define BOOK_EXPONENT_LARGE 0.5

/* Index of the chosen move in moves, or -1 when none may be played; rng
 * is a splitmix64 state (prng_next). */
int book_pick(const BookMoves *moves, BookRandomness r, uint64_t *rng);
