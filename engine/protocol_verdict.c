// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_verdict.h"

#include "score.h"

bool verdict_low_material(const Position *pos) {
    int weight = 0;
    for (Color c = RED; c <= BLACK; c++)
        weight += 2 * bb_popcount(pos_pieces(pos, c, ROOK)) + bb_popcount(pos_pieces(pos, c, HORSE)) +
                  bb_popcount(pos_pieces(pos, c, CANNON));
    return weight <= VERDICT_LOW_MATERIAL;
}

Verdict verdict_decide(const Position *root, Score score, int depth, bool draw_offered, const VerdictRules *rules) {
    bool mated = score <= -SCORE_MATE_IN_MAX;
    bool low = verdict_low_material(root);
    if (draw_offered && ((score <= VERDICT_EVEN_MARGIN && low) || mated)) return VERDICT_DRAW;
    if (rules->resign && mated) return VERDICT_RESIGN;
    if (rules->offer_draw && !draw_offered && low && depth >= VERDICT_OFFER_DEPTH && score <= VERDICT_OFFER_MARGIN &&
        score >= -VERDICT_OFFER_MARGIN)
        return VERDICT_DRAW;
    return VERDICT_NONE;
}
