// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Staged move picker. The main search gets, in order: the TT move, captures
 * that do not lose material (by victim value plus capture history, checked
 * with SEE), the two killers and the countermove, quiet moves by their
 * histories (butterfly, low-ply, continuation 1, 2, 4 and 6 plies back),
 * then the losing captures. In check every evasion is scored at once
 * (captures first). Quiescence gets the TT move if it captures, then the
 * captures, then (on its first ply) the quiet checks; ProbCut gets the captures whose SEE reaches a threshold.
 *
 * Moves come out pseudo-legal: the caller checks pos_move_is_safe(). Once
 * the caller sets skip_quiets (late-move or futility pruning), only quiet
 * moves that give check still come out.
 */
#include <stdbool.h>
#include <stdint.h>

#include "history.h"
#include "move.h"
#include "position.h"

/* The statistics that order moves at one node. Pointers may be NULL where
 * a table does not apply (low-ply history past LOW_PLY). */
typedef struct {
    const ButterflyHistory *main;
    const int16_t (*low_ply)[SQUARE_NB]; /* this ply's LowPlyHistory row, or NULL */
    const CaptureHistory *capture;
    const PieceToHistory *cont[4];       /* 1, 2, 4 and 6 plies back */
} OrderingTables;

typedef enum {
    STAGE_TT,
    STAGE_GEN_CAPTURES,
    STAGE_GOOD_CAPTURES,
    STAGE_KILLER1,
    STAGE_KILLER2,
    STAGE_COUNTER,
    STAGE_GEN_QUIETS,
    STAGE_QUIETS,
    STAGE_BAD_CAPTURES,
    STAGE_EVASION_TT,
    STAGE_GEN_EVASIONS,
    STAGE_EVASIONS,
    STAGE_QS_TT,
    STAGE_QS_GEN_CAPTURES,
    STAGE_QS_CAPTURES,
    STAGE_QS_GEN_CHECKS,
    STAGE_QS_CHECKS,
    STAGE_PC_TT,
    STAGE_PC_GEN_CAPTURES,
    STAGE_PC_CAPTURES,
    STAGE_DONE
} PickStage;

typedef struct {
    const Position *pos;
    OrderingTables tables;
    Move tt_move, killers[2], counter;
    PickStage stage;
    bool skip_quiets;
    bool qs_checks;    /* quiescence: quiet checking moves after the captures */
    int see_threshold; /* ProbCut: captures must reach this SEE */
    int cur;
    int bad_count, bad_cur;
    MoveList list;
    int scores[MAX_MOVES];
    Move bad[MAX_MOVES];
} MovePicker;

/* Picker for the main search (in check it hands out evasions). */
void mp_init(MovePicker *mp, const Position *pos, Move tt_move, const Move killers[2], Move counter,
             const OrderingTables *tables);
/* Picker for quiescence: captures (then quiet checks, with `checks`), or
 * every evasion when in check. */
void mp_init_qsearch(MovePicker *mp, const Position *pos, Move tt_move, bool checks, const OrderingTables *tables);
/* Picker for ProbCut (not in check): captures with SEE >= threshold. */
void mp_init_probcut(MovePicker *mp, const Position *pos, Move tt_move, int threshold, const OrderingTables *tables);
/* Next pseudo-legal move, MOVE_NONE when exhausted. */
Move mp_next(MovePicker *mp);

/* Does m capture in pos? */
static inline bool move_is_capture(const Position *pos, Move m) { return pos->board[move_to(m)] != NO_PIECE; }
