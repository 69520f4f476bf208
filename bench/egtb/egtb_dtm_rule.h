// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * DTM where both sides attack (docs/egtb.md, "Both-sides DTM"): the
 * signature's WDL (its DTC table) decides every value's sign, and the
 * distances follow xiangqitb's DTM_Generator step by step (the rule
 * marks, the rule losses scored as mates, the plain steps, the raising
 * steps), so that the files come out as its, entry for entry. Its values
 * are not a plain minimax: a win can be odd, and some moves along a
 * perpetual check or chase count no ply.
 *
 * Asymmetric signatures whose captures lead only to tables with one side
 * attacking (or to draws): egtb_dtm_rule_supported says which.
 */
#include <stdbool.h>
#include <stddef.h>

#include "egtb_table.h"

/* Can egtb_solve_dtm_rule build mat's DTM? Both sides attack, the
 * signature is not symmetric, and no capture leads to a table where both
 * sides attack (its entries would carry win flags the capture scores do
 * not read yet). false with the reason in why. */
bool egtb_dtm_rule_supported(const EgtbMaterial *mat, char *why, size_t whylen);

/* Solve t's DTM into fresh t->dtm arrays holding xiangqitb's stored
 * entries (egtb_table.h, t->dtm_flagged): v | 0x800 for a win, v for a
 * loss, 0 for a draw, EGTB_ILLEGAL for an illegal index. t->val must hold
 * the signature's DTC (for its WDL) and subs the smaller tables with
 * their DTM. One thread. false with a message (t->dtm stays NULL). */
bool egtb_solve_dtm_rule(EgtbTable *t, EgtbSet *subs, char *err, size_t errlen);
