// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The moves of one PGN game from their tokens, in a notation the caller
 * names or, with NOTATION_AUTO, in the one of ICCS, WXF and Vietnamese that
 * reads every token (detected per game: a collection may mix them).
 */
#include <stdbool.h>

#include "move.h"
#include "pgn_notation.h"

enum { PGN_DECODE_ERROR_MAX = 256 };

typedef struct {
    Notation notation;                /* the one that read the game (or came furthest) */
    int ply_count;                    /* tokens read into moves */
    char error[PGN_DECODE_ERROR_MAX]; /* on failure: the move number, side, token and reason */
} PgnDecoded;

/* Decode count tokens of a game from fen ("" for the start position) into
 * moves (room for count). False with the reason in d->error. */
bool pgn_decode(const char *fen, const char *const *tokens, int count, Notation n, Move *moves, PgnDecoded *d);
