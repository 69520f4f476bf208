// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * DTM where both sides attack (docs/egtb.md, "Both-sides DTM"): the
 * signature's WDL (its DTC table) decides every value's sign, and the
 * distances follow xiangqitb's DTM_Generator step by step (the rule
 * marks, the rule losses scored as mates, the plain steps, the raising
 * steps), so that the files come out as its, entry for entry. Its values
 * are not a plain minimax: the raising steps take some children's values
 * without the + 1 (always in their first pass, along a perpetual check or
 * chase in the second), so a win can be odd and below its DTC.
 *
 * Captures into a smaller table where both sides attack read its win
 * flag (xiangqitb's ceil_to_even / ceil_to_odd of the stored value).
 * Built only for the signatures compared with xiangqitb so far:
 * egtb_dtm_rule_supported says which.
 */
#include <stdbool.h>
#include <stddef.h>

#include "egtb_table.h"

/* Can egtb_solve_dtm_rule build mat's DTM (normalised)? Both sides
 * attack, and the signature is one of those compared with xiangqitb's
 * files (egtb_dtm_rule.c, Compared). false with the reason in why. */
bool egtb_dtm_rule_supported(const EgtbMaterial *mat, char *why, size_t whylen);

/* Solve t's DTM into fresh t->dtm arrays holding xiangqitb's stored
 * entries (egtb_table.h, t->dtm_flagged): v | 0x800 for a win, v for a
 * loss, 0 for a draw, EGTB_ILLEGAL for an illegal index. t->val must hold
 * the signature's DTC (for its WDL; a symmetric signature's both colours
 * as solved, as xiangqitb's NAME.lzw.gen) and subs the smaller tables
 * with their DTM. A symmetric signature's Black to move is then turned
 * from Red, as its file gives it. One thread. false with a message
 * (t->dtm stays NULL). */
bool egtb_solve_dtm_rule(EgtbTable *t, EgtbSet *subs, char *err, size_t errlen);
