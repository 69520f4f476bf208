// SPDX-License-Identifier: GPL-3.0-or-later
#include "attacks.h"

uint16_t RankSlide[FILE_NB][512];
uint16_t RankCannon[FILE_NB][512];
uint16_t FileSlide[RANK_NB][1024];
uint16_t FileCannon[RANK_NB][1024];
Bitboard FileSpread[1024];

Bitboard KingSteps[SQUARE_NB];
Bitboard AdvisorSteps[SQUARE_NB];
Bitboard PawnSteps[COLOR_NB][SQUARE_NB];
Bitboard PawnAttackers[COLOR_NB][SQUARE_NB];
Step ElephantSteps[SQUARE_NB][4];
uint8_t ElephantCount[SQUARE_NB];
Step HorseSteps[SQUARE_NB][8];
uint8_t HorseCount[SQUARE_NB];
Step HorseAttackers[SQUARE_NB][8];
uint8_t HorseAttackerCount[SQUARE_NB];
uint8_t KingTargets[SQUARE_NB][4], KingTargetCount[SQUARE_NB];
uint8_t AdvisorTargets[SQUARE_NB][4], AdvisorTargetCount[SQUARE_NB];
uint8_t PawnTargets[COLOR_NB][SQUARE_NB][3], PawnTargetCount[COLOR_NB][SQUARE_NB];
Bitboard PalaceBB[COLOR_NB];
Bitboard OwnHalfBB[COLOR_NB];

/* Walk a line of `len` points from `pos` in both directions: the slide
 * mask stops at the first piece; the cannon mask is the second piece. */
static void line_masks(int pos, unsigned occ, int len, uint16_t *slide, uint16_t *cannon) {
    *slide = 0;
    *cannon = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int i = pos + dir;
        for (; i >= 0 && i < len; i += dir) {
            *slide |= (uint16_t)(1u << i);
            if (occ & (1u << i)) break;
        }
        for (i += dir; i >= 0 && i < len; i += dir) {
            if (occ & (1u << i)) {
                *cannon |= (uint16_t)(1u << i);
                break;
            }
        }
    }
}

static bool in_palace(int file, int rank) { return file >= 3 && file <= 5 && (rank <= 2 || rank >= 7); }

static bool same_half(int rank_a, int rank_b) { return (rank_a <= 4) == (rank_b <= 4); }

static void init_lines(void) {
    for (int f = 0; f < FILE_NB; f++)
        for (unsigned occ = 0; occ < 512; occ++) line_masks(f, occ, 9, &RankSlide[f][occ], &RankCannon[f][occ]);
    for (int r = 0; r < RANK_NB; r++)
        for (unsigned occ = 0; occ < 1024; occ++) line_masks(r, occ, 10, &FileSlide[r][occ], &FileCannon[r][occ]);
    for (unsigned m = 0; m < 1024; m++) {
        FileSpread[m] = 0;
        for (int r = 0; r < RANK_NB; r++)
            if (m & (1u << r)) FileSpread[m] |= square_bb(make_square(0, r));
    }
}

static void init_palace_pieces(Square s) {
    static const int orth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int f = file_of(s), r = rank_of(s);
    if (!in_palace(f, r)) return;
    for (int i = 0; i < 4; i++) {
        int tf = f + orth[i][0], tr = r + orth[i][1];
        if (square_ok(tf, tr) && in_palace(tf, tr) && same_half(r, tr)) KingSteps[s] |= square_bb(make_square(tf, tr));
        tf = f + diag[i][0], tr = r + diag[i][1];
        if (square_ok(tf, tr) && in_palace(tf, tr) && same_half(r, tr)) AdvisorSteps[s] |= square_bb(make_square(tf, tr));
    }
}

static void init_elephant(Square s) {
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int f = file_of(s), r = rank_of(s);
    for (int i = 0; i < 4; i++) {
        int tf = f + 2 * diag[i][0], tr = r + 2 * diag[i][1];
        if (!square_ok(tf, tr) || !same_half(r, tr)) continue;
        Step st = {(uint8_t)make_square(tf, tr), (uint8_t)make_square(f + diag[i][0], r + diag[i][1])};
        ElephantSteps[s][ElephantCount[s]++] = st;
    }
}

static void init_horse(Square s) {
    /* Each jump as (file, rank) delta with its leg, which is next to the horse. */
    static const int jump[8][4] = {{1, 2, 0, 1},   {-1, 2, 0, 1},   {1, -2, 0, -1}, {-1, -2, 0, -1},
                                   {2, 1, 1, 0},   {2, -1, 1, 0},   {-2, 1, -1, 0}, {-2, -1, -1, 0}};
    int f = file_of(s), r = rank_of(s);
    for (int i = 0; i < 8; i++) {
        int tf = f + jump[i][0], tr = r + jump[i][1];
        if (!square_ok(tf, tr)) continue;
        Square to = make_square(tf, tr);
        Step fwd = {(uint8_t)to, (uint8_t)make_square(f + jump[i][2], r + jump[i][3])};
        HorseSteps[s][HorseCount[s]++] = fwd;
        /* The reverse: a horse on `to` jumping back to s uses the leg next to `to`. */
        Step back = {(uint8_t)to, (uint8_t)make_square(tf - jump[i][2], tr - jump[i][3])};
        HorseAttackers[s][HorseAttackerCount[s]++] = back;
    }
}

static void init_pawn(Square s) {
    int f = file_of(s), r = rank_of(s);
    for (Color c = RED; c <= BLACK; c++) {
        int fwd = c == RED ? 1 : -1;
        bool crossed = c == RED ? r >= 5 : r <= 4;
        if (square_ok(f, r + fwd)) PawnSteps[c][s] |= square_bb(make_square(f, r + fwd));
        if (crossed) {
            if (f > 0) PawnSteps[c][s] |= square_bb(make_square(f - 1, r));
            if (f < 8) PawnSteps[c][s] |= square_bb(make_square(f + 1, r));
        }
    }
}

static void bitboard_to_list(Bitboard b, uint8_t *list, uint8_t *count) {
    *count = 0;
    while (b) list[(*count)++] = (uint8_t)bb_pop_lsb(&b);
}

void attacks_init(void) {
    init_lines();
    for (Square s = 0; s < SQUARE_NB; s++) {
        int f = file_of(s), r = rank_of(s);
        if (in_palace(f, r)) PalaceBB[r <= 4 ? RED : BLACK] |= square_bb(s);
        OwnHalfBB[r <= 4 ? RED : BLACK] |= square_bb(s);
        init_palace_pieces(s);
        init_elephant(s);
        init_horse(s);
        init_pawn(s);
    }
    for (Square s = 0; s < SQUARE_NB; s++) {
        for (Color c = RED; c <= BLACK; c++) {
            Bitboard b = PawnSteps[c][s];
            while (b) PawnAttackers[c][bb_pop_lsb(&b)] |= square_bb(s);
            bitboard_to_list(PawnSteps[c][s], PawnTargets[c][s], &PawnTargetCount[c][s]);
        }
        bitboard_to_list(KingSteps[s], KingTargets[s], &KingTargetCount[s]);
        bitboard_to_list(AdvisorSteps[s], AdvisorTargets[s], &AdvisorTargetCount[s]);
    }
}
