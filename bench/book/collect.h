// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The book maker's tally: every (position, move) of the games read, keyed
 * by the position (so transpositions meet) in its stored orientation (the
 * smaller key of it and its mirror image), with the games' results from the
 * mover's point of view. A game counts once per (position, move) even if it
 * passes there twice.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book/book_write.h"
#include "game.h"

typedef struct {
    int min_games;            /* keep a move played in at least this many games */
    int max_ply;              /* only the first max_ply moves of a game */
    uint32_t win, draw, loss; /* weight points per game for the mover */
    bool side[COLOR_NB];      /* keep the moves of these sides */
} CollectOptions;

typedef struct {
    CollectOptions opt;
    BookEntry *items; /* wins/draws/losses per (key, move); sorted up to `sorted` */
    size_t count, cap, sorted;
    Position *pos;
    long games; /* games tallied */
} Collector;

bool collect_init(Collector *c, const CollectOptions *opt);
void collect_free(Collector *c);
/* Tally one game from fen ("" = start position); false (err set) if the
 * FEN is bad or memory runs out. */
bool collect_game(Collector *c, const char *fen, const Move *moves, int count, GameResult result, char *err,
                  size_t errlen);
/* The book: tallies merged, moves below min_games or of weight 0 dropped,
 * weights scaled into 1..BOOK_WEIGHT_MAX if the heaviest exceeds it.
 * *entries points into the collector; returns their number. */
size_t collect_finish(Collector *c, BookEntry **entries, size_t *positions);
