// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Opening book for matches: one position per line of an EPD or FEN file.
 * A line holds the board, the side to move and optionally the castling,
 * en-passant and counter fields; anything from a ';' on (EPD operations) is
 * ignored, as are blank lines and lines starting with '#'. Every position
 * is validated with the engine's FEN parser.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fen.h"

typedef struct {
    char (*fens)[FEN_MAX];
    int count;
} OpeningBook;

/* Load path; on failure returns false with "file:line: reason" in err. */
bool openings_load(OpeningBook *book, const char *path, char *err, size_t errlen);
/* A book of the start position alone. */
void openings_startpos(OpeningBook *book);
void openings_free(OpeningBook *book);
/* Shuffle the order with the project's PRNG (reproducible for a seed). */
void openings_shuffle(OpeningBook *book, uint64_t seed);
