// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_solve.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "egtb_capture.h"
#include "egtb_reindex.h"
#include "egtb_unmove.h"
#include "movegen.h"

/* THREADS_MAX: the most workers; CHUNK: nodes a worker claims at a time
 * (small enough to balance two threads, large enough that the shared
 * counter is touched rarely). */
enum { THREADS_MAX = 64, CHUNK = 1 << 12 };

/* pending[node] while solving: bits 0-6 count the quiet moves whose child
 * is not yet known to be won for the opponent; bit 7 says a capture draws
 * (then the node cannot lose). One byte per node: with at most two
 * attacking pieces a side has far fewer than 128 quiet moves, and more is
 * refused rather than miscounted. */
enum { PENDING_CAPDRAW = EGTB_PENDING_CAPDRAW, PENDING_COUNT = EGTB_PENDING_COUNT };

/* DTM mode: a node still open may carry its capture score c (the best a
 * capture gives it, docs/egtb.md "DTM in Tuong") as OPEN | c; OPEN lies
 * above any DTM (EGTB_DTM_MAX) and EGTB_ILLEGAL, which has the bit too, is
 * never open. In DTC mode open nodes are 0 and the test is the same. */
enum { OPEN = 0x8000, OPEN_SCORE = 0x7FF };
static inline bool is_open(uint16_t x) { return x == 0 || (x != EGTB_ILLEGAL && (x & OPEN)); }

typedef struct {
    EgtbTable *t;
    uint16_t *val[COLOR_NB]; /* what is solved: t->val (DTC) or t->dtm */
    bool dtm;
    EgtbCaptures caps; /* the smaller tables of its captures */
    uint8_t *pending;
    uint64_t nodes;            /* 2 * positions: Red to move, then Black */
    atomic_uint_fast64_t next; /* the next chunk to claim */
    uint16_t level;            /* step 3: the value being spread */
} Shared;

typedef struct {
    Shared *sh;
    Position *pos;             /* steps 1-2: the node being expanded */
    EgtbParentScratch scratch; /* step 3 */
    MoveList list;
    uint64_t found; /* step 3: nodes of value `level` spread */
    unsigned maxc;  /* DTM: the largest capture score seen in step 1 */
    bool failed;
    char err[256];
} Worker;

/* The values are read and written by both workers in step 3: relaxed
 * atomics (every writer of a node in one level writes the same value). */
static inline uint16_t *val_at(const Shared *sh, uint64_t node) {
    uint64_t n = sh->t->lay.positions;
    return node < n ? &sh->val[RED][node] : &sh->val[BLACK][node - n];
}
static inline uint16_t val_load(const Shared *sh, uint64_t node) {
    return __atomic_load_n(val_at(sh, node), __ATOMIC_RELAXED);
}
static inline void val_store(const Shared *sh, uint64_t node, uint16_t v) {
    __atomic_store_n(val_at(sh, node), v, __ATOMIC_RELAXED);
}

/* DTM step 1 after the moves: a capture into a child of DTM w for the
 * opponent scores w + 1; cwin is the least over lost children, closs the
 * largest over won ones (0: none). No quiet move settles the node now;
 * otherwise it stays open with its capture score. A winning capture also
 * sets the capture-draw bit: the node cannot lose, so its count never
 * makes it a loss. */
static void expand_dtm(Worker *w, uint64_t node, int quiet, bool capdraw, unsigned cwin, unsigned closs) {
    Shared *sh = w->sh;
    unsigned c = cwin ? cwin : closs;
    if (c > w->maxc) w->maxc = c;
    sh->pending[node] = (uint8_t)(quiet | (capdraw || cwin ? PENDING_CAPDRAW : 0));
    uint16_t *val = val_at(sh, node);
    if (quiet == 0)
        *val = (uint16_t)(cwin ? cwin : capdraw ? 0 : closs);
    else
        *val = (uint16_t)(c ? (OPEN | c) : 0);
}

/* Steps 1 and 2 for one node: its moves, its captures scored from the
 * smaller tables, its quiet moves counted. */
static bool expand(Worker *w, uint64_t node) {
    Shared *sh = w->sh;
    EgtbTable *t = sh->t;
    uint64_t n = t->lay.positions;
    Color side = node < n ? RED : BLACK;
    uint16_t *val = val_at(sh, node);
    Position *pos = w->pos;
    if (!egtb_reindex_place(&t->lay, node % n, side, pos) || !egtb_decoded_legal(pos)) {
        *val = EGTB_ILLEGAL;
        return true;
    }
    /* The move generator reads the check state; the key stays 0 (no
     * move is made on pos, egtb_capture_value works on the boards). */
    pos->history[0].in_check = pos_compute_in_check(pos);
    gen_legal(pos, &w->list);
    if (w->list.count == 0) {
        *val = 1;
        return true;
    }
    int quiet = 0;
    bool capdraw = false;
    unsigned cwin = 0, closs = 0;
    for (int i = 0; i < w->list.count; i++) {
        Move m = w->list.moves[i];
        if (pos->board[move_to(m)] == NO_PIECE) {
            quiet++;
            continue;
        }
        uint16_t cv = egtb_capture_value(&sh->caps, pos, m);
        if (sh->dtm) {
            if (egtb_is_loss(cv) && (!cwin || cv + 1u < cwin)) cwin = cv + 1u;
            if (egtb_is_win(cv) && cv + 1u > closs) closs = cv + 1u;
        } else if (egtb_is_loss(cv)) { /* DTC: a winning capture converts now */
            *val = 2;
            return true;
        }
        capdraw |= egtb_is_draw(cv);
    }
    if (quiet > PENDING_COUNT) {
        snprintf(w->err, sizeof w->err, "%d quiet moves in one position, more than the solver counts", quiet);
        return false;
    }
    if (sh->dtm) {
        expand_dtm(w, node, quiet, capdraw, cwin, closs);
        return true;
    }
    sh->pending[node] = (uint8_t)(quiet | (capdraw ? PENDING_CAPDRAW : 0));
    if (quiet == 0) *val = capdraw ? 0 : 1;
    return true;
}

/* A parent p of a child of value v (v = sh->level) learns of it: a loss
 * makes p a win v + 1; a win uses up one of p's quiet moves, and the last
 * one makes p a loss v + 1 (the largest child, since levels rise) unless a
 * capture draws. Open nodes only (value 0 and not settled as a draw: such
 * a draw has no quiet move, so it is nobody's parent here). An un-move
 * whose position before is illegal finds EGTB_ILLEGAL there and stops:
 * step 1 has judged every position's legality once, so the un-moves need
 * not. */
static void tell_parent(const Shared *sh, uint64_t p) {
    uint16_t v = sh->level, cur = val_load(sh, p);
    if (!is_open(cur)) return;
    /* DTM: a capture win c a parent may hold is at least v + 1 here, or it
     * would have been settled at level c. */
    if (v & 1) {
        val_store(sh, p, (uint16_t)(v + 1));
        return;
    }
    uint8_t old = __atomic_fetch_sub(&sh->pending[p], 1, __ATOMIC_RELAXED);
    if ((old & PENDING_COUNT) == 1 && !(old & PENDING_CAPDRAW)) {
        /* DTM: the loser also resists through its longest capture; a loss
         * above v + 1 is spread when the levels reach it. */
        unsigned c = (cur & OPEN) ? (cur & OPEN_SCORE) : 0;
        val_store(sh, p, (uint16_t)(c > v + 1u ? c : v + 1u));
    }
}

static void tell_parent_cb(void *ctx, uint64_t p) { tell_parent(ctx, p); }

/* Step 3 for one node of value `level`: every parent of it (egtb_parents). */
static void spread(Worker *w, uint64_t node) {
    egtb_parents(&w->sh->t->lay, node, &w->scratch, tell_parent_cb, w->sh);
}

/* The next CHUNK nodes no other worker has taken; false when none are left. */
static bool claim_chunk(Shared *sh, uint64_t *begin, uint64_t *end) {
    *begin = atomic_fetch_add(&sh->next, CHUNK);
    if (*begin >= sh->nodes) return false;
    *end = *begin + CHUNK < sh->nodes ? *begin + CHUNK : sh->nodes;
    return true;
}

static void *expand_run(void *arg) {
    Worker *w = arg;
    Shared *sh = w->sh;
    for (;;) {
        uint64_t begin, end;
        if (!claim_chunk(sh, &begin, &end)) break;
        for (uint64_t node = begin; node < end && !w->failed; node++)
            if (!expand(w, node)) w->failed = true;
        if (w->failed) break;
    }
    return NULL;
}

static void *spread_run(void *arg) {
    Worker *w = arg;
    Shared *sh = w->sh;
    for (;;) {
        uint64_t begin, end;
        if (!claim_chunk(sh, &begin, &end)) break;
        for (uint64_t node = begin; node < end; node++) {
            uint16_t x = val_load(sh, node);
            /* DTM: a capture win settles at its own level; only the worker
             * holding the node's chunk writes it, and no parent writes a
             * node with a winning capture at an even level. */
            if (!(sh->level & 1) && x == (OPEN | sh->level)) {
                val_store(sh, node, sh->level);
                x = sh->level;
            }
            if (x == sh->level) {
                spread(w, node);
                w->found++;
            }
        }
    }
    return NULL;
}

/* Run fn on every worker, threads - 1 of them on new threads (those that
 * cannot start run here afterwards). */
static void run_all(Worker *w, int threads, void *(*fn)(void *)) {
    pthread_t tid[THREADS_MAX];
    bool started[THREADS_MAX] = {false};
    atomic_store(&w[0].sh->next, 0);
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, fn, &w[i]) == 0;
    fn(&w[0]);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    for (int i = 1; i < threads; i++)
        if (!started[i]) fn(&w[i]);
}

int egtb_solve_needs(const EgtbMaterial *mat, EgtbMaterial *out) {
    int n = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = ADVISOR; t < TYPE_NB; t++) {
            if (!mat->count[c][t]) continue;
            EgtbMaterial sub = *mat;
            sub.count[c][t]--;
            egtb_sig_normalise(&sub);
            if (!egtb_sig_has_attackers(&sub, RED) && !egtb_sig_has_attackers(&sub, BLACK)) continue;
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup |= !memcmp(&out[i], &sub, sizeof sub);
            if (!dup) out[n++] = sub;
        }
    return n;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void count_values(const Shared *sh, EgtbSolveStats *stats) {
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < sh->t->lay.positions; i++) {
            uint16_t v = sh->val[c][i];
            if (v == EGTB_ILLEGAL)
                stats->illegal[c]++;
            else if (v == 0)
                stats->draw[c]++;
            else if (v & 1)
                stats->loss[c]++;
            else
                stats->win[c]++;
            if (v != EGTB_ILLEGAL && v > stats->longest[c]) {
                stats->longest[c] = v;
                stats->longest_index[c] = i;
            }
        }
}

/* Steps 1 to 3 with the workers and the pending counts allocated. */
static bool solve_with(Worker *w, int threads, EgtbSolveStats *stats, char *err, size_t errlen) {
    Shared *sh = w[0].sh;
    double t0 = now_s();
    run_all(w, threads, expand_run);
    stats->seconds_moves = now_s() - t0;
    for (int i = 0; i < threads; i++)
        if (w[i].failed) {
            snprintf(err, errlen, "%s: %s", sh->t->name, w[i].err);
            return false;
        }
    /* Values rise by one per level, from the seeds (losses 1, wins 2); a
     * level past 2 with no node ends it, in DTM mode once it has also
     * passed every capture score (a capture win or loss waits for its
     * level). */
    unsigned maxc = 0;
    for (int i = 0; i < threads; i++)
        if (w[i].maxc > maxc) maxc = w[i].maxc;
    unsigned top = sh->dtm ? EGTB_DTM_MAX : EGTB_ILLEGAL - 1u;
    for (sh->level = 1;; sh->level++) {
        if (sh->level + 1u > top) {
            snprintf(err, errlen, "%s: values beyond %u", sh->t->name, (unsigned)sh->level);
            return false;
        }
        uint64_t found = 0;
        for (int i = 0; i < threads; i++)
            w[i].found = 0;
        run_all(w, threads, spread_run);
        for (int i = 0; i < threads; i++)
            found += w[i].found;
        if (found == 0 && sh->level >= 2 && sh->level >= maxc) {
            /* What stays open is a draw: 0 already in DTC mode; DTM drops
             * the capture scores. */
            for (uint64_t node = 0; sh->dtm && node < sh->nodes; node++)
                if (is_open(val_load(sh, node))) val_store(sh, node, 0);
            stats->levels = sh->level;
            stats->seconds_levels = now_s() - t0 - stats->seconds_moves;
            /* Step 3 is xiangqitb's plain pass; where both sides attack, its
             * rule loop decides some of what is still open before step 4. */
            if (!sh->dtm && egtb_rule_loop_applies(&sh->t->lay.mat))
                return egtb_rule_loop(sh->t, sh->pending, threads, &stats->rule, err, errlen);
            return true;
        }
    }
}

static bool solve(EgtbTable *t, bool dtm, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err,
                  size_t errlen) {
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    Shared sh = {.t = t, .dtm = dtm, .nodes = 2 * t->lay.positions};
    for (int c = 0; c < COLOR_NB; c++)
        sh.val[c] = dtm ? t->dtm[c] : t->val[c];
    /* Every smaller table is loaded before the workers share them. */
    if (!egtb_captures_init(&sh.caps, subs, &t->lay.mat, dtm, err, errlen)) return false;
    sh.pending = calloc(sh.nodes ? sh.nodes : 1, 1);
    Worker *w = calloc((size_t)threads, sizeof *w);
    bool ok = sh.pending && w;
    for (int i = 0; ok && i < threads; i++) {
        w[i].sh = &sh;
        w[i].pos = malloc(sizeof *w[i].pos);
        w[i].scratch.pos = malloc(sizeof *w[i].scratch.pos);
        w[i].scratch.mirror = malloc(sizeof *w[i].scratch.mirror);
        ok = w[i].pos && w[i].scratch.pos && w[i].scratch.mirror;
    }
    memset(stats, 0, sizeof *stats);
    if (!ok)
        snprintf(err, errlen, "%s: out of memory", t->name);
    else
        ok = solve_with(w, threads, stats, err, errlen);
    for (int i = 0; w && i < threads; i++) {
        free(w[i].pos);
        free(w[i].scratch.pos);
        free(w[i].scratch.mirror);
    }
    free(w);
    free(sh.pending);
    if (ok) count_values(&sh, stats);
    return ok;
}

bool egtb_solve(EgtbTable *t, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err, size_t errlen) {
    return solve(t, false, subs, threads, stats, err, errlen);
}

bool egtb_solve_dtm(EgtbTable *t, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err, size_t errlen) {
    for (int c = 0; c < COLOR_NB; c++) {
        free(t->dtm[c]);
        t->dtm_flagged = false;
        t->dtm[c] = calloc(t->lay.positions ? t->lay.positions : 1, sizeof(uint16_t));
    }
    bool ok = t->dtm[RED] && t->dtm[BLACK] && solve(t, true, subs, threads, stats, err, errlen);
    if (!ok && !(t->dtm[RED] && t->dtm[BLACK])) snprintf(err, errlen, "%s: out of memory for DTM", t->name);
    if (!ok)
        for (int c = 0; c < COLOR_NB; c++) {
            free(t->dtm[c]);
            t->dtm[c] = NULL;
        }
    return ok;
}

bool egtb_dtm_check(const EgtbTable *t, char *err, size_t errlen) {
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t a = t->val[c][i], m = t->dtm[c][i];
            bool same = a == EGTB_ILLEGAL ? m == EGTB_ILLEGAL
                        : a == 0          ? m == 0
                        : t->dtm_flagged  ? m != EGTB_ILLEGAL && (m & EGTB_DTM_VALUE) != 0 &&
                                               egtb_is_win(a) == ((m & EGTB_DTM_WIN) != 0)
                                         : m != EGTB_ILLEGAL && m != 0 && (a & 1) == (m & 1) && m >= a;
            if (!same) {
                snprintf(err, errlen, "%s: %s to move, index %llu: DTC %u against DTM %u", t->name,
                         c == RED ? "red" : "black", (unsigned long long)i, a, m);
                return false;
            }
        }
    return true;
}
