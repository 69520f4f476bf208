// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * UCCI draw and resign decisions, made once the search has its answer.
 *
 * - Accept a draw the opponent offered (`go draw`, `ponderhit draw`) when
 *   the score is dead even or worse (<= VERDICT_EVEN_MARGIN) and material is
 *   low, or when the search sees itself mated.
 * - Offer a draw (option `drawoffer`, on by default) when the score is
 *   within +-VERDICT_OFFER_MARGIN of zero after a search of at least
 *   VERDICT_OFFER_DEPTH plies and material is low.
 * - Resign (option `resign`, off by default) when the search has found a
 *   forced mate against us.
 * Material is low when the attackers left on the board (a chariot counts 2,
 * a horse or cannon 1, both sides together) total at most
 * VERDICT_LOW_MATERIAL: chariot against chariot, horse and cannon against
 * horse and cannon...
 */
#include <stdbool.h>

#include "position.h"
#include "protocol_format.h"

enum { VERDICT_EVEN_MARGIN = 20, VERDICT_OFFER_MARGIN = 5, VERDICT_OFFER_DEPTH = 8, VERDICT_LOW_MATERIAL = 4 };

typedef struct {
    bool offer_draw;
    bool resign;
} VerdictRules;

/* Is the material on the board low enough for a draw? */
bool verdict_low_material(const Position *pos);
/* The token to add to bestmove for a search of root that scored `score`
 * (side to move's view) at `depth`, given whether a draw was offered. */
Verdict verdict_decide(const Position *root, Score score, int depth, bool draw_offered, const VerdictRules *rules);
