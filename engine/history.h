// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The search's learnt statistics, per thread:
 *
 *   ButterflyHistory     quiet move by colour, from and to point
 *   LowPlyHistory        quiet move by from/to in the first LOW_PLY plies of
 *                        the root (the root's own moves are ordered by what
 *                        the last iterations found there)
 *   CaptureHistory       capture by moving piece, to point and captured type
 *   ContinuationHistory  (piece, to) following an earlier (piece, to) move,
 *                        1, 2, 4 and 6 plies back
 *   CounterMoveTable     the quiet reply that last refuted a (piece, to) move
 *   CorrectionHistory    how far searches found the static evaluation off, by
 *                        pawn structure and by each side's other pieces
 *
 * Every history value moves by "gravity": a bonus b changes h by
 * b - h * |b| / HISTORY_MAX, so h stays within +-HISTORY_MAX and a value
 * near the bound moves less. Bonus and malus sizes grow with depth up to a
 * cap (search_params.h: HIST_BONUS_*, HIST_MALUS_*).
 */
#include <stdint.h>
#include <stdlib.h>

#include "position.h"
#include "search_params.h"
#include "types.h"

enum { HISTORY_MAX = 16384, LOW_PLY = 4 };

typedef int16_t ButterflyHistory[COLOR_NB][SQUARE_NB][SQUARE_NB];
typedef int16_t LowPlyHistory[LOW_PLY][SQUARE_NB][SQUARE_NB];
typedef int16_t CaptureHistory[PIECE_NB][SQUARE_NB][TYPE_NB];
typedef int16_t PieceToHistory[PIECE_NB][SQUARE_NB];
typedef PieceToHistory ContinuationHistory[PIECE_NB][SQUARE_NB];
typedef uint16_t CounterMoveTable[PIECE_NB][SQUARE_NB];

/* Correction tables: entries are evaluation units times CORR_GRAIN, kept
 * within +-CORR_LIMIT by gravity; a search of depth d that finds the
 * corrected eval off by e adds about e * d / CORR_DEPTH_DIV (capped). */
enum { CORR_SIZE = 16384, CORR_GRAIN = 16, CORR_LIMIT = 64 * CORR_GRAIN, CORR_DEPTH_DIV = 8 };
typedef int16_t CorrectionTable[COLOR_NB][CORR_SIZE];

typedef struct {
    CorrectionTable pawn;        /* [side to move][pawn-structure index] */
    CorrectionTable nonpawn[COLOR_NB]; /* [pieces of colour][side to move][index] */
} CorrectionHistory;

static inline void history_update(int16_t *h, int bonus) {
    *h = (int16_t)(*h + bonus - *h * abs(bonus) / HISTORY_MAX);
}

static inline int history_bonus(int depth) {
    int b = HIST_BONUS_MUL * depth - HIST_BONUS_SUB;
    return b < 0 ? 0 : b > HIST_BONUS_MAX ? HIST_BONUS_MAX : b;
}

static inline int history_malus(int depth) {
    int b = HIST_MALUS_MUL * depth - HIST_MALUS_SUB;
    return b < 0 ? 0 : b > HIST_MALUS_MAX ? HIST_MALUS_MAX : b;
}

/* Indices of pos in the correction tables. */
unsigned corr_pawn_index(const Position *pos);
unsigned corr_nonpawn_index(const Position *pos, Color c);

/* The static evaluation `raw` corrected by what searches found for
 * positions like pos (clamped off the mate range). */
int corr_apply(const CorrectionHistory *ch, const Position *pos, int raw);
/* A search of `depth` found `score` where the corrected eval said
 * `static_eval`: move the entries towards the difference. */
void corr_update(CorrectionHistory *ch, const Position *pos, int depth, int score, int static_eval);
