// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Stage 2 of each order of the rule loop (docs/egtb.md, "The pruning
 * tests"): the verdict candidates that do not hold up are dropped, as
 * xiangqitb's check_remove_lose, check_remove_win and remove_fake_step4
 * drop them.
 */
#include "egtb_rule.h"
#include "egtb_rule_state.h"

/* Is one point of target newly attacked by the side to move after every
 * move of list (xiangqitb's always_has_attack_after_quiet_moves)? */
static bool always_new_attack(Position *pos, const MoveList *list, Bitboard target) {
    for (int i = 0; i < list->count && target; i++)
        target &= egtb_rule_new_attacks(pos, list->moves[i]);
    return target != 0;
}

/* The point a horse on `from` needs empty to reach `to`, or SQ_NONE when
 * to is no horse step from there. */
static Square horse_leg(Square from, Square to) {
    int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    if (adf == 2 && adr == 1) return make_square(file_of(from) + df / 2, rank_of(from));
    if (adf == 1 && adr == 2) return make_square(file_of(from), rank_of(from) + dr / 2);
    return SQ_NONE;
}

/* The points v's k-th move rescues (egtb_rule_escape), decoding v's node
 * first if it came from the cache. */
static Bitboard escape_k(RuleLoop *L, View *v, int k) {
    egtb_rule_full(L, v);
    return egtb_rule_view_escape(L, v, v->quiets.moves[k]);
}

/* ---- Stage 2: pruning, the LOSE candidates ----------------------------- */

/* Every move of s loses outright, yet s holds a LOSE candidate: only a
 * drawing capture explains it (else the plain pass would have proved the
 * loss). */
static uint16_t no_live_move(RuleLoop *L, uint64_t node, uint16_t f, uint16_t drop) {
    if (f & CAP_DRAW) return (uint16_t)(f & ~drop);
    egtb_rule_fail(L, "every quiet move loses but the position is open without a drawing capture", node);
    return f;
}

/* s keeps CHASE_LOSE only if it chases one piece of o whatever it does,
 * and, when s is in check (from STEP_2 on), o has a way to answer each
 * chase without checking: else the cycle is o's perpetual check. */
static uint16_t judge_chase_list(RuleLoop *L, Step step, uint64_t node, uint16_t f, View *v, const int *chase_k,
                                 int nchase) {
    Position *pos = L->pos;
    if (nchase == 0) return no_live_move(L, node, f, CHASE_LOSE | CHASE_WIN);
    egtb_rule_full(L, v);
    MoveList list = {.count = nchase};
    for (int i = 0; i < nchase; i++)
        list.moves[i] = v->quiets.moves[chase_k[i]];
    const MoveList *chases = &list;
    if (!always_new_attack(pos, chases, ~(Bitboard)0)) return (uint16_t)(f & ~CHASE_LOSE);
    if (step == STEP_1 || !pos_in_check(pos)) return f;
    View w;
    for (int i = 0; i < chases->count; i++) {
        pos_make_move(pos, chases->moves[i]);
        egtb_rule_view(L, &w);
        bool quiet_answer = false;
        for (int k = 0; k < w.quiets.count && !quiet_answer; k++) {
            Move m2 = w.quiets.moves[k];
            uint64_t g = w.child[k];
            quiet_answer = is_open(L, g) && (L->flags[g] & CHASE_LOSE) && !egtb_rule_gives_check(pos, m2) &&
                           egtb_rule_view_escape(L, &w, m2);
        }
        pos_unmake_move(pos);
        if (!quiet_answer) return (uint16_t)(f & ~CHASE_LOSE);
    }
    return f;
}

/* Both sides check: s keeps CHECK_LOSE when it can check into another
 * mutual check (unless, in STEP_3, it can leave o as the lone checker);
 * otherwise any way out drops it. */
static uint16_t prune_lose_mutual_check(RuleLoop *L, Step step, uint64_t node, uint16_t f, const View *v) {
    bool live_check = false, continues = false, way_out = false, others_fault = false;
    for (int k = 0; k < v->quiets.count; k++) {
        uint64_t child = v->child[k];
        if (!is_open(L, child)) {
            way_out |= settled_not_won(L, child);
            continue;
        }
        uint16_t cf = L->flags[child];
        if (!(cf & CHECK_WIN)) {
            way_out = true;
            others_fault |= step == STEP_3 && (cf & CHECK_LOSE);
        } else {
            live_check = true;
            continues |= (cf & CHECK_LOSE) != 0;
        }
    }
    if (continues && !others_fault) return f;
    if (way_out) return (uint16_t)(f & ~CHECK_LOSE);
    if (!live_check) return no_live_move(L, node, f, CHECK_LOSE | CHECK_WIN);
    return f;
}

/* A chariot of s that escaped onto the leg of an o horse, where the horse
 * would otherwise check s's king: attacking the horse from there is no
 * chase, it is blocking (xiangqitb counts the move as a way out). */
static bool chariot_blocks_horse(const Position *pos, Bitboard rescued, Bitboard attacked) {
    rescued &= pos_pieces(pos, pos->side, ROOK);
    if (!rescued) return false;
    Square king = pos->king_sq[pos->side];
    while (attacked) {
        Square s = bb_pop_lsb(&attacked);
        if (type_of(pos->board[s]) != HORSE) continue;
        Square leg = horse_leg(s, king);
        if (leg != SQ_NONE && bb_test(rescued, leg)) return true;
    }
    return false;
}

/* Both sides chase (and do not both check). */
static uint16_t prune_lose_mutual_chase(RuleLoop *L, Step step, uint64_t node, uint16_t f, View *v) {
    Position *pos = L->pos;
    bool long_check = (f & CHECK_LOSE) != 0;
    bool continues = false, way_out = false, others_fault = false;
    int chase_k[MAX_MOVES], nchase = 0;
    for (int k = 0; k < v->quiets.count; k++) {
        uint64_t child = v->child[k];
        if (!is_open(L, child)) {
            if (!settled_not_won(L, child)) continue;
            if (long_check) {
                long_check = false;
                f &= (uint16_t)~CHECK_LOSE;
            }
            way_out = true;
            continue;
        }
        uint16_t cf = L->flags[child];
        if (long_check && !(cf & CHECK_WIN)) {
            long_check = false;
            f &= (uint16_t)~CHECK_LOSE;
        }
        if (!(cf & CHASE_WIN)) {
            way_out = true;
            if (step == STEP_3 && !others_fault && (cf & CHASE_LOSE) && !(cf & CHECK_WIN) && escape_k(L, v, k))
                others_fault = true;
        } else {
            chase_k[nchase++] = k;
        }
        if (!continues && (cf & CHASE_WIN) && (cf & CHASE_LOSE)) {
            Bitboard rescued = escape_k(L, v, k);
            Bitboard attacked = rescued ? egtb_rule_new_attacks(pos, v->quiets.moves[k]) : 0;
            if (rescued && attacked) {
                if (chariot_blocks_horse(pos, rescued, attacked))
                    way_out = true;
                else
                    continues = true;
            }
        }
    }
    if (continues && !others_fault) return f;
    if (way_out) return (uint16_t)(f & ~CHASE_LOSE);
    return judge_chase_list(L, step, node, f, v, chase_k, nchase);
}

/* Neither mutual case: a move that does not lose and is no live check
 * (chase) drops CHECK_LOSE (CHASE_LOSE); a surviving CHASE_LOSE goes to the
 * chase list judgement. */
static uint16_t prune_lose_single(RuleLoop *L, Step step, uint64_t node, uint16_t f, View *v) {
    bool long_check = (f & CHECK_LOSE) != 0, long_chase = (f & CHASE_LOSE) != 0;
    bool live_check = false;
    int chase_k[MAX_MOVES], nchase = 0;
    for (int k = 0; k < v->quiets.count && (long_check || long_chase); k++) {
        uint64_t child = v->child[k];
        if (!is_open(L, child)) {
            if (!settled_not_won(L, child)) continue;
            long_check = long_chase = false;
            f &= (uint16_t) ~(CHECK_LOSE | CHASE_LOSE);
            continue;
        }
        uint16_t cf = L->flags[child];
        if (long_check) {
            if (!(cf & CHECK_WIN)) {
                long_check = false;
                f &= (uint16_t)~CHECK_LOSE;
            } else {
                live_check = true;
            }
        }
        if (long_chase) {
            if (!(cf & CHASE_WIN)) {
                long_chase = false;
                f &= (uint16_t)~CHASE_LOSE;
            } else {
                chase_k[nchase++] = k;
            }
        }
    }
    if (long_check && long_chase) {
        egtb_rule_fail(L, "every quiet move both checks and chases", node);
        return f;
    }
    if (long_check && !live_check) return no_live_move(L, node, f, CHECK_LOSE | CHECK_WIN);
    if (long_chase) return judge_chase_list(L, step, node, f, v, chase_k, nchase);
    return f;
}

/* xiangqitb's check_remove_lose: may s still be forced to check (chase)
 * for ever? */
static uint16_t prune_lose(RuleLoop *L, Step step, int c, uint64_t k, uint16_t f) {
    uint64_t node = L->listed[c][k];
    if (f & CAP_DRAW) {
        uint16_t g = f;
        if ((g & CHECK_LOSE) && !(g & CHECK_WIN)) g &= (uint16_t)~CHECK_LOSE;
        if ((g & CHASE_LOSE) && !(g & CHASE_WIN)) g &= (uint16_t)~CHASE_LOSE;
        if (g != f) return g;
    }
    View v;
    egtb_rule_load(L, c, k, &v);
    if ((f & CHECK_LOSE) && (f & CHECK_WIN)) return prune_lose_mutual_check(L, step, node, f, &v);
    if ((f & CHASE_LOSE) && (f & CHASE_WIN)) return prune_lose_mutual_chase(L, step, node, f, &v);
    return prune_lose_single(L, step, node, f, &v);
}

/* ---- Stage 2: pruning, the WIN candidates ------------------------------ */

/* After s's move into the child (made on L->pos, o to move; w its view):
 * is o forced to go on chasing (every reply a loss for o or into a node
 * where s holds CHASE_WIN), newly attacking one of the pieces s rescued
 * whatever it plays? */
static bool forced_to_chase(RuleLoop *L, const View *w, Bitboard rescued) {
    MoveList chases = {.count = 0};
    for (int k = 0; k < w->quiets.count; k++) {
        uint64_t g = w->child[k];
        if (!is_open(L, g)) {
            if (settled_not_won(L, g)) return false;
            continue;
        }
        if (!(L->flags[g] & CHASE_WIN)) return false;
        chases.moves[chases.count++] = w->quiets.moves[k];
    }
    if (chases.count == 0) {
        egtb_rule_fail(L, "a chased side with no quiet move left", 0);
        return false;
    }
    return always_new_attack(L->pos, &chases, rescued);
}

/* Both sides chase: s keeps CHASE_WIN when it can escape into a child where
 * o must chase one of the rescued pieces again, or (a double chase) where o
 * escapes back into a mutual chase while newly attacking a rescued piece. */
static uint16_t prune_win_mutual_chase(RuleLoop *L, Step step, uint16_t f, View *v) {
    Position *pos = L->pos;
    bool draw_moves = (f & CAP_DRAW) != 0;
    int cand[MAX_MOVES], ncand = 0;
    Bitboard rescued_by[MAX_MOVES];
    for (int k = 0; k < v->quiets.count; k++) {
        uint64_t child = v->child[k];
        if (!is_open(L, child)) {
            draw_moves |= settled_not_won(L, child);
            continue;
        }
        uint16_t cf = L->flags[child];
        Bitboard rescued = (cf & CHASE_LOSE) ? escape_k(L, v, k) : 0;
        if (rescued) {
            if (step == STEP_1) return f;
            rescued_by[ncand] = rescued;
            cand[ncand++] = k;
        }
        draw_moves |= !(cf & CHASE_WIN);
    }
    bool consider_double = !(draw_moves && step <= STEP_2);
    View w;
    for (int j = 0; j < ncand; j++) {
        Move m = v->quiets.moves[cand[j]];
        uint64_t child = v->child[cand[j]];
        bool double_chase = consider_double && (L->flags[child] & CHASE_WIN) && egtb_rule_new_attacks(pos, m);
        pos_make_move(pos, m);
        egtb_rule_view(L, &w);
        MoveList chases = {.count = 0}, back_chases = {.count = 0};
        bool long_chase = true, found_back = false, others = false;
        for (int k = 0; k < w.quiets.count; k++) {
            Move m2 = w.quiets.moves[k];
            uint64_t g = w.child[k];
            if (!is_open(L, g)) {
                if (settled_not_won(L, g)) {
                    long_chase = false;
                    if (!double_chase) break;
                }
                continue;
            }
            uint16_t gf = L->flags[g];
            if (!(gf & CHASE_WIN)) {
                long_chase = false;
                if (!double_chase) break;
                if (step == STEP_3 && !others && (gf & CHASE_LOSE) && !(gf & CHECK_WIN) &&
                    egtb_rule_view_escape(L, &w, m2))
                    others = true;
            } else {
                chases.moves[chases.count++] = m2;
            }
            if (double_chase && (gf & CHASE_WIN) && (gf & CHASE_LOSE) && egtb_rule_view_escape(L, &w, m2)) {
                found_back = true;
                back_chases.moves[back_chases.count++] = m2;
            }
        }
        bool keep = false;
        if (found_back && (!others || step <= STEP_2))
            for (int k = 0; k < back_chases.count && !keep; k++)
                keep = (egtb_rule_new_attacks(pos, back_chases.moves[k]) & rescued_by[j]) != 0;
        if (!keep && long_chase) {
            if (chases.count == 0)
                egtb_rule_fail(L, "a chased side with no quiet move left", child);
            else
                keep = always_new_attack(pos, &chases, rescued_by[j]);
        }
        pos_unmake_move(pos);
        if (keep) return f;
    }
    return (uint16_t)(f & ~CHASE_WIN);
}

/* xiangqitb's check_remove_win: can s still make o check (chase) for ever? */
static uint16_t prune_win(RuleLoop *L, Step step, int c, uint64_t k, uint16_t f) {
    View v;
    egtb_rule_load(L, c, k, &v);
    if (f & CHECK_WIN) {
        for (int k = 0; k < v.quiets.count; k++)
            if (is_open(L, v.child[k]) && (L->flags[v.child[k]] & CHECK_LOSE)) return f;
        return (uint16_t)(f & ~CHECK_WIN);
    }
    if (f & CHASE_LOSE) return prune_win_mutual_chase(L, step, f, &v);
    /* CHASE_WIN alone: s escapes into a child where o must chase a rescued piece. */
    Position *pos = L->pos;
    View w;
    for (int k = 0; k < v.quiets.count; k++) {
        uint64_t child = v.child[k];
        if (!is_open(L, child) || !(L->flags[child] & CHASE_LOSE)) continue;
        Bitboard rescued = escape_k(L, &v, k);
        if (!rescued) continue;
        Move m = v.quiets.moves[k];
        if (step == STEP_1) return f;
        pos_make_move(pos, m);
        egtb_rule_view(L, &w);
        bool keep = forced_to_chase(L, &w, rescued);
        pos_unmake_move(pos);
        if (keep) return f;
    }
    return (uint16_t)(f & ~CHASE_WIN);
}

/* ---- Stage 2: the passes ---------------------------------------------- */

/* One pass over the listed open nodes, Red's then Black's, each in index
 * order, writing in place (a later node sees what an earlier one changed,
 * as in xiangqitb on one thread): the LOSE candidates or the WIN ones. */
static bool prune_pass(RuleLoop *L, Step step, bool lose) {
    uint16_t mask = lose ? CHECK_LOSE | CHASE_LOSE : CHECK_WIN | CHASE_WIN;
    bool changed = false;
    for (int c = 0; c < COLOR_NB && !L->failed; c++)
        for (uint64_t k = 0; k < L->nlisted[c] && !L->failed; k++) {
            uint64_t node = L->listed[c][k];
            uint16_t f = L->flags[node];
            if (!is_open(L, node) || !(f & mask)) continue;
            uint16_t g = lose ? prune_lose(L, step, c, k, f) : prune_win(L, step, c, k, f);
            if (g != f) {
                L->flags[node] = g;
                changed = true;
            }
        }
    return changed;
}

/* Passes alternate LOSE and WIN, at least one of each, until one changes
 * nothing. */
static void prune_to_fixed_point(RuleLoop *L, Step step) {
    bool changed = false;
    for (unsigned pass = 1; (pass <= 2 || changed) && !L->failed; pass++)
        changed = prune_pass(L, step, pass & 1);
}

/* xiangqitb's STEP_4: a mutual check or mutual chase still standing is a
 * draw (both offend). */
static bool clear_mutual(RuleLoop *L) {
    bool changed = false;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t k = 0; k < L->nlisted[c]; k++) {
            uint64_t node = L->listed[c][k];
            uint16_t f = L->flags[node], g = f;
            if (!is_open(L, node)) continue;
            if ((g & CHECK_WIN) && (g & CHECK_LOSE)) g &= (uint16_t) ~(CHECK_WIN | CHECK_LOSE);
            if ((g & CHASE_WIN) && (g & CHASE_LOSE)) g &= (uint16_t) ~(CHASE_WIN | CHASE_LOSE);
            if (g != f) {
                L->flags[node] = g;
                changed = true;
            }
        }
    return changed;
}

void egtb_rule_prune(RuleLoop *L) {
    for (Step step = STEP_1; step <= STEP_3; step++)
        prune_to_fixed_point(L, step);
    if (!L->failed && clear_mutual(L)) prune_to_fixed_point(L, STEP_2);
}
