// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * 90-point bitboards: bit n is square n (see types.h), bits 90..127 are
 * always zero. Besides the ordinary rank-major bitboard the position keeps a
 * file-major ("transposed") occupancy where square (file f, rank r) is bit
 * f * 10 + r, so that a whole file can be read with one shift.
 */
#include <stdint.h>

#include "types.h"

typedef unsigned __int128 Bitboard;

extern Bitboard SquareBB[SQUARE_NB];
extern Bitboard TransposedBB[SQUARE_NB];

#define BB_EMPTY ((Bitboard)0)

static inline Bitboard square_bb(Square s) { return SquareBB[s]; }
static inline Bitboard transposed_bb(Square s) { return TransposedBB[s]; }

static inline int bb_popcount(Bitboard b) {
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}

static inline Square bb_lsb(Bitboard b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline Square bb_pop_lsb(Bitboard *b) {
    Square s = bb_lsb(*b);
    *b &= *b - 1;
    return s;
}

static inline bool bb_test(Bitboard b, Square s) { return (b & SquareBB[s]) != 0; }

/* The 9 bits of one rank, and the 10 bits of one file of a transposed board. */
static inline unsigned bb_rank_bits(Bitboard occ, int rank) { return (unsigned)(occ >> (rank * 9)) & 0x1FF; }
static inline unsigned bb_file_bits(Bitboard occ_t, int file) { return (unsigned)(occ_t >> (file * 10)) & 0x3FF; }

/* Fill SquareBB and TransposedBB; called once by engine_init(). */
void bb_init(void);
