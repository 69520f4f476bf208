#pragma once
/* PGN for xiangqi games: [Variant "xiangqi"], FEN tags for book starts,
 * ICCS moves with the engine's score/depth/time as comments. */
#include <stdio.h>

#include "game.h"

typedef struct {
    const char *event, *red, *black, *time_control;
    int round;
} PgnTags;

void pgn_write(FILE *out, const GameRecord *rec, const PgnTags *tags);
