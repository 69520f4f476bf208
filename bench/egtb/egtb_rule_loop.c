// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The rule loop's frame (egtb_rule_loop.h): the first marking, each
 * order's candidates, the rule losses and their spread, the orders until
 * both colours are done. Stage 2, the pruning, is egtb_rule_prune.c.
 */
#include "egtb_rule_loop.h"

#include <pthread.h>
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
/* The first marking's workers claim this many indices at a time (small
 * enough to balance them, large enough that the shared counter is cold);
 * at most MARK_THREADS_MAX of them. */
enum { MARK_CHUNK = 1 << 12, MARK_THREADS_MAX = 64 };

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
    v->full = true;
    v->have_threats = false;
}

void egtb_rule_decode(const RuleLoop *L, uint64_t node, View *v) {
    egtb_decode(L->lay, node % L->n, node < L->n ? RED : BLACK, L->pos);
    egtb_rule_view(L, v);
    v->node = node;
}

void egtb_rule_load(const RuleLoop *L, int c, uint64_t k, View *v) {
    uint64_t node = L->listed[c][k];
    if (k >= L->ncached[c]) {
        egtb_rule_decode(L, node, v);
        return;
    }
    const uint32_t *kids = L->kids + L->kid_start[c][k];
    int count = (int)(L->kid_start[c][k + 1] - L->kid_start[c][k]);
    for (int i = 0; i < count; i++)
        v->child[i] = kids[i];
    v->quiets.count = count;
    v->node = node;
    v->full = false;
    v->have_threats = false;
}

/* ---- The first marking ---------------------------------------------- */

/* Once: every open node where s is in check marks the open children of its
 * quiet evasions CHECKER and itself IN_CHECK; where s is not in check, its
 * quiet moves that escape an attack mark their open children CHASER and
 * itself IN_CHASE. A child whose moved group is the compress group and
 * lands on a placement that is its own mirror has two indices; both are
 * marked, as xiangqitb marks them.
 *
 * The marking only reads values (fixed while it runs) and ORs fixed bits
 * into flags, so the flags it leaves are the same in any order: it runs on
 * the build's threads, each claiming MARK_CHUNK indices at a time, the ORs
 * atomic since two nodes may mark one child. */
typedef struct {
    RuleLoop L;           /* a copy of the loop with the worker's own pos */
    uint64_t *next_index; /* shared: the first index not yet claimed */
    bool any;             /* the worker marked something */
} MarkWorker;

static void mark_or(RuleLoop *L, uint64_t node, uint16_t bits) {
    __atomic_fetch_or(&L->flags[node], bits, __ATOMIC_RELAXED);
}

static void mark_node(MarkWorker *w, uint64_t node) {
    RuleLoop *L = &w->L;
    Position *pos = L->pos;
    egtb_decode(L->lay, node % L->n, node < L->n ? RED : BLACK, pos);
    bool in_check = pos_in_check(pos);
    /* The threats are the position's, the same for each move: found once,
     * before the moves, and a position not in check with none has no
     * escaping move, so nothing to generate. */
    MoveList threats = {.count = 0};
    if (!in_check) {
        egtb_rule_threats(pos, &threats);
        if (threats.count == 0) return;
    }
    /* egtb_rule_view's quiet moves, each child found once (both indices) */
    EgtbReindex r;
    egtb_reindex_set(L->lay, pos, &r);
    MoveList all;
    gen_legal(pos, &all);
    uint64_t base = node < L->n ? L->n : 0;
    bool marked = false;
    for (int k = 0; k < all.count; k++) {
        Move m = all.moves[k];
        if (pos->board[move_to(m)] != NO_PIECE) continue; /* captures were settled before the loop */
        uint64_t idx[2];
        int count = egtb_reindex_move_both(L->lay, &r, pos->board[move_from(m)], move_from(m), move_to(m), idx);
        bool open_child = false;
        for (int j = 0; j < count; j++)
            open_child |= is_open(L, base + idx[j]);
        /* the escape test, the dear one, only where it can mark */
        if (!open_child || (!in_check && !egtb_rule_marking_escape_from(pos, m, &threats))) continue;
        for (int j = 0; j < count; j++) {
            uint64_t child = base + idx[j];
            if (!is_open(L, child)) continue;
            mark_or(L, child, in_check ? CHECKER | CHECK_LOSE : CHASER | CHASE_LOSE);
            marked = true;
        }
    }
    if (marked) mark_or(L, node, in_check ? IN_CHECK | CHECK_WIN : IN_CHASE | CHASE_WIN);
    w->any |= marked;
}

static void *mark_run(void *arg) {
    MarkWorker *w = arg;
    RuleLoop *L = &w->L;
    for (;;) {
        uint64_t begin = __atomic_fetch_add(w->next_index, (uint64_t)MARK_CHUNK, __ATOMIC_RELAXED);
        if (begin >= L->n) break;
        uint64_t end = begin + MARK_CHUNK < L->n ? begin + MARK_CHUNK : L->n;
        for (uint64_t i = begin; i < end; i++)
            for (int c = 0; c < COLOR_NB; c++) {
                uint64_t node = (uint64_t)c * L->n + i;
                if (is_open(L, node)) mark_node(w, node);
            }
    }
    return NULL;
}

/* Returns whether anything was marked (false also when out of memory for
 * a worker, which then fails the loop). */
static bool first_marking(RuleLoop *L, int threads) {
    if (threads < 1) threads = 1;
    if (threads > MARK_THREADS_MAX) threads = MARK_THREADS_MAX;
    MarkWorker w[MARK_THREADS_MAX];
    pthread_t tid[MARK_THREADS_MAX];
    bool started[MARK_THREADS_MAX] = {false};
    uint64_t next_index = 0;
    int made = 0;
    for (; made < threads; made++) {
        w[made] = (MarkWorker){.L = *L, .next_index = &next_index};
        w[made].L.pos = made == 0 ? L->pos : malloc(sizeof *L->pos);
        if (!w[made].L.pos) break;
    }
    if (made < threads) {
        egtb_rule_fail(L, "out of memory for the marking's workers", 0);
        threads = made;
    }
    for (int i = 1; i < threads && !L->failed; i++)
        started[i] = pthread_create(&tid[i], NULL, mark_run, &w[i]) == 0;
    if (!L->failed) mark_run(&w[0]); /* also does the work of workers that did not start */
    bool any = false;
    for (int i = 0; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        any |= w[i].any;
        if (i > 0) free(w[i].L.pos);
    }
    return any && !L->failed;
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

uint64_t egtb_rule_cache_bytes = EGTB_RULE_CACHE_BYTES;

/* Keep the children of the listed nodes (Red's, then Black's, in list
 * order) while they fit in egtb_rule_cache_bytes: each costs one decode
 * here instead of one in every pass. The children are those of
 * egtb_rule_view, in its order, so a pass reads what it would have
 * decoded. Not done when a node does not fit in 32 bits; a failed
 * allocation only leaves the nodes to be decoded. */
static void cache_children(RuleLoop *L) {
    if (2 * L->n > UINT32_MAX) return;
    uint64_t room = egtb_rule_cache_bytes / sizeof(uint32_t), used = 0, cap = 0, offsets = 0;
    View v;
    for (int c = 0; c < COLOR_NB; c++) {
        /* one offset per node and one past the last */
        if (room < L->nlisted[c] + 1) break;
        L->kid_start[c] = malloc(sizeof(uint32_t) * (L->nlisted[c] + 1));
        if (!L->kid_start[c]) break;
        room -= L->nlisted[c] + 1;
        offsets += L->nlisted[c] + 1;
        uint64_t k = 0;
        L->kid_start[c][0] = (uint32_t)used;
        for (; k < L->nlisted[c]; k++) {
            egtb_rule_decode(L, L->listed[c][k], &v);
            uint64_t need = (uint64_t)v.quiets.count;
            if (need > room || used + need > UINT32_MAX) break;
            if (used + need > cap) {
                uint64_t grown_cap = cap ? 2 * cap : (uint64_t)1 << 20;
                while (grown_cap < used + need)
                    grown_cap *= 2;
                uint32_t *grown = realloc(L->kids, sizeof(uint32_t) * grown_cap);
                if (!grown) break;
                L->kids = grown;
                cap = grown_cap;
            }
            for (int i = 0; i < v.quiets.count; i++)
                L->kids[used + (uint64_t)i] = (uint32_t)v.child[i];
            used += need;
            room -= need;
            L->kid_start[c][k + 1] = (uint32_t)used;
        }
        L->ncached[c] = k;
        L->stats->cached += k;
        if (k < L->nlisted[c]) break;
    }
    /* give back the doubling's slack */
    if (used && used < cap) {
        uint32_t *fit = realloc(L->kids, sizeof(uint32_t) * used);
        if (fit) L->kids = fit;
    }
    L->stats->cache_bytes = sizeof(uint32_t) * (used + offsets);
}

static void run(RuleLoop *L, int threads) {
    for (uint64_t node = 0; node < 2 * L->n; node++)
        if (is_open(L, node) && (L->pending[node] & EGTB_PENDING_CAPDRAW)) L->flags[node] = CAP_DRAW;
    if (!first_marking(L, threads)) return;

    if (!list_marked(L)) {
        egtb_rule_fail(L, "out of memory", 0);
        return;
    }
    cache_children(L);
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

bool egtb_rule_loop(EgtbTable *t, uint8_t *pending, int threads, EgtbRuleLoopStats *stats, char *err, size_t errlen) {
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
        run(&L, threads);
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
    for (int c = 0; c < COLOR_NB; c++) {
        free(L.listed[c]);
        free(L.kid_start[c]);
    }
    free(L.kids);
    stats->seconds = now_s() - t0;
    return ok;
}
