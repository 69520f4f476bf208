// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The rule loop's frame (egtb_rule_loop.h): the first marking, each
 * order's candidates, the rule losses and their spread, the orders until
 * both colours are done. Stage 2, the pruning, is egtb_rule_prune.c.
 */
#include "egtb_rule_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "egtb_rule.h"
#include "egtb_rule_state.h"
#include "egtb_solve.h"

/* The spread's lists of settled nodes start with room for this many and
 * double when full. */
enum { SPREAD_LIST_START = 1 << 16 };

void egtb_rule_fail(RuleLoop *L, const char *why, uint64_t node) {
    if (L->failed) return;
    L->failed = true;
    snprintf(L->err, sizeof L->err, "%s: rule loop, order %u, %s to move, index %llu: %s", L->t->name, L->order,
             node < L->n ? "red" : "black", (unsigned long long)(node % L->n), why);
}

/* The view of L->pos as it stands (a node, or a child made on it). */
void egtb_rule_view(const RuleLoop *L, View *v) {
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

void egtb_rule_decode(const RuleLoop *L, uint64_t node, View *v) {
    egtb_decode(L->lay, node % L->n, node < L->n ? RED : BLACK, L->pos);
    egtb_rule_view(L, v);
}

/* ---- The first marking ---------------------------------------------- */

/* Once: every open node where s is in check marks the open children of its
 * quiet evasions CHECKER and itself IN_CHECK; where s is not in check, its
 * quiet moves that escape an attack mark their open children CHASER and
 * itself IN_CHASE. A child whose moved group is the compress group and
 * lands on a placement that is its own mirror has two indices; both are
 * marked, as xiangqitb marks them. Returns whether anything was marked. */
static bool first_marking(RuleLoop *L) {
    bool any = false;
    View v;
    for (uint64_t i = 0; i < L->n; i++)
        for (int c = 0; c < COLOR_NB; c++) {
            uint64_t node = (uint64_t)c * L->n + i;
            if (!is_open(L, node)) continue;
            egtb_rule_decode(L, node, &v);
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
static void label_candidates(RuleLoop *L) {
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

/* ---- Stages 3 and 4: the losses and their spread ----------------------- */

static void settle(RuleLoop *L, uint64_t node, uint16_t v) {
    *val_at(L, node) = v;
    L->t->order[node < L->n ? RED : BLACK][node % L->n] = (uint8_t)L->order;
    L->stats->decided[node < L->n ? RED : BLACK]++;
    L->stats->orders = L->order;
    if (L->nnext == L->cap_next) {
        uint64_t cap = L->cap_next ? 2 * L->cap_next : SPREAD_LIST_START;
        uint64_t *grown = realloc(L->next, cap * sizeof *grown);
        if (!grown) {
            egtb_rule_fail(L, "out of memory for the spread", node);
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
    RuleLoop *L = ctx;
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
static bool settle_losses_of(RuleLoop *L, Color loser) {
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
        egtb_rule_fail(L, "rule rounds past the order-64 layout's largest order (63)", L->next[0]);
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

static bool list_marked(RuleLoop *L) {
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

static void run(RuleLoop *L) {
    for (uint64_t node = 0; node < 2 * L->n; node++)
        if (is_open(L, node) && (L->pending[node] & EGTB_PENDING_CAPDRAW)) L->flags[node] = CAP_DRAW;
    if (!first_marking(L)) return;
    if (!list_marked(L)) {
        egtb_rule_fail(L, "out of memory", 0);
        return;
    }
    /* Once a colour's round finds no loss of the other colour, that colour
     * is not asked again (xiangqitb's build_finish). */
    bool finished[COLOR_NB] = {false, false};
    for (L->order = 1; !L->failed; L->order++) {
        label_candidates(L);
        egtb_rule_prune(L);
        for (int winner = 0; winner < COLOR_NB && !L->failed; winner++)
            if (!finished[winner]) finished[winner] = !settle_losses_of(L, (Color)!winner);
        if (finished[RED] && finished[BLACK]) break;
    }
}

/* Symmetric signatures too: xiangqitb runs the same loop on both colours
 * in one frame and keeps Red to move (egtb_sym.h), as the solver does. */
bool egtb_rule_loop_applies(const EgtbMaterial *mat) {
    return egtb_sig_has_attackers(mat, RED) && egtb_sig_has_attackers(mat, BLACK);
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
    RuleLoop L = {.t = t, .lay = &t->lay, .n = n, .pending = pending, .stats = stats};
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
