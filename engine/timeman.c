// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeman.h"

#include <math.h>

#include "search_params.h"

/* Moves we plan for at most, with or without a movestogo. */
static const int MOVE_HORIZON = 50;
/* Never plan to use more than this share of the clock on one move. */
static const double HARD_SHARE = 0.8;
/* ...and always leave this much of it, beyond the move overhead, for the
 * machine: with other CPU-bound jobs on every core the answer reached the
 * referee up to 160 ms after the search's deadline (issue 30;
 * docs/reliability.md). It only binds when the clock is under a second,
 * where 20 % of it was too little: 16 of 46 games at 10+0.1 were lost on
 * time with the clock near 200 ms and 0.1 s increments, and 1 of 41 still
 * with a 100 ms reserve. A game that lives on its increment keeps about
 * this much in the bank and spends the rest as before. */
static const double LATENCY_RESERVE_MS = 200.0;
/* The per-iteration factors together stay within these bounds. */
static const double SCALE_MIN = 0.4, SCALE_MAX = 3.0;
/* A fixed time per move keeps back the move overhead, but never more than
 * 1/5 of the move: `movetime 20` with the default 30 ms overhead would
 * otherwise search for 1 ms. The GUI asked for that much thinking. */
static const int MOVETIME_RESERVE_DIVISOR = 5;
/* ...unless the machine is busy: then it keeps back this many times the
 * latency the last searches saw (the longest wait between two of the
 * search's clock checks, about 1 ms on an idle core and 10-20 ms when
 * other jobs share it), up to half the move. With two games and other
 * builds on two cores, answers to `movetime 100` with 20 ms kept back came
 * up to 128 ms after the go: 6 games of 200 lost on time at margin 0
 * (docs/reliability.md). */
static const int MOVETIME_LATENCY_FACTOR = 3;
static const int MOVETIME_RESERVE_MAX_DIVISOR = 2;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/*
 * The budget grows with the game: early moves are cheap book-like moves,
 * the middlegame decides. Sudden death: the optimum is a share of the time
 * left (the clock plus the increments still to come, less the overheads)
 * that grows with (ply + 3)^0.45; the hard limit is a multiple of it,
 * larger later in the game, and never more than 80% of the clock nor more
 * than the clock less a reserve for a loaded machine's latency. With
 * movestogo the share is about 1/movestogo.
 */
void tm_init(TimeManager *tm, const SearchLimits *limits, int overhead_ms, int latency_ms, bool ponder_enabled,
             int game_ply) {
    tm->stability = 0;
    tm->timed = false;
    tm->soft_ms = tm->hard_ms = tm->scaled_ms = INT64_MAX;
    if (limits->infinite) return;
    if (limits->movetime_ms > 0) {
        tm->timed = true;
        int64_t reserve = min64(overhead_ms, limits->movetime_ms / MOVETIME_RESERVE_DIVISOR);
        reserve = max64(reserve, min64((int64_t)MOVETIME_LATENCY_FACTOR * max64(0, latency_ms),
                                       limits->movetime_ms / MOVETIME_RESERVE_MAX_DIVISOR));
        tm->soft_ms = tm->hard_ms = tm->scaled_ms = max64(1, limits->movetime_ms - reserve);
        return;
    }
    if (limits->time_ms < 0) return;
    tm->timed = true;
    double time = (double)max64(1, limits->time_ms), inc = (double)max64(0, limits->inc_ms);
    int mtg =
        limits->movestogo > 0 ? (limits->movestogo < MOVE_HORIZON ? limits->movestogo : MOVE_HORIZON) : MOVE_HORIZON;
    double left = fmax(1.0, time + inc * (mtg - 1) - (double)overhead_ms * (2 + mtg));
    double ply = game_ply < 0 ? 0 : game_ply;
    double opt_scale, max_scale;
    if (limits->movestogo <= 0) {
        double extra = clampd(1.0 + 12.0 * inc / time, 1.0, 1.12); /* a big increment: spend more */
        opt_scale = fmin(TM_BASE_PERMILLE / 1000.0 + pow(ply + 3.0, 0.45) * TM_PLY_PERMILLE / 1000.0,
                         TM_MAX_PERMILLE / 1000.0 * time / left) *
                    extra;
        max_scale = fmin(7.0, TM_HARD_FACTOR / 1000.0 + ply / 12.0);
    } else {
        opt_scale = fmin((0.88 + ply / 116.4) / mtg, 0.88 * time / left);
        max_scale = fmin(6.3, 1.5 + 0.11 * mtg);
    }
    double soft = opt_scale * left;
    if (ponder_enabled) soft += soft / 4;
    double hard = fmin(fmin(HARD_SHARE * time, time - LATENCY_RESERVE_MS) - overhead_ms, max_scale * soft);
    tm->hard_ms = max64(1, (int64_t)hard);
    tm->soft_ms = max64(1, min64((int64_t)soft, tm->hard_ms));
    tm->scaled_ms = tm->soft_ms;
}

void tm_update(TimeManager *tm, int depth, int best_changes, Score score_drop, double best_node_share) {
    if (!tm->timed || tm->soft_ms == tm->hard_ms || depth < 4) return;
    tm->stability = tm->stability / 2 + best_changes;
    /* Unsettled best move: more time. */
    double instability = 1.0 + TM_INSTABILITY / 1000.0 * fmin(tm->stability, 2.0) / 2.0;
    /* Falling score: more time; a rising one saves a little. */
    double falling = clampd(1.0 + (double)score_drop * TM_FALLING / 1000.0, 0.6, 1.6);
    /* One move clearly best (it took most of the nodes): less time. */
    double clear = clampd((TM_NODES_BASE / 1000.0 - best_node_share) * TM_NODES_SCALE / 1000.0, 0.5, 1.6);
    double factor = clampd(instability * falling * clear, SCALE_MIN, SCALE_MAX);
    double scaled = (double)tm->soft_ms * factor;
    tm->scaled_ms = (int64_t)(scaled < (double)tm->hard_ms ? scaled : (double)tm->hard_ms);
}

/* Under a clock, no iteration starts past TM_NEXT_ITERATION per mille of
 * the scaled limit: the next one takes about as long as all before it
 * together, so it would overrun the limit (up to the hard limit, 4-7 times
 * the optimum) or be cut off unfinished. Overrunning early moves spent the
 * whole clock in the first 20 moves at 10+0.1 (docs/search.md, "Where the
 * clock goes"). A fixed time per move (soft = hard) is searched in full:
 * the GUI asked for that much thinking. */
bool tm_soft_exceeded(const TimeManager *tm, int64_t elapsed_ms) {
    if (!tm->timed) return false;
    if (tm->soft_ms == tm->hard_ms) return elapsed_ms >= tm->scaled_ms;
    return (double)elapsed_ms >= (double)tm->scaled_ms * TM_NEXT_ITERATION / 1000.0;
}

bool tm_hard_exceeded(const TimeManager *tm, int64_t elapsed_ms) { return tm->timed && elapsed_ms >= tm->hard_ms; }
