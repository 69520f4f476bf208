// SPDX-License-Identifier: GPL-3.0-or-later
#include "zobrist.h"

Key ZobristPiece[PIECE_NB][SQUARE_NB];
Key ZobristSide;

uint64_t prng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zobrist_init(void) {
    uint64_t seed = 0x7475C3B46E67ULL; /* "tuong" */
    for (int p = 0; p < PIECE_NB; p++)
        for (Square s = 0; s < SQUARE_NB; s++) ZobristPiece[p][s] = type_of((Piece)p) ? prng_next(&seed) : 0;
    ZobristSide = prng_next(&seed);
}
