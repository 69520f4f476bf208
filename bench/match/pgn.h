// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* PGN for xiangqi games: [Variant "xiangqi"], FEN tags for book starts,
 * ICCS, WXF or Vietnamese moves with the engine's score/depth/time as comments. */
#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "pgn_notation.h"

typedef struct {
    const char *event, *red, *black, *time_control;
    int round;
    Notation notation; /* of the moves: ICCS (h2e2), WXF (C2.5) or Vietnamese (P2-5) */
} PgnTags;

void pgn_write(FILE *out, const GameRecord *rec, const PgnTags *tags);
