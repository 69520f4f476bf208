// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Checks a move would give, computed before making it, so the search can
 * spare checking moves from pruning without a make/unmake. */
#include <stdbool.h>

#include "move.h"
#include "position.h"

/* Would pseudo-legal move m leave the opponent's king attacked (directly,
 * or by a discovered chariot, cannon, or horse whose leg was freed)? */
bool move_gives_check(const Position *pos, Move m);
/* The same without the shortcut for moves far from that king (tests). */
bool move_gives_check_full(const Position *pos, Move m);
