// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Static exchange evaluation: the material balance of the capture sequence
 * on one point, each side recapturing with its least valuable attacker.
 * Sliding attacks (chariot, cannon screens) and horse legs are recomputed
 * after every capture, so x-rays and newly made screens are seen. Pins and
 * the flying-general rule are ignored. Values are SEE's own fixed scale.
 */
#include <stdbool.h>

#include "move.h"
#include "position.h"

extern const int SeeValue[TYPE_NB];

/* Does move m win at least `threshold` (SEE scale) in the exchange? */
bool see_ge(const Position *pos, Move m, int threshold);
