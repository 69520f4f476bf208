// SPDX-License-Identifier: GPL-3.0-or-later
#include "movegen.h"

#include "attacks.h"

/*
 * One generator serves captures and quiet moves, pseudo-legal or legal.
 * `want[piece]` says which occupants of a target point make a move of the
 * requested kind (only NO_PIECE for quiet moves, the enemy pieces for
 * captures), so leapers need no bitboard work. Sliders read their ray masks
 * for the rank and the file directly. Legality is settled per piece: when
 * the piece stands outside the safety filter and no line of the king can
 * gain a cannon screen, none of its moves needs a test.
 */
typedef struct {
    const Position *pos;
    MoveList *list;
    bool want[PIECE_NB];
    bool legal;
    SafetyFilter filter;
} Gen;

/* test: 0 = legal for sure, 1 = check the to-point against the filter,
 * 2 = run the full test. */
static inline void push(Gen *g, Square from, Square to, int test) {
    Move m = make_move(from, to);
    if (test && (test == 2 || (g->filter.to & square_bb(to))) && !pos_move_is_safe_slow(g->pos, m)) return;
    g->list->moves[g->list->count++] = m;
}

static inline int needs_test(const Gen *g, Square from) {
    if (!g->legal) return 0;
    if (g->filter.from & square_bb(from)) return 2;
    return g->filter.to != 0;
}

static inline void push_targets(Gen *g, Square from, const uint8_t *targets, int n) {
    int test = needs_test(g, from);
    for (int i = 0; i < n; i++)
        if (g->want[g->pos->board[targets[i]]]) push(g, from, targets[i], test);
}

static inline void push_steps(Gen *g, Square from, const Step *steps, int n) {
    int test = needs_test(g, from);
    for (int i = 0; i < n; i++)
        if (!g->pos->board[steps[i].block] && g->want[g->pos->board[steps[i].to]]) push(g, from, steps[i].to, test);
}

/* Quiet moves of a chariot or cannon: the empty points of both rays. */
static inline void push_slides(Gen *g, Square from) {
    int f = file_of(from), r = rank_of(from);
    int test = needs_test(g, from);
    unsigned rank_occ = bb_rank_bits(g->pos->occ, r), file_occ = bb_file_bits(g->pos->occ_t, f);
    unsigned m = RankSlide[f][rank_occ] & ~rank_occ;
    while (m) {
        push(g, from, r * 9 + __builtin_ctz(m), test);
        m &= m - 1;
    }
    m = FileSlide[r][file_occ] & ~file_occ;
    while (m) {
        push(g, from, __builtin_ctz(m) * 9 + f, test);
        m &= m - 1;
    }
}

/* Captures of a chariot (cannon = false) or cannon: at most two points per
 * line can hold a capturable piece. */
static inline void push_line_captures(Gen *g, Square from, bool cannon) {
    int f = file_of(from), r = rank_of(from);
    int test = needs_test(g, from);
    unsigned rank_occ = bb_rank_bits(g->pos->occ, r), file_occ = bb_file_bits(g->pos->occ_t, f);
    unsigned m = (cannon ? RankCannon[f][rank_occ] : RankSlide[f][rank_occ]) & rank_occ;
    while (m) {
        Square to = r * 9 + __builtin_ctz(m);
        if (g->want[g->pos->board[to]]) push(g, from, to, test);
        m &= m - 1;
    }
    m = (cannon ? FileCannon[r][file_occ] : FileSlide[r][file_occ]) & file_occ;
    while (m) {
        Square to = __builtin_ctz(m) * 9 + f;
        if (g->want[g->pos->board[to]]) push(g, from, to, test);
        m &= m - 1;
    }
}

static void generate(Gen *g, bool captures) {
    const Position *pos = g->pos;
    Color us = pos->side;
    Bitboard b;

    b = pos_pieces(pos, us, ROOK);
    while (b) {
        Square s = bb_pop_lsb(&b);
        if (captures) push_line_captures(g, s, false);
        else push_slides(g, s);
    }
    b = pos_pieces(pos, us, CANNON);
    while (b) {
        Square s = bb_pop_lsb(&b);
        if (captures) push_line_captures(g, s, true);
        else push_slides(g, s);
    }
    b = pos_pieces(pos, us, HORSE);
    while (b) {
        Square s = bb_pop_lsb(&b);
        push_steps(g, s, HorseSteps[s], HorseCount[s]);
    }
    b = pos_pieces(pos, us, PAWN);
    while (b) {
        Square s = bb_pop_lsb(&b);
        push_targets(g, s, PawnTargets[us][s], PawnTargetCount[us][s]);
    }
    b = pos_pieces(pos, us, ELEPHANT);
    while (b) {
        Square s = bb_pop_lsb(&b);
        push_steps(g, s, ElephantSteps[s], ElephantCount[s]);
    }
    b = pos_pieces(pos, us, ADVISOR);
    while (b) {
        Square s = bb_pop_lsb(&b);
        push_targets(g, s, AdvisorTargets[s], AdvisorTargetCount[s]);
    }
    Square k = pos->king_sq[us];
    push_targets(g, k, KingTargets[k], KingTargetCount[k]);
}

static void gen_init(Gen *g, const Position *pos, MoveList *list, bool legal, bool captures, bool quiets) {
    g->pos = pos;
    g->list = list;
    g->legal = legal;
    for (Piece p = 0; p < PIECE_NB; p++)
        g->want[p] = p == NO_PIECE ? quiets : (captures && type_of(p) && color_of(p) != pos->side);
    if (legal) g->filter = pos_safety_filter(pos);
}

void gen_pseudo_captures(const Position *pos, MoveList *list) {
    Gen g;
    gen_init(&g, pos, list, false, true, false);
    generate(&g, true);
}

void gen_pseudo_quiets(const Position *pos, MoveList *list) {
    Gen g;
    gen_init(&g, pos, list, false, false, true);
    generate(&g, false);
}

void gen_captures(const Position *pos, MoveList *list) {
    Gen g;
    list->count = 0;
    gen_init(&g, pos, list, true, true, false);
    generate(&g, true);
}

void gen_quiets(const Position *pos, MoveList *list) {
    Gen g;
    list->count = 0;
    gen_init(&g, pos, list, true, false, true);
    generate(&g, false);
}

void gen_legal(const Position *pos, MoveList *list) {
    Gen g;
    list->count = 0;
    gen_init(&g, pos, list, true, true, false);
    generate(&g, true);
    for (Piece p = 0; p < PIECE_NB; p++) g.want[p] = p == NO_PIECE;
    generate(&g, false);
}

int gen_count_legal(const Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    return list.count;
}

bool move_is_pseudo_legal(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    /* Bits 14-15 are unused: a move with a stray one is no move. */
    if (m >> 14 || from >= SQUARE_NB || to >= SQUARE_NB || from == to) return false;
    Piece p = pos->board[from];
    Color us = pos->side;
    if (!p || color_of(p) != us) return false;
    Piece cap = pos->board[to];
    if (cap && color_of(cap) == us) return false;
    Bitboard occ = pos->occ, occ_t = pos->occ_t, t = square_bb(to);
    switch (type_of(p)) {
    case KING: return (KingSteps[from] & t) != 0;
    case ADVISOR: return (AdvisorSteps[from] & t) != 0;
    case PAWN: return (PawnSteps[us][from] & t) != 0;
    case ROOK: return (rook_attacks(from, occ, occ_t) & t) != 0;
    case CANNON: return ((cap ? cannon_attacks(from, occ, occ_t) : rook_attacks(from, occ, occ_t) & ~occ) & t) != 0;
    case HORSE:
        for (int i = 0; i < HorseCount[from]; i++)
            if (HorseSteps[from][i].to == to) return !pos->board[HorseSteps[from][i].block];
        return false;
    case ELEPHANT:
        for (int i = 0; i < ElephantCount[from]; i++)
            if (ElephantSteps[from][i].to == to) return !pos->board[ElephantSteps[from][i].block];
        return false;
    default: return false;
    }
}

bool move_is_legal(const Position *pos, Move m) { return move_is_pseudo_legal(pos, m) && pos_move_is_safe(pos, m); }
