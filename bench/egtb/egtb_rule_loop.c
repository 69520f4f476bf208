// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_rule_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "egtb_reindex.h"
#include "egtb_rule.h"
#include "egtb_solve.h"
#include "egtb_unmove.h"
#include "movegen.h"

/* A node's flags while it is open (docs/egtb.md, "Flags"), one 16-bit word
 * per node. The first five are facts, fixed once the first marking is done;
 * the last four are the verdict candidates, set again each order and then
 * pruned. s is the side to move in the node, o the other. */
enum {
    CAP_DRAW = 1 << 0,   /* s has a capture into a drawn smaller table (and none into a won one) */
    CHECKER = 1 << 1,    /* o was in check at a parent and evaded into here: s may be a perpetual checker */
    CHASER = 1 << 2,     /* o escaped an attack into here: s may be a perpetual chaser */
    IN_CHECK = 1 << 3,   /* s is in check with a quiet evasion into an open node */
    IN_CHASE = 1 << 4,   /* s is not in check and escapes an attack into an open node */
    CHECK_WIN = 1 << 5,  /* candidate: s wins because o checks for ever */
    CHECK_LOSE = 1 << 6, /* candidate: s loses because s checks for ever */
    CHASE_WIN = 1 << 7,  /* candidate: s wins because o chases for ever */
    CHASE_LOSE = 1 << 8, /* candidate: s loses because s chases for ever */
    FACTS = CHECKER | CHASER | IN_CHECK | IN_CHASE,
    VERDICTS = CHECK_WIN | CHECK_LOSE | CHASE_WIN | CHASE_LOSE,
};

/* The spread's lists of settled nodes start with room for this many and
 * double when full. */
enum { SPREAD_LIST_START = 1 << 16 };

/* The three strengths of the pruning tests (xiangqitb's STEP_1..STEP_3):
 * each later one looks a ply further or lets fewer candidates through. */
typedef enum { STEP_1 = 1, STEP_2, STEP_3 } Step;

typedef struct {
    EgtbTable *t;
    const EgtbLayout *lay;
    uint64_t n;                 /* positions per side; node = side * n + index */
    uint8_t *pending;           /* the solver's count bytes (EGTB_PENDING_*) */
    uint16_t *flags;            /* per node */
    uint64_t *listed[COLOR_NB]; /* open nodes with a fact, in index order */
    uint64_t nlisted[COLOR_NB];
    unsigned order;            /* the round running */
    Position *pos;             /* the node being judged; its children are made on it and taken back */
    uint64_t *frontier, *next; /* the spread: nodes settled at the current level, and at the next */
    uint64_t nfrontier, nnext;
    uint64_t cap_frontier, cap_next; /* their room, grown as needed (a level is far smaller than the table) */
    unsigned level;
    EgtbParentScratch scratch;
    EgtbRuleLoopStats *stats;
    bool failed;
    char err[256];
} Loop;

/* A position's legal quiet moves and the nodes they lead to. */
typedef struct {
    EgtbReindex r;
    MoveList quiets;
    uint64_t child[MAX_MOVES];
} View;

static inline uint16_t *val_at(const Loop *L, uint64_t node) {
    return node < L->n ? &L->t->val[RED][node] : &L->t->val[BLACK][node - L->n];
}
/* Open: no value yet (illegal positions have EGTB_ILLEGAL). */
static inline bool is_open(const Loop *L, uint64_t node) { return *val_at(L, node) == 0; }
/* A settled child that is no win for its side to move: a loss (a settled
 * draw does not occur in a table where both sides attack). */
static inline bool settled_not_won(const Loop *L, uint64_t node) { return egtb_is_loss(*val_at(L, node)); }

static void fail(Loop *L, const char *why, uint64_t node) {
    if (L->failed) return;
    L->failed = true;
    snprintf(L->err, sizeof L->err, "%s: rule loop, order %u, %s to move, index %llu: %s", L->t->name, L->order,
             node < L->n ? "red" : "black", (unsigned long long)(node % L->n), why);
}

/* The view of L->pos as it stands (a node, or a child made on it). */
static void view_fill(const Loop *L, View *v) {
    Position *pos = L->pos;
    egtb_reindex_set(L->lay, pos, &v->r);
    MoveList all;
    gen_legal(pos, &all);
    v->quiets.count = 0;
    uint64_t base = pos->side == RED ? L->n : 0; /* the children's side to move */
    for (int i = 0; i < all.count; i++) {
        Move m = all.moves[i];
        if (pos->board[move_to(m)] != NO_PIECE) continue; /* captures were settled before the loop */
        bool mirrored;
        uint64_t idx = egtb_reindex_move(L->lay, &v->r, pos->board[move_from(m)], move_from(m), move_to(m), &mirrored);
        v->child[v->quiets.count] = base + idx;
        v->quiets.moves[v->quiets.count++] = m;
    }
}

static void decode(const Loop *L, uint64_t node, View *v) {
    egtb_decode(L->lay, node % L->n, node < L->n ? RED : BLACK, L->pos);
    view_fill(L, v);
}

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

/* ---- The first marking ---------------------------------------------- */

/* Once: every open node where s is in check marks the open children of its
 * quiet evasions CHECKER and itself IN_CHECK; where s is not in check, its
 * quiet moves that escape an attack mark their open children CHASER and
 * itself IN_CHASE. A child whose moved group is the compress group and
 * lands on a placement that is its own mirror has two indices; both are
 * marked, as xiangqitb marks them. Returns whether anything was marked. */
static bool first_marking(Loop *L) {
    bool any = false;
    View v;
    for (uint64_t i = 0; i < L->n; i++)
        for (int c = 0; c < COLOR_NB; c++) {
            uint64_t node = (uint64_t)c * L->n + i;
            if (!is_open(L, node)) continue;
            decode(L, node, &v);
            Position *pos = L->pos;
            bool in_check = pos_in_check(pos);
            uint64_t base = c == RED ? L->n : 0;
            bool marked = false;
            for (int k = 0; k < v.quiets.count; k++) {
                Move m = v.quiets.moves[k];
                if (!in_check && !egtb_rule_marking_escape(pos, m)) continue;
                uint64_t idx[2];
                int count =
                    egtb_reindex_move_both(L->lay, &v.r, pos->board[move_from(m)], move_from(m), move_to(m), idx);
                for (int j = 0; j < count; j++) {
                    uint64_t child = base + idx[j];
                    if (!is_open(L, child)) continue;
                    L->flags[child] |= in_check ? CHECKER | CHECK_LOSE : CHASER | CHASE_LOSE;
                    marked = true;
                }
            }
            if (marked) L->flags[node] |= in_check ? IN_CHECK | CHECK_WIN : IN_CHASE | CHASE_WIN;
            any |= marked;
        }
    return any;
}

/* ---- Stage 1: candidates ----------------------------------------------- */

/* The verdicts from the facts; a side with a drawing capture is never forced
 * to go on checking (chasing) unless it is checked (chased) itself. */
static void label_candidates(Loop *L) {
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t k = 0; k < L->nlisted[c]; k++) {
            uint64_t node = L->listed[c][k];
            if (!is_open(L, node)) continue;
            uint16_t f = L->flags[node] & (uint16_t)~VERDICTS;
            if (f & IN_CHECK) f |= CHECK_WIN;
            if (f & IN_CHASE) f |= CHASE_WIN;
            if (f & CHECKER) f |= CHECK_LOSE;
            if (f & CHASER) f |= CHASE_LOSE;
            if (f & CAP_DRAW) {
                if (!(f & CHECK_WIN)) f &= (uint16_t)~CHECK_LOSE;
                if (!(f & CHASE_WIN)) f &= (uint16_t)~CHASE_LOSE;
            }
            L->flags[node] = f;
        }
}

/* ---- Stage 2: pruning, the LOSE candidates ----------------------------- */

/* Every move of s loses outright, yet s holds a LOSE candidate: only a
 * drawing capture explains it (else the plain pass would have proved the
 * loss). */
static uint16_t no_live_move(Loop *L, uint64_t node, uint16_t f, uint16_t drop) {
    if (f & CAP_DRAW) return (uint16_t)(f & ~drop);
    fail(L, "every quiet move loses but the position is open without a drawing capture", node);
    return f;
}

/* s keeps CHASE_LOSE only if it chases one piece of o whatever it does,
 * and, when s is in check (from STEP_2 on), o has a way to answer each
 * chase without checking: else the cycle is o's perpetual check. */
static uint16_t judge_chase_list(Loop *L, Step step, uint64_t node, uint16_t f, const MoveList *chases) {
    Position *pos = L->pos;
    if (chases->count == 0) return no_live_move(L, node, f, CHASE_LOSE | CHASE_WIN);
    if (!always_new_attack(pos, chases, ~(Bitboard)0)) return (uint16_t)(f & ~CHASE_LOSE);
    if (step == STEP_1 || !pos_in_check(pos)) return f;
    View w;
    for (int i = 0; i < chases->count; i++) {
        pos_make_move(pos, chases->moves[i]);
        view_fill(L, &w);
        bool quiet_answer = false;
        for (int k = 0; k < w.quiets.count && !quiet_answer; k++) {
            Move m2 = w.quiets.moves[k];
            uint64_t g = w.child[k];
            quiet_answer = is_open(L, g) && (L->flags[g] & CHASE_LOSE) && !egtb_rule_gives_check(pos, m2) &&
                           egtb_rule_escape(pos, m2);
        }
        pos_unmake_move(pos);
        if (!quiet_answer) return (uint16_t)(f & ~CHASE_LOSE);
    }
    return f;
}

/* Both sides check: s keeps CHECK_LOSE when it can check into another
 * mutual check (unless, in STEP_3, it can leave o as the lone checker);
 * otherwise any way out drops it. */
static uint16_t prune_lose_mutual_check(Loop *L, Step step, uint64_t node, uint16_t f, const View *v) {
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
static uint16_t prune_lose_mutual_chase(Loop *L, Step step, uint64_t node, uint16_t f, const View *v) {
    Position *pos = L->pos;
    bool long_check = (f & CHECK_LOSE) != 0;
    bool continues = false, way_out = false, others_fault = false;
    MoveList chases = {.count = 0};
    for (int k = 0; k < v->quiets.count; k++) {
        Move m = v->quiets.moves[k];
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
            if (step == STEP_3 && !others_fault && (cf & CHASE_LOSE) && !(cf & CHECK_WIN) && egtb_rule_escape(pos, m))
                others_fault = true;
        } else {
            chases.moves[chases.count++] = m;
        }
        if (!continues && (cf & CHASE_WIN) && (cf & CHASE_LOSE)) {
            Bitboard rescued = egtb_rule_escape(pos, m);
            Bitboard attacked = rescued ? egtb_rule_new_attacks(pos, m) : 0;
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
    return judge_chase_list(L, step, node, f, &chases);
}

/* Neither mutual case: a move that does not lose and is no live check
 * (chase) drops CHECK_LOSE (CHASE_LOSE); a surviving CHASE_LOSE goes to the
 * chase list judgement. */
static uint16_t prune_lose_single(Loop *L, Step step, uint64_t node, uint16_t f, const View *v) {
    bool long_check = (f & CHECK_LOSE) != 0, long_chase = (f & CHASE_LOSE) != 0;
    bool live_check = false;
    MoveList chases = {.count = 0};
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
                chases.moves[chases.count++] = v->quiets.moves[k];
            }
        }
    }
    if (long_check && long_chase) {
        fail(L, "every quiet move both checks and chases", node);
        return f;
    }
    if (long_check && !live_check) return no_live_move(L, node, f, CHECK_LOSE | CHECK_WIN);
    if (long_chase) return judge_chase_list(L, step, node, f, &chases);
    return f;
}

/* xiangqitb's check_remove_lose: may s still be forced to check (chase)
 * for ever? */
static uint16_t prune_lose(Loop *L, Step step, uint64_t node, uint16_t f) {
    if (f & CAP_DRAW) {
        uint16_t g = f;
        if ((g & CHECK_LOSE) && !(g & CHECK_WIN)) g &= (uint16_t)~CHECK_LOSE;
        if ((g & CHASE_LOSE) && !(g & CHASE_WIN)) g &= (uint16_t)~CHASE_LOSE;
        if (g != f) return g;
    }
    View v;
    decode(L, node, &v);
    if ((f & CHECK_LOSE) && (f & CHECK_WIN)) return prune_lose_mutual_check(L, step, node, f, &v);
    if ((f & CHASE_LOSE) && (f & CHASE_WIN)) return prune_lose_mutual_chase(L, step, node, f, &v);
    return prune_lose_single(L, step, node, f, &v);
}

/* ---- Stage 2: pruning, the WIN candidates ------------------------------ */

/* After s's move into the child (made on L->pos, o to move; w its view):
 * is o forced to go on chasing (every reply a loss for o or into a node
 * where s holds CHASE_WIN), newly attacking one of the pieces s rescued
 * whatever it plays? */
static bool forced_to_chase(Loop *L, const View *w, Bitboard rescued) {
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
        fail(L, "a chased side with no quiet move left", 0);
        return false;
    }
    return always_new_attack(L->pos, &chases, rescued);
}

/* Both sides chase: s keeps CHASE_WIN when it can escape into a child where
 * o must chase one of the rescued pieces again, or (a double chase) where o
 * escapes back into a mutual chase while newly attacking a rescued piece. */
static uint16_t prune_win_mutual_chase(Loop *L, Step step, uint16_t f, const View *v) {
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
        Bitboard rescued = (cf & CHASE_LOSE) ? egtb_rule_escape(pos, v->quiets.moves[k]) : 0;
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
        view_fill(L, &w);
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
                if (step == STEP_3 && !others && (gf & CHASE_LOSE) && !(gf & CHECK_WIN) && egtb_rule_escape(pos, m2))
                    others = true;
            } else {
                chases.moves[chases.count++] = m2;
            }
            if (double_chase && (gf & CHASE_WIN) && (gf & CHASE_LOSE) && egtb_rule_escape(pos, m2)) {
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
                fail(L, "a chased side with no quiet move left", child);
            else
                keep = always_new_attack(pos, &chases, rescued_by[j]);
        }
        pos_unmake_move(pos);
        if (keep) return f;
    }
    return (uint16_t)(f & ~CHASE_WIN);
}

/* xiangqitb's check_remove_win: can s still make o check (chase) for ever? */
static uint16_t prune_win(Loop *L, Step step, uint64_t node, uint16_t f) {
    View v;
    decode(L, node, &v);
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
        Move m = v.quiets.moves[k];
        Bitboard rescued = egtb_rule_escape(pos, m);
        if (!rescued) continue;
        if (step == STEP_1) return f;
        pos_make_move(pos, m);
        view_fill(L, &w);
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
static bool prune_pass(Loop *L, Step step, bool lose) {
    uint16_t mask = lose ? CHECK_LOSE | CHASE_LOSE : CHECK_WIN | CHASE_WIN;
    bool changed = false;
    for (int c = 0; c < COLOR_NB && !L->failed; c++)
        for (uint64_t k = 0; k < L->nlisted[c] && !L->failed; k++) {
            uint64_t node = L->listed[c][k];
            uint16_t f = L->flags[node];
            if (!is_open(L, node) || !(f & mask)) continue;
            uint16_t g = lose ? prune_lose(L, step, node, f) : prune_win(L, step, node, f);
            if (g != f) {
                L->flags[node] = g;
                changed = true;
            }
        }
    return changed;
}

/* Passes alternate LOSE and WIN, at least one of each, until one changes
 * nothing. */
static void prune_to_fixed_point(Loop *L, Step step) {
    bool changed = false;
    for (unsigned pass = 1; (pass <= 2 || changed) && !L->failed; pass++)
        changed = prune_pass(L, step, pass & 1);
}

/* xiangqitb's STEP_4: a mutual check or mutual chase still standing is a
 * draw (both offend). */
static bool clear_mutual(Loop *L) {
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

static void prune(Loop *L) {
    for (Step step = STEP_1; step <= STEP_3; step++)
        prune_to_fixed_point(L, step);
    if (!L->failed && clear_mutual(L)) prune_to_fixed_point(L, STEP_2);
}

/* ---- Stages 3 and 4: the losses and their spread ----------------------- */

static void settle(Loop *L, uint64_t node, uint16_t v) {
    *val_at(L, node) = v;
    L->t->order[node < L->n ? RED : BLACK][node % L->n] = (uint8_t)L->order;
    L->stats->decided[node < L->n ? RED : BLACK]++;
    L->stats->orders = L->order;
    if (L->nnext == L->cap_next) {
        uint64_t cap = L->cap_next ? 2 * L->cap_next : SPREAD_LIST_START;
        uint64_t *grown = realloc(L->next, cap * sizeof *grown);
        if (!grown) {
            fail(L, "out of memory for the spread", node);
            return;
        }
        L->next = grown;
        L->cap_next = cap;
    }
    L->next[L->nnext++] = node;
}

/* A parent p of a node settled at L->level, as the solver's step 3 does it:
 * a loss makes p a win, a win uses up one of p's quiet moves and the last
 * makes p a loss unless a capture draws. */
static void tell_parent(void *ctx, uint64_t p) {
    Loop *L = ctx;
    if (!is_open(L, p)) return;
    if (L->level & 1) {
        settle(L, p, (uint16_t)(L->level + 1));
        return;
    }
    uint8_t old = L->pending[p]--;
    if ((old & EGTB_PENDING_COUNT) == 1 && !(old & EGTB_PENDING_CAPDRAW)) settle(L, p, (uint16_t)(L->level + 1));
}

/* The other colour's open nodes whose candidates say "loses" (the check
 * pair read first, the chase pair only when neither check bit is set)
 * become losses v = 1 at this order, and the spread runs from them level
 * by level, every value written getting this order. false when there was
 * no such loss. */
static bool settle_losses_of(Loop *L, Color loser) {
    L->nnext = 0;
    for (uint64_t k = 0; k < L->nlisted[loser]; k++) {
        uint64_t node = L->listed[loser][k];
        uint16_t f = L->flags[node];
        if (!is_open(L, node) || (f & CAP_DRAW)) continue;
        if (f & (CHECK_LOSE | CHECK_WIN)) {
            if (!(f & CHECK_LOSE) || (f & CHECK_WIN)) continue;
            L->stats->check_losses++;
        } else if (f & (CHASE_LOSE | CHASE_WIN)) {
            if (!(f & CHASE_LOSE) || (f & CHASE_WIN)) continue;
            L->stats->chase_losses++;
        } else {
            continue;
        }
        settle(L, node, 1);
    }
    if (L->nnext == 0) return false;
    if (L->order > EGTB_RULE_ORDER_MAX) {
        fail(L, "rule rounds past the order-64 layout's largest order (63)", L->next[0]);
        return false;
    }
    for (L->level = 1; L->nnext; L->level++) {
        if (L->failed) return false;
        uint64_t *done = L->frontier, done_cap = L->cap_frontier;
        L->frontier = L->next;
        L->cap_frontier = L->cap_next;
        L->cap_next = done_cap;
        L->nfrontier = L->nnext;
        L->next = done;
        L->nnext = 0;
        for (uint64_t k = 0; k < L->nfrontier; k++)
            egtb_parents(L->lay, L->frontier[k], &L->scratch, tell_parent, L);
    }
    return true;
}

/* ---- The loop -------------------------------------------------------- */

static bool list_marked(Loop *L) {
    for (int c = 0; c < COLOR_NB; c++) {
        uint64_t count = 0;
        for (uint64_t i = 0; i < L->n; i++)
            count += is_open(L, (uint64_t)c * L->n + i) && (L->flags[(uint64_t)c * L->n + i] & FACTS);
        L->listed[c] = malloc(sizeof(uint64_t) * (count ? count : 1));
        if (!L->listed[c]) return false;
        for (uint64_t i = 0; i < L->n; i++) {
            uint64_t node = (uint64_t)c * L->n + i;
            if (is_open(L, node) && (L->flags[node] & FACTS)) L->listed[c][L->nlisted[c]++] = node;
        }
        L->stats->marked += L->nlisted[c];
    }
    return true;
}

static void run(Loop *L) {
    for (uint64_t node = 0; node < 2 * L->n; node++)
        if (is_open(L, node) && (L->pending[node] & EGTB_PENDING_CAPDRAW)) L->flags[node] = CAP_DRAW;
    if (!first_marking(L)) return;
    if (!list_marked(L)) {
        fail(L, "out of memory", 0);
        return;
    }
    /* Once a colour's round finds no loss of the other colour, that colour
     * is not asked again (xiangqitb's build_finish). */
    bool finished[COLOR_NB] = {false, false};
    for (L->order = 1; !L->failed; L->order++) {
        label_candidates(L);
        prune(L);
        for (int winner = 0; winner < COLOR_NB && !L->failed; winner++)
            if (!finished[winner]) finished[winner] = !settle_losses_of(L, (Color)!winner);
        if (finished[RED] && finished[BLACK]) break;
    }
}

bool egtb_rule_loop_applies(const EgtbMaterial *mat) {
    return egtb_sig_has_attackers(mat, RED) && egtb_sig_has_attackers(mat, BLACK) && !egtb_sig_symmetric(mat);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool egtb_rule_loop(EgtbTable *t, uint8_t *pending, EgtbRuleLoopStats *stats, char *err, size_t errlen) {
    double t0 = now_s();
    memset(stats, 0, sizeof *stats);
    uint64_t n = t->lay.positions, nodes = n ? 2 * n : 1;
    Loop L = {.t = t, .lay = &t->lay, .n = n, .pending = pending, .stats = stats};
    L.flags = calloc(nodes, sizeof *L.flags);
    L.pos = malloc(sizeof *L.pos);
    L.scratch.pos = malloc(sizeof *L.scratch.pos);
    L.scratch.mirror = malloc(sizeof *L.scratch.mirror);
    for (int c = 0; c < COLOR_NB; c++) {
        free(t->order[c]);
        t->order[c] = calloc(n ? n : 1, 1);
    }
    bool ok = L.flags && L.pos && L.scratch.pos && L.scratch.mirror && t->order[RED] && t->order[BLACK];
    if (ok) {
        run(&L);
        ok = !L.failed;
        if (!ok) snprintf(err, errlen, "%s", L.err);
    } else {
        snprintf(err, errlen, "%s: out of memory for the rule loop", t->name);
    }
    /* A table without rule verdicts keeps no order arrays (all 0). */
    if (!ok || (!stats->decided[RED] && !stats->decided[BLACK]))
        for (int c = 0; c < COLOR_NB; c++) {
            free(t->order[c]);
            t->order[c] = NULL;
        }
    free(L.flags);
    free(L.frontier);
    free(L.next);
    free(L.pos);
    free(L.scratch.pos);
    free(L.scratch.mirror);
    for (int c = 0; c < COLOR_NB; c++)
        free(L.listed[c]);
    stats->seconds = now_s() - t0;
    return ok;
}
