// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* The `d` command: a text diagram of the board, its FEN, key and checkers. */
#include <stdio.h>

#include "position.h"

/* Print the diagram (Red at the bottom), FEN, Zobrist key and the pieces
 * giving check, with squares in rank_base notation. */
void board_print(const Position *pos, int rank_base, FILE *out);
