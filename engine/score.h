// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Score scale: centipawn-like, a horse or cannon is worth about 100...400
 * depending on the evaluation's scale (see eval.h). Mate scores count plies
 * from the root: a side mated at ply p scores -(SCORE_MATE - p).
 *
 * Endgame-table results (docs/egtb.md, "Scores") have their own band just
 * below the mates, as the Stockfish family scores tablebase wins: a table
 * win found at ply p scores SCORE_TB_WIN - p, a loss -(SCORE_TB_WIN - p).
 * They beat every evaluation, lose to every mate, and are never printed as
 * mates: the table knows the winner, not the distance to mate. */
#include "types.h"

enum {
    SCORE_DRAW = 0,
    SCORE_MATE = 30000,
    SCORE_INFINITE = 32000,
    SCORE_NONE = 32001,
    SCORE_MATE_IN_MAX = SCORE_MATE - MAX_PLY, /* |score| >= this is a mate score */
    SCORE_TB_WIN = SCORE_MATE_IN_MAX - 1,
    SCORE_TB_WIN_IN_MAX = SCORE_TB_WIN - MAX_PLY, /* |score| >= this: a table result or a mate */
};

static inline bool score_is_mate(Score s) { return s >= SCORE_MATE_IN_MAX || s <= -SCORE_MATE_IN_MAX; }
/* A mate or a table result: a won or lost game, not an evaluation. */
static inline bool score_is_decisive(Score s) { return s >= SCORE_TB_WIN_IN_MAX || s <= -SCORE_TB_WIN_IN_MAX; }
/*
 * Moves (not plies) for UCI `score mate N`, N >= 1: +N when the side to move
 * wins within N of its own moves, -N when it loses within N of its own moves.
 * A result at ply p from the root (|s| = SCORE_MATE - p) is (p + 1) / 2 moves
 * for either sign. Checkmates of the opponent end on odd plies and of the side
 * to move on even ones, but a repetition verdict (search_tree.c, rule_verdict) can
 * fall on either: a forbidden repetition that the side to move completes with
 * its first move is a loss at ply 1, `mate -1` (the old formula, plies / 2 for
 * losses, printed it as `mate 0`). Mated in the position itself (ply 0) has
 * no move to print; the protocol writes its `mate 0` line literally, and this
 * returns -1 for it.
 */
static inline int score_mate_moves(Score s) {
    int plies = SCORE_MATE - (s > 0 ? s : -s);
    int moves = plies < 1 ? 1 : (plies + 1) / 2;
    return s > 0 ? moves : -moves;
}

/* A fail-high score `best` > `beta` pulled towards beta by 1/(depth + 1)
 * of the way: how far a cut-off's score lies above beta is the least
 * trustworthy part of it (one refutation found, the rest unsearched), the
 * more so the shallower the search. The result stays at or above beta (a
 * lower bound stays one); scores at or below beta, mates and table results
 * are returned as they are. Stockfish does the same at every fail high of
 * its search and quiescence. */
static inline Score score_fail_high_blend(Score best, Score beta, int depth) {
    if (best <= beta || depth < 1 || score_is_decisive(best) || score_is_decisive(beta)) return best;
    return (Score)((best * depth + beta) / (depth + 1));
}
