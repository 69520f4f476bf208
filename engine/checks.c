// SPDX-License-Identifier: GPL-3.0-or-later
#include "checks.h"

#include "attacks.h"

/* Our pieces of type t once the piece p has moved (its from and to in `moved`). */
static inline Bitboard after_move(const Position *pos, Color us, PieceType t, Piece p, Bitboard moved) {
    return pos_pieces(pos, us, t) ^ (type_of(p) == t ? moved : 0);
}

bool move_gives_check(const Position *pos, Move m) {
    Color us = pos->side;
    Square from = move_from(m), to = move_to(m);
    Square k = pos->king_sq[!us];
    Piece p = pos->board[from];
    Bitboard moved = square_bb(from) | square_bb(to);
    Bitboard occ = (pos->occ ^ square_bb(from)) | square_bb(to);
    Bitboard occ_t = (pos->occ_t ^ transposed_bb(from)) | transposed_bb(to);
    if (rook_attacks(k, occ, occ_t) & after_move(pos, us, ROOK, p, moved)) return true;
    if (cannon_attacks(k, occ, occ_t) & after_move(pos, us, CANNON, p, moved)) return true;
    if (PawnAttackers[us][k] & after_move(pos, us, PAWN, p, moved)) return true;
    Bitboard horses = after_move(pos, us, HORSE, p, moved);
    for (int i = 0; i < HorseAttackerCount[k]; i++) {
        const Step st = HorseAttackers[k][i];
        if ((horses & square_bb(st.to)) && !(occ & square_bb(st.block))) return true;
    }
    return false;
}
