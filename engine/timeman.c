// SPDX-License-Identifier: GPL-3.0-or-later
#include "timeman.h"

/* Moves we plan for when the GUI gives none (sudden death). */
static const int PLANNED_MOVES = 40;
/* Largest share of the remaining clock one move may use, per mille. */
static const int HARD_SHARE_PERMILLE = 250;
static const int HARD_SHARE_LAST_MOVE_PERMILLE = 700;
/* The hard limit is this many times the soft one, at most. */
static const int HARD_OVER_SOFT = 4;
/* A score drop of this many units widens the budget by a quarter. */
static const int SCORE_DROP_UNIT = 20;
/* The three per-iteration factors together stay within these bounds. */
static const double SCALE_MIN = 0.5, SCALE_MAX = 2.2;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

void tm_init(TimeManager *tm, const SearchLimits *limits, int overhead_ms, bool ponder_enabled) {
    tm->stability = 0;
    tm->timed = false;
    tm->soft_ms = tm->hard_ms = tm->scaled_ms = INT64_MAX;
    if (limits->infinite) return;
    if (limits->movetime_ms > 0) {
        tm->timed = true;
        tm->soft_ms = tm->hard_ms = tm->scaled_ms = max64(1, limits->movetime_ms - overhead_ms);
        return;
    }
    if (limits->time_ms < 0) return;
    tm->timed = true;
    int64_t left = max64(1, limits->time_ms - overhead_ms);
    int mtg = limits->movestogo > 0 ? (limits->movestogo < PLANNED_MOVES ? limits->movestogo : PLANNED_MOVES)
                                    : PLANNED_MOVES;
    int64_t inc = max64(0, limits->inc_ms);
    /* What is ours for this move if the time were shared out evenly, with
     * three quarters of the increments still to come. */
    int64_t pool = left + inc * (mtg - 1) * 3 / 4;
    int64_t soft = pool / mtg;
    if (ponder_enabled) soft += soft / 4;
    int64_t hard_cap = left * (mtg == 1 ? HARD_SHARE_LAST_MOVE_PERMILLE : HARD_SHARE_PERMILLE) / 1000;
    if (mtg == 1) soft = left / 2;
    tm->hard_ms = max64(1, min64(soft * HARD_OVER_SOFT, hard_cap));
    tm->soft_ms = max64(1, min64(soft, tm->hard_ms));
    tm->scaled_ms = tm->soft_ms;
}

void tm_update(TimeManager *tm, int depth, int best_changes, Score score_drop, double best_node_share) {
    if (!tm->timed || tm->soft_ms == tm->hard_ms || depth < 4) return;
    tm->stability = tm->stability / 2 + best_changes;
    /* Unsettled best move: up to 1.6 times the time. */
    double instability = 1.0 + 0.3 * (tm->stability > 2 ? 2 : tm->stability);
    /* Falling score: up to 1.4x; a rising one saves a little. */
    double falling = 1.0 + (double)score_drop / (4.0 * SCORE_DROP_UNIT);
    falling = falling < 0.85 ? 0.85 : falling > 1.4 ? 1.4 : falling;
    /* One move clearly best (it took most nodes): down to 0.6. */
    double clear = 1.5 - best_node_share;
    clear = clear < 0.6 ? 0.6 : clear > 1.2 ? 1.2 : clear;
    double factor = instability * falling * clear;
    factor = factor < SCALE_MIN ? SCALE_MIN : factor > SCALE_MAX ? SCALE_MAX : factor;
    double scaled = (double)tm->soft_ms * factor;
    tm->scaled_ms = (int64_t)(scaled < (double)tm->hard_ms ? scaled : (double)tm->hard_ms);
}

bool tm_soft_exceeded(const TimeManager *tm, int64_t elapsed_ms) { return tm->timed && elapsed_ms >= tm->scaled_ms; }

bool tm_hard_exceeded(const TimeManager *tm, int64_t elapsed_ms) { return tm->timed && elapsed_ms >= tm->hard_ms; }
