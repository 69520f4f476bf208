// SPDX-License-Identifier: GPL-3.0-or-later
#include "nnue_accum.h"

#include <string.h>

#include "nnue_features.h"
#include "nnue_kernels.h"

/* What one ply changed: `piece` moved from -> to, taking `captured`
 * (piece is NO_PIECE for a null move). */
typedef struct {
    Piece piece, captured;
    uint8_t from, to;
} DirtyPly;

void nnue_stack_reset(NnueStack *st, uint32_t net_id) {
    memset(st->key, 0, sizeof st->key);
    st->net_id = net_id;
}

static inline const int16_t *row(const NnueNet *net, int feature) {
    return net->ft_weights + (size_t)feature * (size_t)net->hidden;
}

void nnue_refresh(const NnueNet *net, const Position *pos, Color c, int16_t *acc) {
    NnueOrient o = nnue_orient(net->feature_set, c, pos->king_sq[c]);
    const int16_t *rows[NNUE_MAX_PIECES];
    int n = 0;
    for (Bitboard b = pos->occ; b && n < NNUE_MAX_PIECES;) {
        Square s = bb_pop_lsb(&b);
        rows[n++] = row(net, nnue_feature(c, o, pos->board[s], s));
    }
    nnue_k_refresh(acc, net->ft_bias, rows, n, net->hidden);
}

/* Replay plies from..cur (dirty[cur - ply] describes ply) for perspective
 * c on top of the valid entry at from - 1. c's king did not move since. */
static void replay(NnueStack *st, const NnueNet *net, const Position *pos, Color c, const DirtyPly *dirty, int from) {
    NnueOrient o = nnue_orient(net->feature_set, c, pos->king_sq[c]);
    int cur = pos->game_ply, H = net->hidden;
    for (int ply = from; ply <= cur; ply++) {
        const DirtyPly *d = &dirty[cur - ply];
        const int16_t *in = st->acc[nnue_slot(ply - 1)][c];
        int16_t *out = st->acc[nnue_slot(ply)][c];
        if (d->piece == NO_PIECE) {
            memcpy(out, in, sizeof(int16_t) * (size_t)H);
        } else {
            const int16_t *add[1] = {row(net, nnue_feature(c, o, d->piece, d->to))};
            const int16_t *sub[2] = {row(net, nnue_feature(c, o, d->piece, d->from)),
                                     d->captured ? row(net, nnue_feature(c, o, d->captured, d->to)) : NULL};
            nnue_k_update(out, in, add, 1, sub, d->captured ? 2 : 1, H);
        }
        st->key[nnue_slot(ply)][c] = pos->history[ply].key;
    }
}

void nnue_stack_update(NnueStack *st, const NnueNet *net, const Position *pos) {
    const int cur = pos->game_ply, slot = nnue_slot(cur);
    const Key key = pos->history[cur].key;
    bool search[COLOR_NB] = {st->key[slot][RED] != key, st->key[slot][BLACK] != key};
    int start[COLOR_NB] = {-1, -1}; /* first ply to replay, once a valid ancestor is found */
    if (!search[RED] && !search[BLACK]) return;
    const bool king_buckets = net->feature_set == NNUE_FS_KING_BUCKETS;
    Piece board[SQUARE_NB];
    memcpy(board, pos->board, sizeof board);
    DirtyPly dirty[NNUE_MAX_WALK];
    for (int n = 0, ply = cur; n < NNUE_MAX_WALK && ply > 0 && (search[RED] || search[BLACK]); n++, ply--) {
        Move m = pos->history[ply].move;
        DirtyPly *d = &dirty[n];
        d->piece = d->captured = NO_PIECE;
        if (m != MOVE_NULL) {
            Square from = move_from(m), to = move_to(m);
            d->piece = board[to];
            d->captured = pos->history[ply].captured;
            d->from = (uint8_t)from;
            d->to = (uint8_t)to;
            board[from] = d->piece;
            board[to] = d->captured;
            if (king_buckets && type_of(d->piece) == KING) search[color_of(d->piece)] = false;
        }
        const int prev = nnue_slot(ply - 1);
        for (Color c = RED; c <= BLACK; c++)
            if (search[c] && st->key[prev][c] == pos->history[ply - 1].key) {
                start[c] = ply;
                search[c] = false;
            }
    }
    for (Color c = RED; c <= BLACK; c++) {
        if (st->key[slot][c] == key) continue;
        if (start[c] > 0) {
            replay(st, net, pos, c, dirty, start[c]);
        } else {
            nnue_refresh(net, pos, c, st->acc[slot][c]);
            st->key[slot][c] = key;
        }
    }
}
