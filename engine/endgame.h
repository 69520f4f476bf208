// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Endgame knowledge that is cheap to see from material alone: how much of
 * its advantage the stronger side can turn into a win. eg_scale() returns a
 * factor out of SCALE_NORMAL (128) that the evaluation multiplies its score
 * by: 128 leaves it, 0 makes the position a draw. eg_known_win() names
 * the side whose material is a theoretical win, for a bonus that steers
 * the search into such endings and keeps it from trading out of them.
 */
#include "position.h"

/* Draw scale for `strong`, the side the raw score favours. */
int eg_scale(const Position *pos, Color strong);
/* The side whose material wins by endgame theory against best defence
 * (docs/eval.md, "Known wins"), or COLOR_NB when there is none. */
Color eg_known_win(const Position *pos);
