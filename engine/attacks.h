// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Precomputed move and attack tables.
 *
 * Sliding pieces (chariot, cannon, and the flying general, which attacks
 * like a chariot along its file) are looked up from the occupancy of one
 * rank (9 bits) or one file (10 bits): the tables give the reachable points
 * of that line as a mask, so no ray is walked at run time.
 *
 * Leapers keep short per-square lists with the blocking point next to each
 * step: the elephant's eye, and the horse's leg, which is always adjacent
 * to the horse itself. HorseAttackers lists, for a target point, where a
 * horse must stand to hit it and which leg (next to that horse) must be free.
 */
#include <stdint.h>

#include "bitboard.h"
#include "types.h"

typedef struct {
    uint8_t to;    /* destination (or, in HorseAttackers, the horse's square) */
    uint8_t block; /* point that must be empty: horse leg or elephant eye */
} Step;

/* Line masks: for a slider on line position i with line occupancy occ,
 * the positions it reaches (first blocker included) and the positions a
 * cannon captures on (the first piece beyond exactly one screen). */
extern uint16_t RankSlide[FILE_NB][512];
extern uint16_t RankCannon[FILE_NB][512];
extern uint16_t FileSlide[RANK_NB][1024];
extern uint16_t FileCannon[RANK_NB][1024];
/* FileSpread[m]: the file-a bitboard of the ranks in mask m. */
extern Bitboard FileSpread[1024];

extern Bitboard KingSteps[SQUARE_NB];    /* inside the palace of that square */
extern Bitboard AdvisorSteps[SQUARE_NB]; /* inside the palace of that square */
extern Bitboard PawnSteps[COLOR_NB][SQUARE_NB];
extern Bitboard PawnAttackers[COLOR_NB][SQUARE_NB]; /* where a pawn of colour c attacks s from */
extern Step ElephantSteps[SQUARE_NB][4];
extern uint8_t ElephantCount[SQUARE_NB];
extern Step HorseSteps[SQUARE_NB][8];
extern uint8_t HorseCount[SQUARE_NB];
extern Step HorseAttackers[SQUARE_NB][8];
extern uint8_t HorseAttackerCount[SQUARE_NB];
/* The same king, advisor and pawn steps as lists, for generation. */
extern uint8_t KingTargets[SQUARE_NB][4], KingTargetCount[SQUARE_NB];
extern uint8_t AdvisorTargets[SQUARE_NB][4], AdvisorTargetCount[SQUARE_NB];
extern uint8_t PawnTargets[COLOR_NB][SQUARE_NB][3], PawnTargetCount[COLOR_NB][SQUARE_NB];
extern Bitboard PalaceBB[COLOR_NB];
extern Bitboard OwnHalfBB[COLOR_NB];

/* Build every table; called once by engine_init(). */
void attacks_init(void);

/* Points a chariot on s reaches given both occupancies (first blocker included). */
static inline Bitboard rook_attacks(Square s, Bitboard occ, Bitboard occ_t) {
    int f = file_of(s), r = rank_of(s);
    return ((Bitboard)RankSlide[f][bb_rank_bits(occ, r)] << (r * 9)) |
           (FileSpread[FileSlide[r][bb_file_bits(occ_t, f)]] << f);
}

/* Points a cannon on s captures on (pieces of either colour beyond one screen). */
static inline Bitboard cannon_attacks(Square s, Bitboard occ, Bitboard occ_t) {
    int f = file_of(s), r = rank_of(s);
    return ((Bitboard)RankCannon[f][bb_rank_bits(occ, r)] << (r * 9)) |
           (FileSpread[FileCannon[r][bb_file_bits(occ_t, f)]] << f);
}

/* Points along the rank of s up to and including the first blocker. */
static inline Bitboard rank_attacks(Square s, Bitboard occ) {
    int r = rank_of(s);
    return (Bitboard)RankSlide[file_of(s)][bb_rank_bits(occ, r)] << (r * 9);
}

/* Points along the file of s up to and including the first blocker. */
static inline Bitboard file_attacks(Square s, Bitboard occ_t) {
    return FileSpread[FileSlide[rank_of(s)][bb_file_bits(occ_t, file_of(s))]] << file_of(s);
}
