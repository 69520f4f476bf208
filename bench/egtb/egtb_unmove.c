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

void egtb_unmoves(const Position *x, MoveList *out) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, allowed_fill);
    out->count = 0;
    Color mover = (Color)!x->side;
    for (Bitboard own = x->color_bb[mover]; own;) {
        Square to = bb_pop_lsb(&own);
        Piece pc = x->board[to];
        for (Bitboard from = origins(x, pc, to) & Allowed[pc]; from;) {
            out->moves[out->count++] = make_move(bb_pop_lsb(&from), to);
        }
    }
}

static void mirror_files(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Bitboard occ = src->occ; occ;) {
        Square s = bb_pop_lsb(&occ);
        pos_put_piece(dst, src->board[s], make_square(8 - file_of(s), rank_of(s)));
    }
    dst->side = src->side;
}

/* The parents of the position x (in the table's frame, r its index by groups). */
static void parents_of(const EgtbLayout *lay, const Position *x, EgtbParentScratch *s,
                       void (*fn)(void *ctx, uint64_t parent), void *ctx) {
    uint64_t base = x->side == RED ? lay->positions : 0; /* the parents' side to move */
    egtb_unmoves(x, &s->list);
    for (int i = 0; i < s->list.count; i++) {
        Move m = s->list.moves[i];
        bool mirrored;
        uint64_t idx = egtb_reindex_move(lay, &s->r, x->board[move_to(m)], move_to(m), move_from(m), &mirrored);
        if (!mirrored) fn(ctx, base + idx);
    }
}

void egtb_parents(const EgtbLayout *lay, uint64_t node, EgtbParentScratch *s, void (*fn)(void *ctx, uint64_t parent),
                  void *ctx) {
    uint64_t n = lay->positions, idx = node % n;
    egtb_reindex_decode(lay, idx, node < n ? RED : BLACK, s->pos, &s->r);
    parents_of(lay, s->pos, s, fn, ctx);
    const EgtbGroup *cg = &lay->group[lay->compress];
    uint64_t u = (idx / lay->weight[lay->compress]) % lay->size[lay->compress];
    if (cg->mirror[u] != u) {
        mirror_files(s->pos, s->mirror);
        egtb_reindex_set(lay, s->mirror, &s->r);
        parents_of(lay, s->mirror, s, fn, ctx);
    }
}
