// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Reading xiangqi PGN for the book maker and the converter: the files
 * tuong-match writes (ICCS `h2e2`, WXF `C2.5` or Vietnamese `P2-5`, engine
 * comments in braces, FEN/SetUp tags for book starts), the common ICCS PGN
 * of xiangqi databases (`[Format "ICCS"]`, moves like `H2-E2`) and
 * Vietnamese game collections. The notation is detected per game
 * (pgn_decode.h) unless the reader is told it. Move numbers, `{}` and `;`
 * comments, `()` variations, `$n` NAGs and trailing `!?+#` marks are
 * skipped (a converter can keep the comments and NAGs). Chinese and other
 * notations are not read: such a game is reported and skipped.
 */
#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "pgn_notation.h"
#include "position.h"

enum { PGN_PLY_MAX = 1000, PGN_ERROR_MAX = 256, PGN_TOKEN_MAX = 64 };

typedef struct {
    long line;             /* where the game starts in its file */
    char fen[FEN_MAX * 2]; /* the FEN tag, or "" for the start position */
    GameResult result;     /* RES_NONE when unknown (`*` or no result) */
    int ply_count;         /* moves read, at most the reader's ply limit */
    Move moves[PGN_PLY_MAX];
    char error[PGN_ERROR_MAX]; /* non-empty: the game is unusable, this says why */
    Notation notation;         /* the one its moves were read in */
    bool truncated;            /* it has more moves than the reader's ply limit */
} PgnGame;

typedef struct {
    FILE *f;
    const char *name;
    long line;
    int ply_limit; /* moves after this many are skipped unread */
    char *buf;     /* the current line */
    size_t cap;
    bool pending;                  /* buf holds the first tag line of the next game */
    Notation notation;             /* of the moves; NOTATION_AUTO (pgn_open's): detect per game */
    bool keep_text;                /* keep tags and notes for a converter */
    char *tags;                    /* keep_text: the game's tag lines, each ending in '\n' */
    char *notes[PGN_PLY_MAX + 1];  /* keep_text: comments and NAGs before move 1 ([0]) and after each move */
    int dropped;                   /* keep_text: variations and ';' comments left out, all games */
    char (*tokens)[PGN_TOKEN_MAX]; /* the game's move tokens */
    int token_count;
} PgnReader;

/* Read from f (named name in messages), keeping the first ply_limit moves
 * of each game (at most PGN_PLY_MAX), detecting the notation per game. */
bool pgn_open(PgnReader *r, FILE *f, const char *name, int ply_limit);
void pgn_close(PgnReader *r);
/* The next game; false at the end of the file. */
bool pgn_next(PgnReader *r, PgnGame *g);
