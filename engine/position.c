// SPDX-License-Identifier: GPL-3.0-or-later
#include "position.h"

#include <assert.h>
#include <string.h>

#include "attacks.h"
#include "nnue/nnue.h"
#include "zobrist.h"

/* Per king square: points whose vacating may expose the king (its rank and
 * file, and the diagonal neighbours that are horse legs), and points whose
 * filling may (its rank and file, where a new piece can become a screen). */
static Bitboard DangerFrom[SQUARE_NB];
static Bitboard DangerTo[SQUARE_NB];
/* Points a horse may attack s from, whatever the legs. */
static Bitboard HorseReach[SQUARE_NB];


static void init_danger(void) {
    for (Square k = 0; k < SQUARE_NB; k++) {
        Bitboard lines = rook_attacks(k, 0, 0);
        DangerTo[k] = lines;
        DangerFrom[k] = lines;
        for (int i = 0; i < HorseAttackerCount[k]; i++) {
            DangerFrom[k] |= square_bb(HorseAttackers[k][i].block);
            HorseReach[k] |= square_bb(HorseAttackers[k][i].to);
        }
    }
}

void engine_init(void) {
    static bool done;
    if (done) return;
    bb_init();
    attacks_init();
    zobrist_init();
    init_danger();
    nnue_init();
    done = true;
}

void pos_clear(Position *pos) {
    memset(pos, 0, sizeof *pos - sizeof pos->history);
    memset(&pos->history[0], 0, sizeof pos->history[0]);
    pos->king_sq[RED] = pos->king_sq[BLACK] = SQ_NONE;
    pos->root_fullmove = 1;
}

/* Flip piece p on square s in every bitboard (adds or removes it). */
static inline void toggle(Position *pos, Piece p, Square s) {
    pos->piece_bb[p] ^= square_bb(s);
    pos->color_bb[color_of(p)] ^= square_bb(s);
    pos->occ ^= square_bb(s);
    pos->occ_t ^= transposed_bb(s);
}

static inline void put(Position *pos, Piece p, Square s) {
    pos->board[s] = p;
    toggle(pos, p, s);
}

static inline void lift(Position *pos, Piece p, Square s) {
    pos->board[s] = NO_PIECE;
    toggle(pos, p, s);
}

void pos_put_piece(Position *pos, Piece p, Square s) {
    put(pos, p, s);
    if (type_of(p) == KING) pos->king_sq[color_of(p)] = s;
}

void pos_remove_piece(Position *pos, Square s) {
    Piece p = pos->board[s];
    if (!p) return;
    lift(pos, p, s);
    if (type_of(p) == KING) pos->king_sq[color_of(p)] = SQ_NONE;
}

Key pos_compute_key(const Position *pos) {
    Key k = pos->side == BLACK ? ZobristSide : 0;
    for (Square s = 0; s < SQUARE_NB; s++) k ^= ZobristPiece[pos->board[s]][s];
    return k;
}

void pos_finish_setup(Position *pos) {
    pos->game_ply = 0;
    StateInfo *st = &pos->history[0];
    st->key = pos_compute_key(pos);
    st->move = MOVE_NONE;
    st->captured = NO_PIECE;
    st->in_check = pos->king_sq[pos->side] != SQ_NONE && pos_compute_in_check(pos);
}

bool pos_attacked(const Position *pos, Square s, Color by, Bitboard occ, Bitboard occ_t, Bitboard ignore) {
    Bitboard live = ~ignore;
    Bitboard rooks = pos->piece_bb[make_piece(by, ROOK)];
    if (file_attacks(s, occ_t) & (rooks | pos->piece_bb[make_piece(by, KING)]) & live) return true;
    if (rank_attacks(s, occ) & rooks & live) return true;
    if (cannon_attacks(s, occ, occ_t) & pos->piece_bb[make_piece(by, CANNON)] & live) return true;
    if (PawnAttackers[by][s] & pos->piece_bb[make_piece(by, PAWN)] & live) return true;
    Bitboard horses = pos->piece_bb[make_piece(by, HORSE)] & live;
    if (horses & HorseReach[s]) {
        for (int i = 0; i < HorseAttackerCount[s]; i++) {
            const Step st = HorseAttackers[s][i];
            if ((horses & square_bb(st.to)) && !(occ & square_bb(st.block))) return true;
        }
    }
    return false;
}

Bitboard pos_attackers_to(const Position *pos, Square s, Color by) {
    Bitboard occ = pos->occ, occ_t = pos->occ_t;
    Bitboard a = rook_attacks(s, occ, occ_t) & pos->piece_bb[make_piece(by, ROOK)];
    a |= file_attacks(s, occ_t) & pos->piece_bb[make_piece(by, KING)];
    a |= cannon_attacks(s, occ, occ_t) & pos->piece_bb[make_piece(by, CANNON)];
    a |= PawnAttackers[by][s] & pos->piece_bb[make_piece(by, PAWN)];
    Bitboard horses = pos->piece_bb[make_piece(by, HORSE)];
    for (int i = 0; i < HorseAttackerCount[s]; i++) {
        const Step st = HorseAttackers[s][i];
        if ((horses & square_bb(st.to)) && !(occ & square_bb(st.block))) a |= square_bb(st.to);
    }
    /* Advisors, elephants and kings off the file attack only their own half. */
    a |= AdvisorSteps[s] & pos->piece_bb[make_piece(by, ADVISOR)];
    a |= KingSteps[s] & pos->piece_bb[make_piece(by, KING)];
    for (int i = 0; i < ElephantCount[s]; i++) {
        const Step st = ElephantSteps[s][i];
        if ((pos->piece_bb[make_piece(by, ELEPHANT)] & square_bb(st.to)) && !(occ & square_bb(st.block)))
            a |= square_bb(st.to);
    }
    return a;
}

bool pos_compute_in_check(const Position *pos) {
    Color us = pos->side;
    return pos_attacked(pos, pos->king_sq[us], (Color)!us, pos->occ, pos->occ_t, 0);
}

bool pos_kings_face(const Position *pos) {
    Square k = pos->king_sq[RED];
    return k != SQ_NONE && pos->king_sq[BLACK] != SQ_NONE &&
           (file_attacks(k, pos->occ_t) & square_bb(pos->king_sq[BLACK])) != 0;
}

Bitboard pos_pinned(const Position *pos, Color c) {
    Square k = pos->king_sq[c];
    Bitboard pinned = 0;
    Bitboard candidates = DangerFrom[k] & pos->color_bb[c] & ~square_bb(k);
    while (candidates) {
        Square s = bb_pop_lsb(&candidates);
        if (pos_attacked(pos, k, (Color)!c, pos->occ ^ square_bb(s), pos->occ_t ^ transposed_bb(s), 0))
            pinned |= square_bb(s);
    }
    return pinned;
}

bool pos_move_is_safe(const Position *pos, Move m) {
    Square k = pos->king_sq[pos->side];
    Square from = move_from(m), to = move_to(m);
    if (from != k && !pos_in_check(pos) && !(DangerFrom[k] & square_bb(from)) && !(DangerTo[k] & square_bb(to)))
        return true;
    return pos_move_is_safe_slow(pos, m);
}

/* Look along one ray from the king (line points base + i * stride, king at
 * index k, walking by dir) at its first three pieces: our piece alone in
 * front of an enemy chariot (or king, on a file) must not leave; our pieces
 * among the two screens before an enemy cannon (whatever the screens are,
 * another cannon included) must not leave; the empty
 * points before an unscreened enemy cannon must not be filled. */
static void scan_ray(const Position *pos, SafetyFilter *f, unsigned line, int k, int dir, Square base, int stride,
                     bool is_file) {
    Color them = (Color)!pos->side;
    Square p[3];
    int n = 0;
    unsigned rest = dir > 0 ? line & ~((2u << k) - 1) : line & ((1u << k) - 1);
    while (rest && n < 3) {
        int i = dir > 0 ? __builtin_ctz(rest) : 31 - __builtin_clz(rest);
        rest &= ~(1u << i);
        p[n++] = base + stride * i;
    }
    if (n == 0) return;
    Piece q[3] = {pos->board[p[0]], n > 1 ? pos->board[p[1]] : NO_PIECE, n > 2 ? pos->board[p[2]] : NO_PIECE};
    const Piece cannon = make_piece(them, CANNON), rook = make_piece(them, ROOK), king = make_piece(them, KING);
    if (q[0] == cannon)
        for (Square s = base + stride * (k + dir); s != p[0]; s += stride * dir) f->to |= square_bb(s);
    bool ours0 = color_of(q[0]) != them, ours1 = n > 1 && color_of(q[1]) != them;
    if (n > 1 && ours0 && (q[1] == rook || (is_file && q[1] == king))) f->from |= square_bb(p[0]);
    if (n > 2 && q[2] == cannon) {
        if (ours0) f->from |= square_bb(p[0]);
        if (ours1) f->from |= square_bb(p[1]);
    }
}

SafetyFilter pos_safety_filter(const Position *pos) {
    Color us = pos->side, them = (Color)!us;
    Square k = pos->king_sq[us];
    SafetyFilter f = {~(Bitboard)0, ~(Bitboard)0};
    if (pos_in_check(pos)) return f;
    f.from = square_bb(k);
    f.to = 0;
    int kf = file_of(k), kr = rank_of(k);
    unsigned rank = bb_rank_bits(pos->occ, kr), file = bb_file_bits(pos->occ_t, kf);
    scan_ray(pos, &f, rank, kf, 1, kr * 9, 1, false);
    scan_ray(pos, &f, rank, kf, -1, kr * 9, 1, false);
    scan_ray(pos, &f, file, kr, 1, kf, 9, true);
    scan_ray(pos, &f, file, kr, -1, kf, 9, true);
    /* Only legs of enemy horses in reach can open. */
    Bitboard horses = pos->piece_bb[make_piece(them, HORSE)];
    if (horses & HorseReach[k])
        for (int i = 0; i < HorseAttackerCount[k]; i++)
            if (horses & square_bb(HorseAttackers[k][i].to)) f.from |= square_bb(HorseAttackers[k][i].block);
    return f;
}

bool pos_move_is_safe_slow(const Position *pos, Move m) {
    Color us = pos->side;
    Square from = move_from(m), to = move_to(m);
    Square k = pos->king_sq[us];
    if (from == k) k = to;
    Bitboard occ = (pos->occ ^ square_bb(from)) | square_bb(to);
    Bitboard occ_t = (pos->occ_t ^ transposed_bb(from)) | transposed_bb(to);
    return !pos_attacked(pos, k, (Color)!us, occ, occ_t, square_bb(to));
}

void pos_make_move(Position *pos, Move m) {
    assert(!pos_history_full(pos));
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from], cap = pos->board[to];
    const StateInfo *prev = &pos->history[pos->game_ply];
    StateInfo *st = &pos->history[++pos->game_ply];
    Key k = prev->key ^ ZobristSide ^ ZobristPiece[p][from] ^ ZobristPiece[p][to];
    if (cap) {
        k ^= ZobristPiece[cap][to];
        lift(pos, cap, to);
    }
    lift(pos, p, from);
    put(pos, p, to);
    if (type_of(p) == KING) pos->king_sq[color_of(p)] = to;
    pos->side = (Color)!pos->side;
    st->key = k;
    st->move = m;
    st->captured = cap;
    st->rule60 = cap ? 0 : (uint16_t)(prev->rule60 + 1);
    st->in_check = pos_compute_in_check(pos);
    assert(pos_is_ok(pos));
}

void pos_unmake_move(Position *pos) {
    const StateInfo *st = &pos->history[pos->game_ply--];
    Square from = move_from(st->move), to = move_to(st->move);
    Piece p = pos->board[to];
    lift(pos, p, to);
    put(pos, p, from);
    if (st->captured) put(pos, st->captured, to);
    if (type_of(p) == KING) pos->king_sq[color_of(p)] = from;
    pos->side = (Color)!pos->side;
    assert(pos_is_ok(pos));
}

void pos_make_null(Position *pos) {
    assert(!pos_history_full(pos));
    const StateInfo *prev = &pos->history[pos->game_ply];
    StateInfo *st = &pos->history[++pos->game_ply];
    st->key = prev->key ^ ZobristSide;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    st->rule60 = (uint16_t)(prev->rule60 + 1);
    st->in_check = false;
    pos->side = (Color)!pos->side;
}

void pos_unmake_null(Position *pos) {
    pos->game_ply--;
    pos->side = (Color)!pos->side;
}

bool pos_is_ok(const Position *pos) {
    Bitboard color_bb[COLOR_NB] = {0, 0}, occ = 0, occ_t = 0;
    Bitboard piece_bb[PIECE_NB] = {0};
    Square kings[COLOR_NB] = {SQ_NONE, SQ_NONE};
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos->board[s];
        if (!p) continue;
        if (!type_of(p)) return false;
        piece_bb[p] |= square_bb(s);
        color_bb[color_of(p)] |= square_bb(s);
        occ |= square_bb(s);
        occ_t |= transposed_bb(s);
        if (type_of(p) == KING) kings[color_of(p)] = s;
    }
    if (memcmp(piece_bb, pos->piece_bb, sizeof piece_bb) || occ != pos->occ || occ_t != pos->occ_t) return false;
    if (color_bb[RED] != pos->color_bb[RED] || color_bb[BLACK] != pos->color_bb[BLACK]) return false;
    if (kings[RED] != pos->king_sq[RED] || kings[BLACK] != pos->king_sq[BLACK]) return false;
    return pos_compute_key(pos) == pos_key(pos);
}
