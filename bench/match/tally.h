// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The running score of a match and its closing report: per pairing W/D/L,
 * results by reason, forgiven clock overruns per engine, the SPRT's
 * decision. tuong-match adds games as they finish; `tuong-match merge`
 * adds the shards' games in game order, so both print the same report.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "game.h"
#include "stats.h"

enum {
    TALLY_MAX_ENGINES = 16,
    TALLY_MAX_PAIRS = TALLY_MAX_ENGINES * (TALLY_MAX_ENGINES - 1) / 2,
    TALLY_MAX_REASONS = 64,
    /* Pairs with one game counted and the other still to come: at most the
     * games in flight plus the next one, as games are handed out in order. */
    TALLY_MAX_OPEN_PAIRS = 256
};

typedef struct {
    int a, b; /* engine indices; scores are from a's point of view */
    Score3 score;
    Score5 pairs; /* the game pairs both of whose games are counted */
} Pairing;

/* What the tally needs of a finished game. */
typedef struct {
    GameResult result;
    const char *reason;
    int overruns[COLOR_NB];
    int64_t worst_overrun_ms[COLOR_NB];
} GameOutcome;

typedef struct {
    /* The match, set before the first game (tally_start). */
    int engine_count;
    char names[TALLY_MAX_ENGINES][ENGINE_NAME_MAX];
    char tc_text[64];
    bool timed;        /* a clock or movetime: the overrun line is printed */
    int64_t margin_ms; /* -timemargin */
    bool sprt_on;
    SprtParams sprt;
    int total_games;
    /* The running score. */
    Pairing pairs[TALLY_MAX_PAIRS];
    int pair_count, games_done;
    bool sprt_decided;
    Score3 sprt_at;  /* the score when the SPRT decided */
    Score5 sprt_at5; /* and its game pairs */
    /* Game pairs (games 2i and 2i+1) with one game counted: i and a's
     * half-points in it (0, 1 or 2). */
    int open_count;
    struct {
        int pair_game, half_points;
    } open[TALLY_MAX_OPEN_PAIRS];
    int overruns[TALLY_MAX_ENGINES];
    int64_t worst_overrun[TALLY_MAX_ENGINES];
    int reason_count;
    struct {
        char text[64];
        int n;
    } reasons[TALLY_MAX_REASONS];
} MatchTally;

/* Pair every engine with every other (round robin), scores zero. */
void tally_start(MatchTally *t);
/* Game number -> its pairing and colours: games 2i and 2i+1 of a round
 * play one opening with colours swapped. */
void tally_schedule(const MatchTally *t, int game, int *pair, bool *a_is_red, int *round);
/* Count finished game number `game` (its pairing and colours by
 * tally_schedule); true when this game decided the SPRT (a single pairing
 * under -sprt). Under the pentanomial model the SPRT is looked at when a
 * game completes its pair. */
bool tally_add(MatchTally *t, int game, const GameOutcome *g);
/* "A vs B: +w =d -l, Elo ..." (and the LLR under -sprt), no newline. */
void tally_pair_line(FILE *out, const MatchTally *t, const Pairing *p);
/* The closing report; `signal` is the interrupting signal or 0. */
void tally_report(FILE *out, const MatchTally *t, int signal);
