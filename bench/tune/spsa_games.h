// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The real player behind spsa_run(): game pairs between two processes of a
 * tuning build, theta+ and theta-, through the match runner's modules
 * (bench/match). Each worker keeps its own two engines and sends every
 * tuned value as `setoption NAME VALUE` (UCCI) before each game, so the
 * engines are started once, not once per iteration.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "game.h"
#include "openings.h"
#include "spsa.h"

typedef struct SpsaGames SpsaGames;

typedef struct {
    EngineConfig engine; /* cmd and base options; its name is replaced */
    TimeControl tc;
    AdjudicationRules rules;
    OpeningBook book; /* taken over by the player */
    int handshake_ms;
    FILE *pgn; /* every game appended as PGN; may be NULL */
    FILE *log; /* transcript of every engine's input and output; may be NULL */
} SpsaGamesConfig;

/* A player for the parameters of s (names copied) with `workers` slots;
 * NULL with a message if an engine cannot be started. */
SpsaGames *spsa_games_new(const SpsaGamesConfig *cfg, const SpsaState *s, int workers, char *err, size_t errlen);
/* The SpsaPlayFn: ctx is the SpsaGames. */
bool spsa_games_play(void *ctx, const SpsaMatch *m, Score3 *result, char *err, size_t errlen);
/* Games that ended by a crash, a hang or a time forfeit so far. */
int spsa_games_failures(SpsaGames *g);
void spsa_games_free(SpsaGames *g);

/* The engine's `params` listing (malloc'd) by running `PATH params`. */
char *spsa_engine_listing(const char *path, char *err, size_t errlen);
/* Is PATH a tuning build exposing every parameter of s as a UCCI option? */
bool spsa_engine_check_options(const char *path, const SpsaState *s, char *err, size_t errlen);
/* PATH quoted for /bin/sh. */
void spsa_shell_quote(const char *path, char *out, size_t size);
