// SPDX-License-Identifier: GPL-3.0-or-later
#include "checks.h"

#include "attacks.h"

/* Our pieces of type t once the piece p has moved (its from and to in `moved`). */
static inline Bitboard after_move(const Position *pos, Color us, PieceType t, Piece p, Bitboard moved) {
    return pos_pieces(pos, us, t) ^ (type_of(p) == t ? moved : 0);
}

bool move_gives_check_full(const Position *pos, Move m) {
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

/*
 * Most moves are nowhere near the other king, and the side to move never
 * has that king in check already, so a new check needs the move to touch
 * one of the few points that decide checks on it:
 * - its rank or file, the only lines a chariot, cannon or pawn checks
 *   along (pawns attack from the orthogonal neighbours); a piece leaving
 *   one can uncover a chariot or make a cannon's screen, one arriving can
 *   check or become a screen;
 * - its diagonal neighbours, the legs of every horse that could check it:
 *   a piece leaving one can free a horse;
 * - for a horse, the points a horse's step away, where it checks itself.
 * Occupying a leg only blocks. Anything else cannot check, and the full
 * test is skipped: it costs more than the rest of a node's move loop.
 */
bool move_gives_check(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    Square k = pos->king_sq[!pos->side];
    int kf = file_of(k), kr = rank_of(k);
    int ff = file_of(from) - kf, fr = rank_of(from) - kr;
    int tf = file_of(to) - kf, tr = rank_of(to) - kr;
    bool from_near = ff == 0 || fr == 0 || (ff * ff == 1 && fr * fr == 1);
    bool to_line = tf == 0 || tr == 0;
    if (!from_near && !to_line) {
        if (type_of(pos->board[from]) != HORSE) return false;
        if (tf * tf + tr * tr != 5) return false; /* not a horse's step from the king */
    }
    return move_gives_check_full(pos, m);
}
