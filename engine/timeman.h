// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Time management. From the clock state the manager derives a soft limit
 * (do not start another iteration after it, scaled each iteration by how
 * settled the search is) and a hard limit (abort the search at once). Times
 * are milliseconds since the clock started (search start, or ponderhit).
 */
#include <stdbool.h>
#include <stdint.h>

#include "search.h"

typedef struct {
    bool timed;         /* any time limit at all */
    int64_t soft_ms;    /* base soft limit before per-iteration scaling */
    int64_t hard_ms;    /* never search longer than this */
    double stability;   /* running count of best-move changes (decays) */
    int64_t scaled_ms;  /* the soft limit after the last tm_update() */
} TimeManager;

/* Budget for one move at `game_ply` (plies since the game's start, which
 * lets early moves go quicker). `overhead_ms` is kept back from every
 * limit; `latency_ms` is how long the machine lately kept the search off
 * its processor (0 when idle), which a fixed time per move keeps back a
 * multiple of; with `ponder_enabled` the soft limit is a little larger (the
 * opponent's time is partly ours). */
void tm_init(TimeManager *tm, const SearchLimits *limits, int overhead_ms, int latency_ms, bool ponder_enabled,
             int game_ply);

/* After iteration `depth`: `best_changes` root best-move changes during it,
 * the score drop from the previous iteration (positive = worse, in score
 * units), and the share (0..1) of nodes spent under the best move. */
void tm_update(TimeManager *tm, int depth, int best_changes, Score score_drop, double best_node_share);

/* Should no new iteration start at `elapsed_ms`? Under a clock: once past
 * TM_NEXT_ITERATION per mille of the scaled limit; at a fixed time per
 * move: at its end. */
bool tm_soft_exceeded(const TimeManager *tm, int64_t elapsed_ms);
/* Must the search stop now? */
bool tm_hard_exceeded(const TimeManager *tm, int64_t elapsed_ms);
