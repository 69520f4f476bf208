// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_unmove.h"

#include <pthread.h>

#include "attacks.h"
#include "egtb/egtb_index.h"

/* The points each piece may stand on in a table (egtb_piece_squares). */
static Bitboard Allowed[PIECE_NB];

static void allowed_fill(void) {
    for (int pc = 0; pc < PIECE_NB; pc++) {
        if (type_of((Piece)pc) == NO_TYPE) continue;
        Square sq[SQUARE_NB];
        int n = egtb_piece_squares((Piece)pc, sq);
        for (int i = 0; i < n; i++)
            Allowed[pc] |= square_bb(sq[i]);
    }
}

/* Points the piece pc standing on `to` may have come
 * from by a quiet move, by the piece rules alone (occupancy of x, where
 * the piece stands on `to`). */
static Bitboard origins(const Position *x, Piece pc, Square to) {
    Bitboard empty = ~x->occ;
    Bitboard from = 0;
    switch (type_of(pc)) {
    case KING: return KingSteps[to] & empty;
    case ADVISOR: return AdvisorSteps[to] & empty;
    case ELEPHANT:
        /* The eye is the midpoint: the same both ways. */
        for (int i = 0; i < ElephantCount[to]; i++)
            if (!bb_test(x->occ, ElephantSteps[to][i].block)) from |= square_bb(ElephantSteps[to][i].to);
        return from & empty;
    case HORSE:
        /* HorseAttackers: where a horse reaching `to` stood, with its leg
         * next to that point (not next to `to`). */
        for (int i = 0; i < HorseAttackerCount[to]; i++)
            if (!bb_test(x->occ, HorseAttackers[to][i].block)) from |= square_bb(HorseAttackers[to][i].to);
        return from & empty;
    case ROOK:
    case CANNON: return rook_attacks(to, x->occ, x->occ_t) & empty; /* a cannon moves quietly as a chariot */
    case PAWN: return PawnAttackers[color_of(pc)][to] & empty;      /* a pawn moves where it attacks */
    default: return 0;
    }
}

/* Is the position before un-move from -> to of pc legal (egtb_decoded_legal)?
 * Worked out on x's boards without changing them: the side to move in x
 * must not be attacked there, by the other pieces through the changed
 * occupancy or by pc from its old point; and a pawn must not end up with
 * an uncrossed pawn of its side on the same file. */
static bool before_is_legal(const Position *x, Piece pc, Square from, Square to) {
    Color mover = color_of(pc);
    Square king = x->king_sq[x->side];
    Bitboard occ = x->occ ^ square_bb(to) ^ square_bb(from);
    Bitboard occ_t = x->occ_t ^ transposed_bb(to) ^ transposed_bb(from);
    if (pos_attacked(x, king, mover, occ, occ_t, square_bb(to))) return false;
    switch (type_of(pc)) {
    case KING: return !bb_test(file_attacks(from, occ_t), king); /* the kings may not face */
    case ROOK: return !bb_test(rook_attacks(from, occ, occ_t), king);
    case CANNON: return !bb_test(cannon_attacks(from, occ, occ_t), king);
    case HORSE:
        for (int i = 0; i < HorseCount[from]; i++)
            if (HorseSteps[from][i].to == king && !bb_test(occ, HorseSteps[from][i].block)) return false;
        return true;
    case PAWN: {
        if (bb_test(PawnAttackers[mover][king], from)) return false;
        Bitboard pawns = pos_pieces(x, mover, PAWN) ^ square_bb(to) ^ square_bb(from);
        int ahead = mover == RED ? FILE_NB : -FILE_NB;
        switch (relative_rank(mover, from)) {
        case 3: return !bb_test(pawns, from + ahead);
        case 4: return !bb_test(pawns, from - ahead);
        default: return true;
        }
    }
    default: return true; /* advisors and elephants attack nothing */
    }
}

void egtb_unmoves(const Position *x, MoveList *out) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, allowed_fill);
    out->count = 0;
    Color mover = (Color)!x->side;
    for (Bitboard own = x->color_bb[mover]; own;) {
        Square to = bb_pop_lsb(&own);
        Piece pc = x->board[to];
        for (Bitboard from = origins(x, pc, to) & Allowed[pc]; from;) {
            Square f = bb_pop_lsb(&from);
            if (before_is_legal(x, pc, f, to)) out->moves[out->count++] = make_move(f, to);
        }
    }
}
