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
#include <stdint.h>

#include "egtb/egtb_index.h"
#include "egtb_reindex.h"
#include "move.h"
#include "position.h"

/* The quiet moves m of the side not to move in x by the piece rules, such
 * that in the position before m (x with m taken back, the other side to
 * move) every piece stands on a point of its table (pawns on pawn points).
 * That position may be illegal (the side to move in x in check there, or
 * two uncrossed pawns of a side on one file): the solver's table marks
 * such positions EGTB_ILLEGAL, the exact check it needs. When it is legal,
 * m is a legal move there (x itself being legal). from/to of m are as the
 * earlier position plays it. Only x's boards are read. */
void egtb_unmoves(const Position *x, MoveList *out);

/* Room egtb_parents works in, one per thread: two positions (a node and
 * its mirror image), its index by groups and a move list. */
typedef struct {
    Position *pos, *mirror;
    EgtbReindex r;
    MoveList list;
} EgtbParentScratch;

/* Call fn(ctx, parent) for every (parent node, quiet move) pair leading
 * into `node` (2 * positions nodes: Red to move, then Black): un-moves of
 * every position the node's index stands for (itself and, when its
 * compress placement is its own mirror image, that image), a parent counted
 * only where its index was not taken from its mirror (else the parent's
 * move into the mirror is found from the mirror). So each pair that a
 * forward count of quiet moves sees is seen exactly once. A parent may be
 * illegal (the caller's table says so). */
void egtb_parents(const EgtbLayout *lay, uint64_t node, EgtbParentScratch *s, void (*fn)(void *ctx, uint64_t parent),
                  void *ctx);
