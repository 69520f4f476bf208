// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Reading xiangqi PGN for the book maker: the files tuong-match writes
 * (ICCS `h2e2` or WXF `C2.5`, engine comments in braces, FEN/SetUp tags for
 * book starts) and the common ICCS PGN of xiangqi databases (`[Format
 * "ICCS"]`, moves like `H2-E2`). Move numbers, `{}` and `;` comments, `()`
 * variations, `$n` NAGs and trailing `!?+#` marks are skipped. Chinese and
 * other notations are not read: such a game is reported and skipped.
 */
#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "position.h"

enum { PGN_PLY_MAX = 1000, PGN_ERROR_MAX = 256 };

typedef struct {
    long line;             /* where the game starts in its file */
    char fen[FEN_MAX * 2]; /* the FEN tag, or "" for the start position */
    GameResult result;     /* RES_NONE when unknown (`*` or no result) */
    int ply_count;         /* moves read, at most the reader's ply limit */
    Move moves[PGN_PLY_MAX];
    char error[PGN_ERROR_MAX]; /* non-empty: the game is unusable, this says why */
} PgnGame;

typedef struct {
    FILE *f;
    const char *name;
    long line;
    int ply_limit; /* moves after this many are skipped unread */
    char *buf;     /* the current line */
    size_t cap;
    bool pending;  /* buf holds the first tag line of the next game */
    Position *pos; /* the game so far, to check and decode moves */
} PgnReader;

/* Read from f (named name in messages), keeping the first ply_limit moves
 * of each game (at most PGN_PLY_MAX). */
bool pgn_open(PgnReader *r, FILE *f, const char *name, int ply_limit);
void pgn_close(PgnReader *r);
/* The next game; false at the end of the file. */
bool pgn_next(PgnReader *r, PgnGame *g);
