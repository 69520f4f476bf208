// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Staged move picker. The main search gets, in order: the TT move, captures
 * that do not lose material (by MVV-LVA, checked with SEE), the two killers
 * and the countermove, quiet moves by history, then the losing captures.
 * In check every evasion is scored at once (captures first). Quiescence
 * gets the TT move if it captures, then the captures by MVV-LVA.
 *
 * Moves come out pseudo-legal: the caller checks pos_move_is_safe(). Once
 * the caller sets skip_quiets (late-move or futility pruning), only quiet
 * moves that give check still come out.
 */
#include <stdbool.h>
#include <stdint.h>

#include "move.h"
#include "position.h"

enum { HISTORY_MAX = 16384 };

/* Quiet-move history by colour, from and to point. */
typedef int16_t ButterflyHistory[COLOR_NB][SQUARE_NB][SQUARE_NB];
/* History of a (piece, to) pair following a given earlier (piece, to). */
typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];
typedef PieceToHistory ContinuationHistory[PIECE_NB][SQUARE_NB];
/* The reply that last refuted a (piece, to) move. */
typedef Move CounterMoveTable[PIECE_NB][SQUARE_NB];

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
    STAGE_DONE
} PickStage;

typedef struct {
    const Position *pos;
    const ButterflyHistory *history;
    const PieceToHistory *cont[2]; /* continuation tables of 1 and 2 plies ago (may be NULL) */
    Move tt_move, killers[2], counter;
    PickStage stage;
    bool skip_quiets;
    int cur;
    int bad_count, bad_cur;
    MoveList list;
    int scores[MAX_MOVES];
    Move bad[MAX_MOVES];
} MovePicker;

/* Picker for the main search (in check it hands out evasions). */
void mp_init(MovePicker *mp, const Position *pos, Move tt_move, const Move killers[2], Move counter,
             const ButterflyHistory *history, const PieceToHistory *cont0, const PieceToHistory *cont1);
/* Picker for quiescence: captures, or every evasion when in check. */
void mp_init_qsearch(MovePicker *mp, const Position *pos, Move tt_move, const ButterflyHistory *history);
/* Next pseudo-legal move, MOVE_NONE when exhausted. */
Move mp_next(MovePicker *mp);

/* Does m capture in pos? */
static inline bool move_is_capture(const Position *pos, Move m) { return pos->board[move_to(m)] != NO_PIECE; }
