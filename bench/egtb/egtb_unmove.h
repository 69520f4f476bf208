// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Un-moves: the quiet moves that lead into a position, for the retrograde
 * solver (docs/egtb.md, "Solver").
 *
 * A move taken back is not the reverse move: a horse's leg is the point
 * next to the point it left, not next to where it stands; a pawn steps
 * back only towards its own side, and sideways only where it stood across
 * the river; a chariot or cannon slides back over empty points only (a
 * quiet move). Nothing is un-captured: captures leave the table and are
 * scored from the smaller one.
 */
#include "move.h"
#include "position.h"

/* The quiet moves m of the side not to move in x such that, in the position
 * before m (x with m taken back and the other side to move):
 *   - every piece stands on a point of its table (pawns on pawn points),
 *   - the position is legal (egtb_decoded_legal: the side not to move there
 *     is not in check, no two uncrossed pawns of one side on one file),
 *   - m is a legal move (given that x itself is legal).
 * from/to of m are as the earlier position plays it. Only x's boards are
 * read (no key or check state). */
void egtb_unmoves(const Position *x, MoveList *out);

