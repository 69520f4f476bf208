// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Index of a position one piece move away from a decoded one, for the
 * solver's un-moves: each group's raw index is kept, a move changes one
 * term of one group, and the group's placement is then one lookup
 * (EgtbGroup.unique), so no walk over the pieces per candidate. Gives what
 * egtb_index_of gives (tests/test_egtb_solve.c checks it), for positions
 * in the table's frame.
 */
#include <stdbool.h>
#include <stdint.h>

#include "egtb/egtb_index.h"

typedef struct {
    uint32_t raw[EGTB_CLASS_NB];   /* each group's raw index */
    uint32_t place[EGTB_CLASS_NB]; /* each group's placement (EgtbGroup.unique[raw]) */
    uint64_t sum[2];               /* sum of weight * placement over the groups, as is and mirrored */
    int8_t group_at[SQUARE_NB];    /* the group of the piece on a point, -1 if empty */
    uint32_t weight_at[SQUARE_NB]; /* that piece's raw weight in its group */
} EgtbReindex;

/* Decode index idx with `side` to move into pos: the boards only, no key
 * and no check state (egtb_decode computes both); false when two pieces
 * share a point. */
bool egtb_reindex_place(const EgtbLayout *lay, uint64_t idx, Color side, Position *pos);
/* The same, and fill r from it (enough for egtb_unmoves and
 * egtb_reindex_move). */
bool egtb_reindex_decode(const EgtbLayout *lay, uint64_t idx, Color side, Position *pos, EgtbReindex *r);
/* Fill r from pos (in the table's frame). */
void egtb_reindex_set(const EgtbLayout *lay, const Position *pos, EgtbReindex *r);
/* The index of the position r was filled from with the piece pc on `from`
 * moved to `to`, and whether it was mirrored a <-> i first (as
 * egtb_index_of_mirrored). The move must keep pc on its table points. */
uint64_t egtb_reindex_move(const EgtbLayout *lay, const EgtbReindex *r, Piece pc, Square from, Square to,
                           bool *mirrored);
/* The nodes xiangqitb's first rule marking flags for the same move
 * (docs/egtb.md, "Moves"): egtb_reindex_move's index and, when the moved
 * piece's group is the compress group and its new placement is its own
 * mirror image, also the index of the whole position mirrored a <-> i (an
 * index of its own then). Returns how many indices it put in out (1 or 2). */
int egtb_reindex_move_both(const EgtbLayout *lay, const EgtbReindex *r, Piece pc, Square from, Square to,
                           uint64_t out[2]);
