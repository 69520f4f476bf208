// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Move text of the PGN tools in each notation they know: ICCS (`h2e2`, also
 * `H2-E2` as xiangqi databases write it), WXF (`C2.5`, `H8+7`, `R+.4`) and
 * Vietnamese (`P2-5`, `M8.7`, `Xs-2`; engine/notation_vn.h).
 */
#include <stdbool.h>
#include <stddef.h>

#include "move.h"
#include "position.h"

typedef enum { NOTATION_ICCS, NOTATION_WXF, NOTATION_VN, NOTATION_AUTO } Notation;

enum { NOTATION_TEXT_MAX = 16 };

/* "iccs", "wxf", "vn" (and "auto" when auto_ok): false for another name. */
bool notation_from_name(const char *name, bool auto_ok, Notation *out);
/* "ICCS", "WXF", "Vietnamese". */
const char *notation_title(Notation n);

/* WXF text of legal move m in pos (before it is made), into buf (>= 8 bytes):
 * piece letter K A E H R C P, its file counted from the mover's right (or +/-
 * for the front/rear of two such pieces on one file), the direction + (forward),
 * - (backward) or . (sideways), and the destination file or the step count. */
char *pgn_wxf_move(const Position *pos, Move m, char *buf);

/* Text of legal move m of pos in notation n (not NOTATION_AUTO), into buf
 * (>= NOTATION_TEXT_MAX bytes). */
char *notation_move_text(Notation n, const Position *pos, Move m, char *buf);

/* How well a token reads in one notation. */
typedef enum {
    READ_FOREIGN, /* not shaped like a move of this notation */
    READ_REFUSED, /* shaped like one, but illegal, ambiguous or naming no piece */
    READ_OK
} ReadQuality;

/* Parse tok in notation n (not NOTATION_AUTO) in pos: the legal move, or
 * MOVE_NONE with the reason in err and how far it got in *quality. */
Move notation_parse(Notation n, const Position *pos, const char *tok, ReadQuality *quality, char *err, size_t errlen);
