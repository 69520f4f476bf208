// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Board indexing of a signature, laid out as xiangqitb lays it out
 * (docs/egtb.md, "Indexing"), so that a table of ours and one of
 * xiangqitb's hold the same position at the same index.
 *
 * The pieces fall into up to ten classes, in this order:
 *   Red (stronger side): defenders (K + advisors + elephants), chariots,
 *   horses, cannons, pawns; then the same five for Black.
 * Each populated class is a group. A group's raw index is the mixed-radix
 * number of its pieces' point indices (the first piece varies fastest),
 * where a piece's point index counts only the points it may stand on
 * (king 9, advisor 5, elephant 7, pawn 55, others 90), ascending by square.
 * Raw placements with two pieces on one point are dropped and those that
 * differ only by swapping identical pieces are merged; the survivors,
 * numbered in raw order, are the group's placements. A placement whose file
 * mirror (a <-> i) came earlier is "secondary" and moves to the end, after
 * all primary ones (compress_size of them).
 *
 * One group, the compress group (the least ratio compress_size /
 * table_size, first in class order on ties), counts only its primary
 * placements; a position whose compress placement is secondary is mirrored
 * a <-> i as a whole first. The board index is
 *   sum over groups g in class order of  placement_g * weight_g,
 *   weight_first = 1, weight_next = weight_g * size_g,
 * size_g being compress_size for the compress group, table_size otherwise.
 * Each index has one table per side to move (Red = the stronger side).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_sig.h"
#include "position.h"

enum { EGTB_GROUP_MAX = 5, EGTB_CLASS_NB = 10 };

typedef struct {
    int n;                             /* pieces in the group */
    Piece piece[EGTB_GROUP_MAX];       /* in order: K, A.., B.. or all of one type */
    uint32_t weight[EGTB_GROUP_MAX];   /* raw index weight of each piece */
    uint32_t raw_size;                 /* product of the point counts */
    uint32_t table_size, compress_size;
    uint8_t *squares;                  /* table_size * n: each placement's points */
    uint32_t *mirror;                  /* table_size: the placement mirrored a <-> i */
    uint32_t *unique;                  /* raw_size: raw index -> placement, UINT32_MAX if none */
} EgtbGroup;

typedef struct {
    EgtbMaterial mat;
    int ngroups;
    int cls[EGTB_CLASS_NB];            /* class of each group, ascending */
    EgtbGroup group[EGTB_CLASS_NB];
    uint64_t size[EGTB_CLASS_NB];      /* placements counted per group */
    uint64_t weight[EGTB_CLASS_NB];
    int compress;                      /* the compress group's position in group[] */
    uint64_t positions;                /* indices per side to move */
} EgtbLayout;

/* Build the layout of a normalised signature; false if out of memory. */
bool egtb_layout_init(EgtbLayout *lay, const EgtbMaterial *mat);
void egtb_layout_free(EgtbLayout *lay);

/* The points a piece may stand on (ascending), and how many. */
int egtb_piece_squares(Piece pc, Square out[SQUARE_NB]);

/* Position -> (side to move in the table's frame, index). pos must have
 * this layout's material, possibly with colours swapped (a Black-heavy
 * position or, for a symmetric signature, Black to move): the board is then
 * turned through the river and the colours exchanged first. */
uint64_t egtb_index_of(const EgtbLayout *lay, const Position *pos, Color *side);
/* The same, and whether the position was mirrored a <-> i first (its
 * compress placement is secondary): then egtb_decode gives back the
 * mirror image, otherwise pos itself. */
uint64_t egtb_index_of_mirrored(const EgtbLayout *lay, const Position *pos, Color *side, bool *mirrored);

/* Index -> position with `side` to move, in the table's frame; false when
 * two pieces share a point. The position may still be illegal (the side
 * not to move in check, or the kings facing): see egtb_decoded_legal. */
bool egtb_decode(const EgtbLayout *lay, uint64_t index, Color side, Position *pos);
/* Is a decoded position legal as xiangqitb counts it: the side not to move
 * not in check (kings facing included), and no two uncrossed pawns of one
 * side on one file? */
bool egtb_decoded_legal(const Position *pos);
/* Two uncrossed pawns of one side on one file: no game reaches it, and
 * xiangqitb counts it illegal (its table entry means nothing). */
bool egtb_pawns_stacked(const Position *pos);
