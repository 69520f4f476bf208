// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Move-generation counting: perft(d) counts the leaves of the legal move
 * tree to depth d (the last ply counted in bulk from the legal list). */
#include <stdint.h>
#include <stdio.h>

#include "position.h"

uint64_t perft(Position *pos, int depth);
/* Print "<move>: <count>" per root move, then "Nodes searched: N" and the
 * time and speed, to out; returns the total. */
uint64_t perft_divide(Position *pos, int depth, int rank_base, FILE *out);
