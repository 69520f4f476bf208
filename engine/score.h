#pragma once
/* Score scale: centipawn-like, a horse or cannon is worth about 100...400
 * depending on the evaluation's scale (see eval.h). Mate scores count plies
 * from the root: a side mated at ply p scores -(SCORE_MATE - p). */
#include "types.h"

enum {
    SCORE_DRAW = 0,
    SCORE_MATE = 30000,
    SCORE_INFINITE = 32000,
    SCORE_NONE = 32001,
    SCORE_MATE_IN_MAX = SCORE_MATE - MAX_PLY, /* |score| >= this is a mate score */
};

static inline bool score_is_mate(Score s) { return s >= SCORE_MATE_IN_MAX || s <= -SCORE_MATE_IN_MAX; }
/* Moves (not plies) to mate for UCI `score mate N`: positive when we mate. */
static inline int score_mate_moves(Score s) { return s > 0 ? (SCORE_MATE - s + 1) / 2 : -(SCORE_MATE + s) / 2; }
