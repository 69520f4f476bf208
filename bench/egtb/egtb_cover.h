// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The signatures issue 32 asks Tuong to make: at most two attacking pieces
 * (chariot, horse, cannon, pawn) in all, with any advisors and elephants
 * on both sides. Only those where one side holds the attackers are listed
 * (1 134): with attackers on both sides the repetition rules decide some
 * values, and the solver does not apply them (docs/egtb.md, "Rules").
 */
#include <stdint.h>

#include "egtb/egtb_sig.h"

enum { EGTB_COVER_MAX = 2048 };

typedef struct {
    EgtbMaterial mat;
    uint64_t positions; /* per side to move */
} EgtbCoverEntry;

/* The signatures with at most max_positions positions per side to move,
 * fewest first (ties by name); returns the count (at most EGTB_COVER_MAX),
 * -1 when out of memory. */
int egtb_cover_list(uint64_t max_positions, EgtbCoverEntry *out);
