// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * One self-play game of the engine's own search for training data.
 *
 * Game number g of a run depends only on (seed, g, settings, opening book):
 * the process must have called selfplay_init() once, and every game starts
 * with a cleared search (hash, histories), one search thread, node limits
 * only. So a run can hand its games to any number of worker processes and
 * still produce the same records.
 *
 * The game: a random line of the book, then `random_plies` plies (one more
 * in odd-numbered games, selfplay_random_plies) chosen
 * uniformly among the legal moves (redrawn when the side to move is then
 * mated), then the search plays both sides. It ends by the rules (mate,
 * the Asian repetition rules, 60 moves without a capture, bare material,
 * `max_plies`) through the match runner's adjudicate_position(), or by
 * score adjudication: resign when for `resign_moves` moves of each side in
 * a row both agree that one side leads by at least `resign_score`, draw
 * when |score| <= `draw_score` for `draw_plies` plies in a row from game
 * ply `draw_from` on.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "datafile.h"
#include "openings.h"

typedef struct {
    uint64_t nodes;      /* soft limit: no new iteration after this many nodes */
    uint64_t hard_nodes; /* hard limit: the search stops here */
    int hash_mb;
    int random_plies;                      /* uniformly random plies after the opening line (+1 in odd games) */
    int skip_plies;                        /* record nothing in the first plies after the opening line */
    int score_cap;                         /* record only |score| < score_cap */
    int resign_score, resign_moves;        /* resign_moves 0 = off */
    int draw_score, draw_plies, draw_from; /* draw_plies 0 = off */
    int max_plies;                         /* plies after the opening line, then a draw */
} SelfplaySettings;

typedef enum { END_RULES = 0, END_RESIGN, END_DRAW_SCORE, END_NB } SelfplayEnd;

typedef struct {
    DataRecord *records; /* capacity: settings.max_plies + 1 */
    int count;           /* quiet positions recorded */
    int plies;           /* plies played after the opening line */
    int searches;        /* moves the search chose */
    uint64_t nodes;      /* searched in the game, about (selfplay.c, think) */
    DataResult red_result;
    SelfplayEnd end;
    int start_side; /* the side to move after the opening line and the random plies (a Color) */
} SelfplayGame;

/* Set up the engine for self-play in this process (one search thread, the
 * hash size of the settings). Call after fork(), before the first game. */
void selfplay_init(const SelfplaySettings *s);

/* Play game number g. Returns false when *stop became set between two
 * moves (the game is then incomplete and must be dropped). */
bool selfplay_game(const OpeningBook *book, const SelfplaySettings *s, uint64_t seed, uint64_t g, SelfplayGame *out,
                   const atomic_int *stop);

/* One search of pos with the settings' soft and hard node limits, the one
 * each move of a game gets (the hash is not cleared): its best move and
 * score; returns about the nodes it used. */
uint64_t selfplay_search(const Position *pos, const SelfplaySettings *s, Move *best, Score *score);

/* Random plies of game g: settings.random_plies, one more when g is odd, so
 * that each side makes the last random move in half the games. */
int selfplay_random_plies(const SelfplaySettings *s, uint64_t g);

/* Is a searched position worth learning from: quiet (the side to move not
 * in check, the best move not a capture), |score| below the cap and not a
 * mate, and at least skip_plies past the opening line? */
bool selfplay_recordable(const Position *pos, const SelfplaySettings *s, Move best, Score score);

/* The splitmix64 mixing function that derives each game's random stream. */
uint64_t selfplay_mix(uint64_t x);
