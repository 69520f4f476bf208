// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The worker pool of `tuong-datagen generate`: self-play on worker
 * processes, merged into the data file in game order.
 *
 * The search keeps global state, so each worker is a process of its own
 * (fork) with one search thread. Workers take game numbers 0, 1, 2, ... from
 * a counter in shared memory; game g depends only on the seed and g
 * (selfplay.h), so which worker plays it does not matter. Each worker sends
 * its finished games through a pipe; the parent writes them to the file
 * strictly in game order, so the file is the same for any --threads and any
 * scheduling: games 0..G-1 for --games G, or the first N positions of that
 * sequence for --positions N; with first_game F, games F..G-1 (a resumed
 * pool run, or a shard). Each game is flushed whole, so an interrupted run
 * leaves a file of whole records and complete games.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "openings.h"
#include "selfplay.h"

enum { POOL_MAX_WORKERS = 256 };

/* Called after each game is written and flushed, in game order, with its
 * records (n may be 0); false stops the run as failed (after reporting). */
typedef bool (*PoolAfterGame)(void *ctx, uint64_t game, const DataRecord *records, size_t n);

typedef struct {
    SelfplaySettings play;
    uint64_t seed;
    uint64_t first_game;       /* the first game to play: 0, or where a resumed run goes on */
    uint64_t games, positions; /* the target: play games first_game..games-1, or write this many positions;
                                  both 0: until interrupted */
    bool whole_games;          /* the positions target never cuts a game short (a pool run) */
    int workers;               /* 1..POOL_MAX_WORKERS */
    int progress_s;            /* seconds between progress lines, 0 = none */
    const char *out_path;      /* the file's name, for messages */
    PoolAfterGame after_game;  /* or NULL */
    void *ctx;                 /* for after_game */
} PoolConfig;

/* Play games into out (a data file open for appending that holds
 * records_before records) until the target is reached or SIGINT/SIGTERM
 * arrives; closes out. A run that starts at first_game G writes exactly the
 * bytes that games G, G+1, ... add to an uninterrupted run's file. Returns the exit code: 0, 1 after a failure
 * (reported on stderr), 130 when interrupted (the file holds whole games). */
int pool_run(const PoolConfig *cfg, const OpeningBook *book, FILE *out, uint64_t records_before);
