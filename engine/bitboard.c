// SPDX-License-Identifier: GPL-3.0-or-later
#include "bitboard.h"

Bitboard SquareBB[SQUARE_NB];
Bitboard TransposedBB[SQUARE_NB];

void bb_init(void) {
    for (Square s = 0; s < SQUARE_NB; s++) {
        SquareBB[s] = (Bitboard)1 << s;
        TransposedBB[s] = (Bitboard)1 << (file_of(s) * 10 + rank_of(s));
    }
}
