// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_reindex.h"

#include <pthread.h>
#include <string.h>

/* Square -> a piece's point index (its rank among its table points), -1
 * off them: the digits of a group's raw index. */
static int8_t Point[PIECE_NB][SQUARE_NB];

static void point_fill(void) {
    for (int pc = 0; pc < PIECE_NB; pc++) {
        for (Square s = 0; s < SQUARE_NB; s++)
            Point[pc][s] = -1;
        if (type_of((Piece)pc) == NO_TYPE) continue;
        Square sq[SQUARE_NB];
        int n = egtb_piece_squares((Piece)pc, sq);
        for (int i = 0; i < n; i++)
            Point[pc][sq[i]] = (int8_t)i;
    }
}

static void point_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, point_fill);
}

static int class_of(Piece pc) {
    PieceType t = type_of(pc);
    int k = t == ROOK ? 1 : t == HORSE ? 2 : t == CANNON ? 3 : t == PAWN ? 4 : 0;
    return color_of(pc) * 5 + k;
}

/* The group of class cls, -1 if the signature has none. */
static int group_of_class(const EgtbLayout *lay, int cls) {
    for (int g = 0; g < lay->ngroups; g++)
        if (lay->cls[g] == cls) return g;
    return -1;
}

void egtb_reindex_set(const EgtbLayout *lay, const Position *pos, EgtbReindex *r) {
    point_init();
    int fill[EGTB_CLASS_NB][TYPE_NB] = {{0}};
    for (int g = 0; g < lay->ngroups; g++)
        r->raw[g] = 0;
    for (Square s = 0; s < SQUARE_NB; s++)
        r->group_at[s] = -1;
    for (Bitboard occ = pos->occ; occ;) {
        Square s = bb_pop_lsb(&occ);
        Piece pc = pos->board[s];
        PieceType t = type_of(pc);
        Color c = color_of(pc);
        int g = group_of_class(lay, class_of(pc));
        /* The slot of this piece in its group: K, then the advisors, then
         * the elephants; identical pieces in any order (unique[] merges). */
        int slot = (t == ADVISOR ? 1 : t == ELEPHANT ? 1 + lay->mat.count[c][ADVISOR] : 0) + fill[g][t]++;
        r->group_at[s] = (int8_t)g;
        r->weight_at[s] = lay->group[g].weight[slot];
        r->raw[g] += r->weight_at[s] * (uint32_t)Point[pc][s];
    }
    r->sum[0] = r->sum[1] = 0;
    for (int g = 0; g < lay->ngroups; g++) {
        r->place[g] = lay->group[g].unique[r->raw[g]];
        r->sum[0] += lay->weight[g] * r->place[g];
        r->sum[1] += lay->weight[g] * lay->group[g].mirror[r->place[g]];
    }
}

/* Decode idx into pos (boards only) and, when r is given, fill r on the
 * way: each piece's group, weight and point come with its placement, so
 * no second walk over the board (egtb_reindex_set) is needed. */
static bool place(const EgtbLayout *lay, uint64_t idx, Color side, Position *pos, EgtbReindex *r) {
    pos_clear(pos);
    if (r) {
        point_init();
        memset(r->group_at, -1, sizeof r->group_at);
        r->sum[0] = r->sum[1] = 0;
    }
    /* weight[g] is the product of the sizes before g: the placements come
     * off in order, one division each (this runs for every index). */
    uint64_t rest = idx;
    for (int g = 0; g < lay->ngroups; g++) {
        const EgtbGroup *gr = &lay->group[g];
        uint64_t u = rest % lay->size[g];
        rest /= lay->size[g];
        const uint8_t *sq = &gr->squares[u * (uint64_t)gr->n];
        uint32_t raw = 0;
        for (int i = 0; i < gr->n; i++) {
            if (pos->board[sq[i]] != NO_PIECE) return false;
            pos_put_piece(pos, gr->piece[i], sq[i]);
            if (!r) continue;
            r->group_at[sq[i]] = (int8_t)g;
            r->weight_at[sq[i]] = gr->weight[i];
            raw += gr->weight[i] * (uint32_t)Point[gr->piece[i]][sq[i]];
        }
        if (!r) continue;
        r->raw[g] = raw;
        r->place[g] = gr->unique[raw];
        r->sum[0] += lay->weight[g] * r->place[g];
        r->sum[1] += lay->weight[g] * gr->mirror[r->place[g]];
    }
    pos->side = side;
    return true;
}

bool egtb_reindex_place(const EgtbLayout *lay, uint64_t idx, Color side, Position *pos) {
    return place(lay, idx, side, pos, NULL);
}

bool egtb_reindex_decode(const EgtbLayout *lay, uint64_t idx, Color side, Position *pos, EgtbReindex *r) {
    return place(lay, idx, side, pos, r);
}

uint64_t egtb_reindex_move(const EgtbLayout *lay, const EgtbReindex *r, Piece pc, Square from, Square to,
                           bool *mirrored) {
    int moved = r->group_at[from];
    uint32_t w = r->weight_at[from];
    uint32_t raw = r->raw[moved] + w * (uint32_t)Point[pc][to] - w * (uint32_t)Point[pc][from];
    uint32_t moved_place = lay->group[moved].unique[raw];
    uint32_t cp = moved == lay->compress ? moved_place : r->place[lay->compress];
    *mirrored = cp >= lay->group[lay->compress].compress_size;
    /* Only the moved group's term changes. */
    const uint32_t *mirror = lay->group[moved].mirror;
    uint32_t was = r->place[moved];
    if (*mirrored) return r->sum[1] + lay->weight[moved] * mirror[moved_place] - lay->weight[moved] * mirror[was];
    return r->sum[0] + lay->weight[moved] * moved_place - lay->weight[moved] * was;
}

int egtb_reindex_move_both(const EgtbLayout *lay, const EgtbReindex *r, Piece pc, Square from, Square to,
                           uint64_t out[2]) {
    bool mirrored;
    out[0] = egtb_reindex_move(lay, r, pc, from, to, &mirrored);
    int moved = r->group_at[from];
    if (moved != lay->compress || mirrored) return 1;
    uint32_t w = r->weight_at[from];
    uint32_t raw = r->raw[moved] + w * (uint32_t)Point[pc][to] - w * (uint32_t)Point[pc][from];
    const uint32_t *mirror = lay->group[moved].mirror;
    uint32_t moved_place = lay->group[moved].unique[raw];
    if (mirror[moved_place] != moved_place) return 1;
    out[1] = r->sum[1] + lay->weight[moved] * mirror[moved_place] - lay->weight[moved] * mirror[r->place[moved]];
    return 2;
}
