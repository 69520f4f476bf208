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
 * Where both sides attack, a value carries the order (rule round) that
 * settled it: a value of order k is checked against what was known at
 * order k (a child of a later order counts as a draw, and "largest" and
 * "smaller" look at this order's children, the levels starting again),
 * none of its children may be a loss of an earlier order, and a loss 1
 * of order k > 0 (a rule verdict, which moves alone cannot re-derive)
 * only has no move to a loss. With every order 0 the rules are the four
 * above, unchanged.
 * The children are found in O(1): a quiet move's by the re-index of
 * egtb_reindex.h, a capture's in the smaller table found once per table
 * (egtb_capture.h); one node in INDEX_CHECK_EVERY (egtb_verify.c) also
 * indexes its quiet children through egtb_index_of, and a difference is a
 * fault.
 */
#include <stdint.h>
#include <stdio.h>

#include "egtb_table.h"

/* The child's value for the opponent after legal move m in pos, as above;
 * false with a message when a smaller table is missing. */
bool egtb_child_value(EgtbSet *set, Position *pos, Move m, uint16_t *value, char *err, size_t errlen);

/* Verify every position of t (which must be in set) on `threads` threads;
 * report up to a few faults (with FEN) to out. Returns the number of
 * faults, or -1 with a message on a missing table or on memory. A
 * symmetric table is checked in its frame, both sides to move (as read
 * from its file: Black to move the turned Red, egtb_sym.h). */
int64_t egtb_verify(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen);

/* The same four rules on t's DTM (t->dtm, and the smaller tables' DTM
 * from set, egtb_set_get_dtm), a capture's child carrying its DTM from
 * the smaller table instead of counting as converted: the DTM minimax of
 * docs/egtb.md, "DTM files". */
int64_t egtb_verify_dtm(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen);
