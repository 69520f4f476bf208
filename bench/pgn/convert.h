// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Rewriting PGN games in another move notation (tuong-pgn convert). */
#include <stdbool.h>
#include <stdio.h>

#include "pgn_notation.h"

enum { CONVERT_ERROR_MAX = 400 };

typedef struct {
    Notation from;                 /* the input's notation; NOTATION_AUTO: detected per game */
    Notation to;                   /* ICCS, WXF or Vietnamese */
    long games;                    /* converted so far */
    int dropped;                   /* variations and ';' comments left out */
    char error[CONVERT_ERROR_MAX]; /* why the conversion stopped: file, game, move */
} Conversion;

/* Convert every game of in (named name in messages) and write it to out:
 * the tag lines as they were (a Format tag names the new notation), the
 * moves in c->to with their comments and NAGs. False at the first game
 * that cannot be read, with c->error set; out may then hold a part. */
bool convert_pgn(FILE *in, const char *name, FILE *out, Conversion *c);
