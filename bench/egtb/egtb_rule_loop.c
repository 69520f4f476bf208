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
/* The first marking's workers claim MARK_CHUNK indices at a time, and
 * those keeping the children CACHE_CHUNK listed nodes (small enough to
 * balance them, large enough that the shared counter is cold); at most
 * LOOP_THREADS_MAX workers. */
enum { MARK_CHUNK = 1 << 12, CACHE_CHUNK = 1 << 12, LOOP_THREADS_MAX = 64 };

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
    const uint32_t *chunk = L->chunk_kids[c] ? L->chunk_kids[c][k / CACHE_CHUNK] : NULL;
    if (!chunk) {
        egtb_rule_decode(L, node, v);
        return;
    }
    const uint32_t *kids = chunk + L->kid_off[c][k];
    int count = L->kid_count[c][k];
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
    uint64_t *next_index; /* shared: the first index (chunk) not yet claimed */
    void *job;            /* shared: what else the work needs */
    bool any;             /* the marking: the worker marked something */
} Worker;

static void mark_or(RuleLoop *L, uint64_t node, uint16_t bits) {
    __atomic_fetch_or(&L->flags[node], bits, __ATOMIC_RELAXED);
}

static void mark_node(Worker *w, uint64_t node) {
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
    Worker *w = arg;
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

/* Run fn on `threads` workers, each a copy of L with its own position,
 * threads - 1 of them on new threads (the calling thread is the first,
 * and does the work of any that did not start: they claim work from one
 * counter); w gets the workers for their results. false (the loop failed)
 * when out of memory for a worker. */
static bool on_threads(RuleLoop *L, int threads, void *(*fn)(void *), void *job, Worker *w) {
    if (threads < 1) threads = 1;
    if (threads > LOOP_THREADS_MAX) threads = LOOP_THREADS_MAX;
    pthread_t tid[LOOP_THREADS_MAX];
    bool started[LOOP_THREADS_MAX] = {false};
    uint64_t next_index = 0;
    int made = 0;
    for (; made < threads; made++) {
        w[made] = (Worker){.L = *L, .next_index = &next_index, .job = job};
        w[made].L.pos = made == 0 ? L->pos : malloc(sizeof *L->pos);
        if (!w[made].L.pos) break;
    }
    bool ok = made == threads;
    if (ok) {
        for (int i = 1; i < threads; i++)
            started[i] = pthread_create(&tid[i], NULL, fn, &w[i]) == 0;
        fn(&w[0]);
    } else {
        egtb_rule_fail(L, "out of memory for the loop's workers", 0);
    }
    for (int i = 1; i < made; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        free(w[i].L.pos);
    }
    for (int i = made; i < LOOP_THREADS_MAX; i++)
        w[i] = (Worker){.any = false};
    return ok;
}

/* Returns whether anything was marked (false too when the loop failed). */
static bool first_marking(RuleLoop *L, int threads) {
    Worker w[LOOP_THREADS_MAX];
    if (!on_threads(L, threads, mark_run, NULL, w)) return false;
    bool any = false;
    for (int i = 0; i < LOOP_THREADS_MAX; i++)
        any |= w[i].any;
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

uint64_t egtb_rule_cache_bytes = EGTB_RULE_CACHE_BYTES;

static void free_children(RuleLoop *L) {
    for (int c = 0; c < COLOR_NB; c++) {
        if (L->chunk_kids[c]) {
            uint64_t chunks = (L->nlisted[c] + CACHE_CHUNK - 1) / CACHE_CHUNK;
            for (uint64_t j = 0; j < chunks; j++)
                free(L->chunk_kids[c][j]);
        }
        free(L->chunk_kids[c]);
        free(L->kid_off[c]);
        free(L->kid_count[c]);
        L->chunk_kids[c] = NULL;
        L->kid_off[c] = NULL;
        L->kid_count[c] = NULL;
    }
}

/* Keep the children of the listed nodes while they fit in
 * egtb_rule_cache_bytes: each costs one decode here instead of one in
 * every pass. The children are those of egtb_rule_view, in its order, so
 * a pass reads what it would have decoded. Workers on the build's threads
 * take CACHE_CHUNK listed nodes at a time (Red's chunks, then Black's),
 * each chunk in a buffer of its own; a chunk that would pass the budget is
 * dropped and no later one started, so which nodes are kept may depend on
 * the threads, the tables never do. Not done when a node does not fit in
 * 32 bits; a failed allocation only leaves nodes to be decoded. */
typedef struct {
    uint64_t chunks[COLOR_NB]; /* chunks per colour */
    uint64_t budget;           /* bytes left for the children */
    uint64_t used;             /* bytes the chunks took (atomic) */
    bool full;                 /* a chunk did not fit: start no more (atomic) */
    uint64_t cached;           /* nodes kept (atomic) */
} CacheJob;

static void cache_chunk(Worker *w, int c, uint64_t j) {
    RuleLoop *L = &w->L;
    CacheJob *job = w->job;
    uint64_t first = j * CACHE_CHUNK, last = first + CACHE_CHUNK < L->nlisted[c] ? first + CACHE_CHUNK : L->nlisted[c];
    uint64_t cap = (last - first) * 16, used = 0;
    uint32_t *buf = malloc(sizeof(uint32_t) * cap);
    View v;
    for (uint64_t k = first; buf && k < last; k++) {
        egtb_rule_decode(L, L->listed[c][k], &v);
        if (v.quiets.count > UINT8_MAX) { /* no count byte for it: the chunk is decoded each pass */
            free(buf);
            buf = NULL;
            break;
        }
        if (used + (uint64_t)v.quiets.count > cap) {
            cap = 2 * cap + (uint64_t)v.quiets.count;
            uint32_t *grown = realloc(buf, sizeof(uint32_t) * cap);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        L->kid_off[c][k] = (uint32_t)used;
        L->kid_count[c][k] = (uint8_t)v.quiets.count;
        for (int i = 0; i < v.quiets.count; i++)
            buf[used++] = (uint32_t)v.child[i];
    }
    if (!buf) return;
    uint64_t bytes = sizeof(uint32_t) * (used ? used : 1);
    if (__atomic_add_fetch(&job->used, bytes, __ATOMIC_RELAXED) > job->budget) {
        __atomic_store_n(&job->full, true, __ATOMIC_RELAXED);
        __atomic_sub_fetch(&job->used, bytes, __ATOMIC_RELAXED);
        free(buf);
        return;
    }
    uint32_t *fit = realloc(buf, bytes); /* give back the growth's slack */
    L->chunk_kids[c][j] = fit ? fit : buf;
    __atomic_add_fetch(&job->cached, last - first, __ATOMIC_RELAXED);
}

static void *cache_run(void *arg) {
    Worker *w = arg;
    CacheJob *job = w->job;
    uint64_t total = job->chunks[RED] + job->chunks[BLACK];
    for (;;) {
        uint64_t g = __atomic_fetch_add(w->next_index, 1, __ATOMIC_RELAXED);
        if (g >= total || __atomic_load_n(&job->full, __ATOMIC_RELAXED)) break;
        if (g < job->chunks[RED])
            cache_chunk(w, RED, g);
        else
            cache_chunk(w, BLACK, g - job->chunks[RED]);
    }
    return NULL;
}

static void cache_children(RuleLoop *L, int threads) {
    if (2 * L->n > UINT32_MAX) return;
    CacheJob job = {.budget = egtb_rule_cache_bytes};
    /* per node an offset and a count, per chunk a pointer */
    uint64_t fixed = 0;
    for (int c = 0; c < COLOR_NB; c++) {
        job.chunks[c] = (L->nlisted[c] + CACHE_CHUNK - 1) / CACHE_CHUNK;
        fixed += L->nlisted[c] * (sizeof(uint32_t) + sizeof(uint8_t)) + job.chunks[c] * sizeof(uint32_t *);
    }
    if (fixed >= job.budget) return;
    job.budget -= fixed;
    for (int c = 0; c < COLOR_NB; c++) {
        L->kid_off[c] = malloc(sizeof(uint32_t) * (L->nlisted[c] ? L->nlisted[c] : 1));
        L->kid_count[c] = malloc(L->nlisted[c] ? L->nlisted[c] : 1);
        L->chunk_kids[c] = calloc(job.chunks[c] ? job.chunks[c] : 1, sizeof(uint32_t *));
        if (!L->kid_off[c] || !L->kid_count[c] || !L->chunk_kids[c]) {
            free_children(L);
            return;
        }
    }
    Worker w[LOOP_THREADS_MAX];
    on_threads(L, threads, cache_run, &job, w);
    L->stats->cached = job.cached;
    L->stats->cache_bytes = fixed + job.used;
}

static void run(RuleLoop *L, int threads) {
    for (uint64_t node = 0; node < 2 * L->n; node++)
        if (is_open(L, node) && (L->pending[node] & EGTB_PENDING_CAPDRAW)) L->flags[node] = CAP_DRAW;
    if (!first_marking(L, threads)) return;

    if (!list_marked(L)) {
        egtb_rule_fail(L, "out of memory", 0);
        return;
    }
    cache_children(L, threads);
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
    free_children(&L);
    for (int c = 0; c < COLOR_NB; c++)
        free(L.listed[c]);
    stats->seconds = now_s() - t0;
    return ok;
}
