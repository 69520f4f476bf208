// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Move text. ICCS squares are a file letter a..i and a rank digit 0..9
 * ("h2e2"). The Fairy-Stockfish UCI convention numbers ranks 1..10
 * ("h3e3", "a10a9"); every function takes the rank base (0 or 1).
 */
#include <stddef.h>

#include "move.h"
#include "position.h"

enum { MOVE_TEXT_MAX = 8 };

/* Write m as text into buf (at least MOVE_TEXT_MAX bytes); returns buf. */
char *move_to_text(Move m, int rank_base, char *buf);
/* Parse the syntax only: returns the move, or MOVE_NONE for malformed text. */
Move move_from_text(const char *text, int rank_base);
/* Parse and check legality in pos: returns MOVE_NONE with a message in err. */
Move move_parse_legal(const Position *pos, const char *text, int rank_base, char *err, size_t errlen);
