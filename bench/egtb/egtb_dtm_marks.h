// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The both-sides DTM generator's rule marks (docs/egtb.md, "Both-sides
 * DTM"; xiangqitb's loop_init_check_chase): every open position in check
 * or escaping an attack is marked as the victim, the children of its
 * evasions as the checker or chaser; then the marks that do not hold up
 * are removed, in passes until none goes. The marks stay in the entries'
 * bits 12-15 for the later steps.
 */
#include <stdint.h>

#include "egtb_dtm_rule_state.h"

/* Mark D's open entries and prune the marks; rule_bits are two bitmaps
 * (one per side to move) of D's size, used as working sets. */
void dtm_marks(DtmRule *D, uint64_t *rule_bits[COLOR_NB]);
