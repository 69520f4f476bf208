// SPDX-License-Identifier: GPL-3.0-or-later
#include "see.h"

#include "attacks.h"

const int SeeValue[TYPE_NB] = {0, 10000, 200, 200, 400, 900, 450, 100};

/* Pieces of colour `by` (still in occ) attacking s given occupancy occ/occ_t. */
static Bitboard attackers(const Position *pos, Square s, Color by, Bitboard occ, Bitboard occ_t) {
    Bitboard a = rook_attacks(s, occ, occ_t) & pos_pieces(pos, by, ROOK);
    a |= cannon_attacks(s, occ, occ_t) & pos_pieces(pos, by, CANNON);
    a |= PawnAttackers[by][s] & pos_pieces(pos, by, PAWN);
    a |= AdvisorSteps[s] & pos_pieces(pos, by, ADVISOR);
    a |= KingSteps[s] & pos_pieces(pos, by, KING);
    Bitboard horses = pos_pieces(pos, by, HORSE);
    for (int i = 0; i < HorseAttackerCount[s]; i++) {
        const Step st = HorseAttackers[s][i];
        if ((horses & square_bb(st.to)) && !(occ & square_bb(st.block))) a |= square_bb(st.to);
    }
    Bitboard elephants = pos_pieces(pos, by, ELEPHANT);
    for (int i = 0; i < ElephantCount[s]; i++) {
        const Step st = ElephantSteps[s][i];
        if ((elephants & square_bb(st.to)) && !(occ & square_bb(st.block))) a |= square_bb(st.to);
    }
    return a & occ;
}

/* The least valuable piece in `set`; its type goes to *type. */
static Square least_valuable(const Position *pos, Bitboard set, PieceType *type) {
    static const PieceType Order[] = {PAWN, ADVISOR, ELEPHANT, HORSE, CANNON, ROOK, KING};
    for (int i = 0; i < 7; i++) {
        Bitboard b = set & pos->piece_bb[make_piece(color_of(pos->board[bb_lsb(set)]), Order[i])];
        if (b) {
            *type = Order[i];
            return bb_lsb(b);
        }
    }
    *type = NO_TYPE;
    return SQ_NONE;
}

bool see_ge(const Position *pos, Move m, int threshold) {
    Square from = move_from(m), to = move_to(m);
    /* swap: what the side to move in the exchange must at least win. */
    int swap = SeeValue[type_of(pos->board[to])] - threshold;
    if (swap < 0) return false;
    swap = SeeValue[type_of(pos->board[from])] - swap;
    if (swap <= 0) return true;

    Bitboard occ = (pos->occ ^ square_bb(from)) | square_bb(to);
    Bitboard occ_t = (pos->occ_t ^ transposed_bb(from)) | transposed_bb(to);
    Color stm = pos->side;
    int res = 1; /* 1: the exchange so far meets the threshold for the mover */
    for (;;) {
        stm = (Color)!stm;
        Bitboard mine = attackers(pos, to, stm, occ, occ_t);
        if (!mine) break;
        res ^= 1;
        PieceType t;
        Square s = least_valuable(pos, mine, &t);
        if (t == KING) {
            /* The king may only take if nothing can take it back. */
            Bitboard occ2 = occ ^ square_bb(s), occ2_t = occ_t ^ transposed_bb(s);
            return attackers(pos, to, (Color)!stm, occ2, occ2_t) ? res ^ 1 : res;
        }
        swap = SeeValue[t] - swap;
        if (swap < res) break;
        occ ^= square_bb(s);
        occ_t ^= transposed_bb(s);
    }
    return res;
}
