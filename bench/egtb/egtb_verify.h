// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Check a table against its own definition, move by move, independently of
 * how the solver reached it (docs/egtb.md, "Verify"). Each legal move's
 * child is scored for the opponent: a quiet move by the table itself, a
 * capture by the smaller table it enters, counting a capture into a
 * position the opponent loses as loss 1 and one the opponent wins as win 0.
 *   win v   some child is a loss v - 1 and none a smaller loss;
 *   loss v  every child is a win and the largest is v - 1 (no move: v = 1);
 *   draw    no child is a loss and some child is a draw;
 * and a value is EGTB_ILLEGAL exactly when the position is not legal.
 */
#include <stdint.h>
#include <stdio.h>

#include "egtb_table.h"

/* The child's value for the opponent after legal move m in pos, as above;
 * false with a message when a smaller table is missing. */
bool egtb_child_value(EgtbSet *set, Position *pos, Move m, uint16_t *value, char *err, size_t errlen);

/* Verify every position of t (which must be in set) on `threads` threads;
 * report up to a few faults (with FEN) to out. Returns the number of
 * faults, or -1 with a message on a missing table. */
int64_t egtb_verify(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen);
