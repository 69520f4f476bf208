// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * In-memory retrograde solver for one signature (docs/egtb.md, "Tuong's
 * generator"). It keeps 3 bytes per position and side to move: the value
 * (the table itself) and a count of quiet moves still open; the moves into
 * a position are found again when needed (egtb_unmove.h), not stored.
 *
 * 1. Every index and side to move is decoded and its legal moves generated
 *    with the engine's move generator (threads share the index range).
 *    A capture is looked up at once in the smaller table it leads to; the
 *    quiet moves are counted.
 * 2. Terminal values: no legal move = loss 1 (mate and stalemate alike); a
 *    capture into a position lost for the opponent = win 2; no quiet move
 *    and every capture winning for the opponent = loss 1; no quiet move
 *    and a capture into a drawn position = draw.
 * 3. Level by level, v = 1, 2, ...: every position of value v is un-moved
 *    (both threads share the index range); a parent of a loss v becomes a
 *    win v + 1 (if still open); a parent whose quiet moves have now all
 *    been found to lead to wins (the last of them of value v, the largest)
 *    and that has no drawing capture becomes a loss v + 1. A level past 2
 *    that finds no position ends it.
 * 4. What stays open is a draw.
 * The repetition rules play no part: the signatures built so far give only
 * one side attacking pieces, where xiangqitb applies none either
 * (docs/egtb.md, "Rules").
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_rule_loop.h"
#include "egtb_table.h"

/* Memory the solver takes per position and side to move: the value and
 * the count of open quiet moves. */
enum { EGTB_SOLVE_BYTES = sizeof(uint16_t) + sizeof(uint8_t) };

/* The count byte per node (2 * positions nodes: Red to move, then Black)
 * while solving: the quiet moves whose child is not yet known to be won for
 * the opponent, and whether a capture draws (then the node cannot lose).
 * The rule loop (egtb_rule_loop.h) carries on with it. */
enum { EGTB_PENDING_CAPDRAW = 0x80, EGTB_PENDING_COUNT = 0x7F };

typedef struct {
    uint64_t win[COLOR_NB], draw[COLOR_NB], loss[COLOR_NB], illegal[COLOR_NB];
    uint16_t longest[COLOR_NB]; /* largest value per side to move */
    uint64_t longest_index[COLOR_NB];
    uint16_t levels;       /* values spread in step 3 (the last found none) */
    double seconds_moves;  /* wall time of steps 1-2 */
    double seconds_levels; /* and of step 3 */
    EgtbRuleLoopStats rule; /* the rule loop, for signatures where both sides attack (DTC only) */
} EgtbSolveStats;

/* Solve t (allocated with egtb_table_alloc) using the tables of its
 * captures from subs, which must already hold them all (egtb_solve_needs).
 * false with a message on failure (memory, a missing smaller table). */
bool egtb_solve(EgtbTable *t, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err, size_t errlen);

/* DTM mode (docs/egtb.md, "DTM in Tuong"): the same steps into fresh
 * t->dtm arrays, a capture scoring one more than its child's DTM from the
 * smaller table (which subs must hold with DTM, egtb_set_get_dtm) instead
 * of ending the count. A node whose quiet moves are still open keeps its
 * capture score; a win takes the least of it and one more than its
 * shortest quiet route, a loss the largest of it and one more than its
 * longest quiet resistance. For signatures with attacking pieces on one
 * side only. On failure t->dtm stays NULL. */
bool egtb_solve_dtm(EgtbTable *t, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err, size_t errlen);

/* DTM against DTC at every index of t: the same illegal and drawn
 * positions, the same side winning, and DTM never below DTC (a mate
 * cannot come before the conversion that leads to it). A table where both
 * sides attack (t->dtm_flagged) is checked for the first three only: its
 * DTM does not count the plies of a perpetual check or chase, nor those
 * after a rule loss, and can be below DTC (docs/egtb.md, "Both-sides
 * DTM"). false with the first difference. */
bool egtb_dtm_check(const EgtbTable *t, char *err, size_t errlen);

/* The signatures a capture in mat can lead to that need a table (some
 * side keeps an attacker), each normalised and listed once; returns the
 * count (at most 2 * TYPE_NB). */
int egtb_solve_needs(const EgtbMaterial *mat, EgtbMaterial *out);
