// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Result files of `tuong-match -shard K/N -results FILE` and their merge
 * (docs/cluster.md). A shard plays games [T*K/N, T*(K+1)/N) of the T games
 * the unsharded match would play (same openings, colours and engines per
 * game number) and writes, as each game ends:
 *
 *   tuong-match-results 1
 *   run <16 hex digits> shard K/N games T first F count C
 *   engines E
 *   engine <name>                      E lines, in -engine order
 *   tc <the time control as the report prints it>
 *   timed <0|1> margin <ms>
 *   sprt <0|1> <elo0> <elo1> <alpha> <beta>
 *   game <n> <result 1|2|3> <overruns red> <overruns black> <worst red ms> <worst black ms> <pgn bytes>
 *   reason <text>
 *   <the game's PGN, exactly that many bytes>
 *   ...                                (C games, in the order they ended)
 *   end C
 *
 * run fingerprints the command line without -shard, -results, -pgnout,
 * -log, -concurrency and -quiet, and the opening lines in play order.
 * The file is written as FILE.part and renamed when the shard is whole.
 * `tuong-match merge [-pgnout FILE] RESULTS...` checks the set, adds the
 * games in game order (stopping where the SPRT decided, as a run with
 * -concurrency 1 stops) and prints the report tuong-match prints.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "pgn.h"
#include "shard.h"
#include "tally.h"

/* One game of a result file. */
typedef struct {
    int number;
    GameOutcome outcome; /* outcome.reason points into reason */
    char reason[400];
    size_t pgn_at, pgn_len; /* the PGN text: bytes [pgn_at, pgn_at + pgn_len) of the file */
} ResultGame;

/* A result file, parsed. */
typedef struct {
    uint64_t run;
    ShardSpec spec;
    int total_games, first, count;
    MatchTally tally;  /* the match settings; the score still zero */
    ResultGame *games; /* heap, count of them, as in the file */
} MatchResults;

/* Parse a result file's text; false with the reason in err. Free with
 * results_free either way. */
bool results_parse(const char *text, size_t len, MatchResults *r, char *err, size_t errlen);
void results_free(MatchResults *r);

/* A result file being written. */
typedef struct {
    FILE *f;
    char path[1024], tmp[1040];
    int written;
} ResultsWriter;

/* Create path.part with the header; false with the reason in err. */
bool results_open(ResultsWriter *w, const char *path, const MatchTally *t, uint64_t run, ShardSpec spec, int first,
                  int count, char *err, size_t errlen);
/* Add a finished game with its PGN (tags as -pgnout writes them). */
bool results_add(ResultsWriter *w, int game, const GameRecord *rec, const PgnTags *tags);
/* Write the end line and rename to the final name when `whole`; else
 * leave the .part file. */
bool results_close(ResultsWriter *w, bool whole);

/* `tuong-match merge [-pgnout FILE] RESULTS...`: the exit status. */
int results_merge_main(int argc, char **argv);
