// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Input features, shared by the engine and the trainer.
 *
 * For perspective c, a piece p on point s is feature
 *
 *   f = (bucket * 14 + pidx) * 90 + s'
 *
 * s' is s seen from c's side (ranks mirrored for Black, so every
 * perspective sees its own back rank as rank 0); pidx is type - 1 for c's
 * own pieces and 7 + type - 1 for the opponent's.
 *
 * NNUE_FS_PLAIN: bucket 0. NNUE_FS_KING_BUCKETS: with c's king on file f > 4
 * (in c's coordinates) every s' is also mirrored left-right (file 8 - f),
 * so the king always stands on file 3 or 4; bucket = king's relative rank * 2
 * + (its mirrored file - 3), 0..5. Any move of c's own king changes c's
 * bucket or mirror, which refreshes c's accumulator.
 */
#include <stdbool.h>

#include "nnue_arch.h"
#include "types.h"

/* The orientation of perspective c: bucket and left-right mirror, from c's
 * king square (any square: off-palace values are clamped). */
typedef struct {
    int bucket;
    bool mirror;
} NnueOrient;

static inline NnueOrient nnue_orient(int feature_set, Color c, Square king) {
    NnueOrient o = {0, false};
    if (feature_set != NNUE_FS_KING_BUCKETS || king == SQ_NONE) return o;
    int rank = relative_rank(c, king), file = file_of(king);
    if (rank > 2) rank = 2;
    o.mirror = file > 4;
    if (o.mirror) file = 8 - file;
    if (file < 3) file = 3;
    o.bucket = rank * 2 + (file - 3);
    return o;
}

/* Point s as perspective c sees it under orientation o. */
static inline int nnue_orient_square(Color c, NnueOrient o, Square s) {
    int rank = c == RED ? rank_of(s) : 9 - rank_of(s);
    int file = o.mirror ? 8 - file_of(s) : file_of(s);
    return rank * 9 + file;
}

/* Piece index 0..13 of p for perspective c. */
static inline int nnue_piece_index(Color c, Piece p) { return (color_of(p) == c ? 0 : 7) + (int)type_of(p) - 1; }

/* Feature index of piece p on s for perspective c under orientation o. */
static inline int nnue_feature(Color c, NnueOrient o, Piece p, Square s) {
    return (o.bucket * NNUE_PIECE_INDEX_NB + nnue_piece_index(c, p)) * 90 + nnue_orient_square(c, o, s);
}
