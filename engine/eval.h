// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Static evaluation from the side to move's point of view. */
#include <stdio.h>

#include "position.h"
#include "types.h"

/* Score of pos for the side to move: the network when one is loaded and
 * switched on (engine/nnue), else the hand-crafted evaluation. */
Score evaluate(const Position *pos);
/* The hand-crafted evaluation alone. */
Score eval_classical(const Position *pos);
/* Print the hand-crafted evaluation broken down by term, for both sides,
 * to out; each line is prefixed by `prefix` (e.g. "info string " for UCI). */
void eval_trace(const Position *pos, const char *prefix, FILE *out);
