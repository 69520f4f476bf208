#include "movegen.h"

#include "attacks.h"

static inline void add_targets(MoveList *list, Square from, Bitboard targets) {
    while (targets) list->moves[list->count++] = make_move(from, bb_pop_lsb(&targets));
}

static inline void add_steps(MoveList *list, const Position *pos, Square from, const Step *steps, int n,
                             Bitboard targets) {
    for (int i = 0; i < n; i++)
        if (!pos->board[steps[i].block] && (targets & square_bb(steps[i].to)))
            list->moves[list->count++] = make_move(from, steps[i].to);
}

/* Every piece of the side to move, to any point in `targets`; chariots and
 * cannons read their rays from `slide`/`cannon` masks computed per piece. */
static void generate(const Position *pos, MoveList *list, Bitboard targets, bool captures) {
    Color us = pos->side;
    Bitboard occ = pos->occ, occ_t = pos->occ_t, b;

    b = pos_pieces(pos, us, ROOK);
    while (b) {
        Square s = bb_pop_lsb(&b);
        add_targets(list, s, rook_attacks(s, occ, occ_t) & targets);
    }
    b = pos_pieces(pos, us, CANNON);
    while (b) {
        Square s = bb_pop_lsb(&b);
        Bitboard to = captures ? cannon_attacks(s, occ, occ_t) : rook_attacks(s, occ, occ_t);
        add_targets(list, s, to & targets);
    }
    b = pos_pieces(pos, us, HORSE);
    while (b) {
        Square s = bb_pop_lsb(&b);
        add_steps(list, pos, s, HorseSteps[s], HorseCount[s], targets);
    }
    b = pos_pieces(pos, us, PAWN);
    while (b) {
        Square s = bb_pop_lsb(&b);
        add_targets(list, s, PawnSteps[us][s] & targets);
    }
    b = pos_pieces(pos, us, ELEPHANT);
    while (b) {
        Square s = bb_pop_lsb(&b);
        add_steps(list, pos, s, ElephantSteps[s], ElephantCount[s], targets);
    }
    b = pos_pieces(pos, us, ADVISOR);
    while (b) {
        Square s = bb_pop_lsb(&b);
        add_targets(list, s, AdvisorSteps[s] & targets);
    }
    Square k = pos->king_sq[us];
    add_targets(list, k, KingSteps[k] & targets);
}

void gen_pseudo_captures(const Position *pos, MoveList *list) {
    generate(pos, list, pos->color_bb[!pos->side], true);
}

void gen_pseudo_quiets(const Position *pos, MoveList *list) { generate(pos, list, ~pos->occ, false); }

static void keep_safe(const Position *pos, MoveList *list, int start) {
    int n = start;
    for (int i = start; i < list->count; i++)
        if (pos_move_is_safe(pos, list->moves[i])) list->moves[n++] = list->moves[i];
    list->count = n;
}

void gen_captures(const Position *pos, MoveList *list) {
    list->count = 0;
    gen_pseudo_captures(pos, list);
    keep_safe(pos, list, 0);
}

void gen_quiets(const Position *pos, MoveList *list) {
    list->count = 0;
    gen_pseudo_quiets(pos, list);
    keep_safe(pos, list, 0);
}

void gen_legal(const Position *pos, MoveList *list) {
    list->count = 0;
    gen_pseudo_captures(pos, list);
    gen_pseudo_quiets(pos, list);
    keep_safe(pos, list, 0);
}

int gen_count_legal(const Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    return list.count;
}

bool move_is_pseudo_legal(const Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    if (from >= SQUARE_NB || to >= SQUARE_NB || from == to) return false;
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
