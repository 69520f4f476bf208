// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* PGN for xiangqi games: [Variant "xiangqi"], FEN tags for book starts,
 * ICCS (or WXF) moves with the engine's score/depth/time as comments. */
#include <stdbool.h>
#include <stdio.h>

#include "game.h"

typedef struct {
    const char *event, *red, *black, *time_control;
    int round;
    bool wxf; /* moves in WXF notation (e.g. C2.5, H8+7, R+.4) instead of ICCS */
} PgnTags;

void pgn_write(FILE *out, const GameRecord *rec, const PgnTags *tags);

/* WXF text of legal move m in pos (before it is made), into buf (>= 8 bytes):
 * piece letter K A E H R C P, its file counted from the mover's right (or +/-
 * for the front/rear of two such pieces on one file), the direction + (forward),
 * - (backward) or . (sideways), and the destination file or the step count. */
char *pgn_wxf_move(const Position *pos, Move m, char *buf);
