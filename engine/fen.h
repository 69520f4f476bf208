// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * FEN as UCCI and Pikafish write it: ranks 9 down to 0, files a..i, digits
 * for empty runs, upper case Red. Side `w`/`r` (Red) or `b`; letters
 * KABNRCP plus E (elephant) and H (horse). The castling/en-passant fields
 * and the move counters are optional.
 */
#include <stdbool.h>
#include <stddef.h>

#include "position.h"

#define START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

enum { FEN_MAX = 128 };

/* Parse and validate; on failure pos is untouched and err holds the reason. */
bool fen_parse(Position *pos, const char *fen, char *err, size_t errlen);
/* Write the FEN of pos into buf (at least FEN_MAX bytes); returns buf. */
char *fen_write(const Position *pos, char *buf);
/* Can a piece of type t and colour c ever stand on s? (The palace, the
 * elephants' and advisors' points, pawns not behind their start.) */
bool piece_point_reachable(PieceType t, Color c, Square s);
