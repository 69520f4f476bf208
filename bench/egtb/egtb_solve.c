// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_solve.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

enum { THREADS_MAX = 64 };

/* One worker's share of step 1: nodes [begin, end) in node order. */
typedef struct {
    EgtbTable *t;
    EgtbSet *subs;
    uint64_t begin, end;
    uint16_t *deg;     /* quiet children kept per node */
    uint8_t *capdraw;  /* a capture leads to a draw */
    uint32_t *edges;   /* this worker's children, in node order */
    uint64_t nedges, cap;
    bool failed;
    char err[256];
} Worker;

static bool push_edge(Worker *w, uint32_t child) {
    if (w->nedges == w->cap) {
        uint64_t cap = w->cap ? 2 * w->cap : 1 << 16;
        uint32_t *p = realloc(w->edges, cap * sizeof *p);
        if (!p) return false;
        w->edges = p;
        w->cap = cap;
    }
    w->edges[w->nedges++] = child;
    return true;
}

/* Step 1 and 2 for one node; its value goes to t->val directly. */
static bool expand_node(Worker *w, Position *pos, uint64_t node) {
    EgtbTable *t = w->t;
    uint64_t n = t->lay.positions;
    Color side = (Color)(node / n);
    uint64_t idx = node % n;
    uint16_t *val = &t->val[side][idx];
    if (!egtb_decode(&t->lay, idx, side, pos) || !egtb_decoded_legal(pos)) {
        *val = EGTB_ILLEGAL;
        return true;
    }
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) {
        *val = 1;
        return true;
    }
    bool quiet_seen = false;
    uint64_t first_edge = w->nedges;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        bool capture = pos->board[move_to(m)] != NO_PIECE;
        pos_make_move(pos, m);
        if (capture) {
            uint16_t cv;
            if (!egtb_probe(w->subs, pos, &cv, w->err, sizeof w->err)) {
                pos_unmake_move(pos);
                return false;
            }
            if (egtb_is_loss(cv)) {
                pos_unmake_move(pos);
                *val = 2;
                w->nedges = first_edge; /* a won node needs no edges */
                w->deg[node - w->begin] = 0;
                return true;
            }
            if (egtb_is_draw(cv)) w->capdraw[node - w->begin] = 1;
        } else {
            Color cs;
            uint64_t cidx = egtb_index_of(&t->lay, pos, &cs);
            if (!push_edge(w, (uint32_t)(cs * n + cidx))) {
                pos_unmake_move(pos);
                snprintf(w->err, sizeof w->err, "out of memory for edges");
                return false;
            }
            quiet_seen = true;
        }
        pos_unmake_move(pos);
    }
    w->deg[node - w->begin] = (uint16_t)(w->nedges - first_edge);
    if (!quiet_seen) *val = w->capdraw[node - w->begin] ? 0 : 1;
    return true;
}

static void *worker_run(void *arg) {
    Worker *w = arg;
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        w->failed = true;
        snprintf(w->err, sizeof w->err, "out of memory");
        return NULL;
    }
    for (uint64_t node = w->begin; node < w->end && !w->failed; node++)
        if (!expand_node(w, pos, node)) w->failed = true;
    free(pos);
    return NULL;
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
            for (int i = 0; i < n; i++) dup |= !memcmp(&out[i], &sub, sizeof sub);
            if (!dup) out[n++] = sub;
        }
    return n;
}

/* Step 3: reverse the edges and spread the values breadth first. */
static bool propagate(EgtbTable *t, const uint16_t *deg_all, const uint8_t *capdraw_all, const uint32_t *fwd,
                      uint64_t nodes, char *err, size_t errlen) {
    uint64_t n = t->lay.positions;
    uint64_t *start = calloc(nodes + 1, sizeof *start); /* predecessor lists */
    uint16_t *left = malloc(nodes * sizeof *left);      /* quiet children not yet known to win */
    uint16_t *worst = calloc(nodes, sizeof *worst);     /* largest child win value seen */
    uint32_t *queue = malloc(nodes * sizeof *queue);
    uint64_t edges = 0;
    for (uint64_t v = 0; v < nodes; v++) edges += deg_all[v];
    uint32_t *pred = malloc((edges ? edges : 1) * sizeof *pred);
    if (!start || !left || !worst || !queue || !pred) {
        free(start);
        free(left);
        free(worst);
        free(queue);
        free(pred);
        snprintf(err, errlen, "out of memory for %llu edges", (unsigned long long)edges);
        return false;
    }
    for (uint64_t e = 0; e < edges; e++) start[fwd[e] + 1]++;
    for (uint64_t v = 0; v < nodes; v++) start[v + 1] += start[v];
    uint64_t *fill = malloc(nodes * sizeof *fill);
    if (!fill) {
        free(start);
        free(left);
        free(worst);
        free(queue);
        free(pred);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(fill, start, nodes * sizeof *fill);
    uint64_t e = 0;
    for (uint64_t v = 0; v < nodes; v++)
        for (int k = 0; k < deg_all[v]; k++) pred[fill[fwd[e++]]++] = (uint32_t)v;
    free(fill);

#define VAL(v) t->val[(v) / n][(v) % n]
    uint64_t head = 0, tail = 0;
    for (uint64_t v = 0; v < nodes; v++) { /* seeds sorted: losses 1, then wins 2 */
        left[v] = deg_all[v];
        if (VAL(v) == 1) queue[tail++] = (uint32_t)v;
    }
    for (uint64_t v = 0; v < nodes; v++)
        if (VAL(v) == 2) queue[tail++] = (uint32_t)v;
    while (head < tail) {
        uint32_t c = queue[head++];
        uint16_t cv = VAL(c);
        for (uint64_t k = start[c]; k < start[c + 1]; k++) {
            uint32_t p = pred[k];
            if (VAL(p) != 0) continue;
            if (cv & 1) {
                VAL(p) = (uint16_t)(cv + 1);
                queue[tail++] = p;
            } else {
                if (cv > worst[p]) worst[p] = cv;
                if (--left[p] == 0 && !capdraw_all[p]) {
                    VAL(p) = (uint16_t)(worst[p] + 1);
                    queue[tail++] = p;
                }
            }
        }
    }
#undef VAL
    free(start);
    free(left);
    free(worst);
    free(queue);
    free(pred);
    return true;
}

bool egtb_solve(EgtbTable *t, EgtbSet *subs, int threads, EgtbSolveStats *stats, char *err, size_t errlen) {
    uint64_t n = t->lay.positions, nodes = 2 * n;
    if (nodes >= UINT32_MAX) {
        snprintf(err, errlen, "%s: %llu positions, more than this solver indexes", t->name, (unsigned long long)n);
        return false;
    }
    /* Every smaller table must be loaded before the workers share subs. */
    EgtbMaterial need[2 * TYPE_NB];
    int nneed = egtb_solve_needs(&t->lay.mat, need);
    for (int i = 0; i < nneed; i++)
        if (!egtb_set_get(subs, &need[i], err, errlen)) return false;

    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    uint16_t *deg = calloc(nodes, sizeof *deg);
    uint8_t *capdraw = calloc(nodes, 1);
    Worker *w = calloc((size_t)threads, sizeof *w);
    if (!deg || !capdraw || !w) {
        free(deg);
        free(capdraw);
        free(w);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    pthread_t tid[THREADS_MAX];
    for (int i = 0; i < threads; i++) {
        w[i] = (Worker){.t = t, .subs = subs, .begin = nodes * (uint64_t)i / (uint64_t)threads,
                        .end = nodes * (uint64_t)(i + 1) / (uint64_t)threads};
        w[i].deg = deg + w[i].begin;
        w[i].capdraw = capdraw + w[i].begin;
    }
    int started = 0;
    for (int i = 1; i < threads; i++, started++)
        if (pthread_create(&tid[i], NULL, worker_run, &w[i]) != 0) break;
    worker_run(&w[0]);
    for (int i = 1; i <= started; i++) pthread_join(tid[i], NULL);
    for (int i = started + 1; i < threads; i++) worker_run(&w[i]); /* threads that did not start */

    bool ok = true;
    uint64_t edges = 0;
    for (int i = 0; i < threads; i++) {
        if (w[i].failed && ok) {
            snprintf(err, errlen, "%s: %s", t->name, w[i].err);
            ok = false;
        }
        edges += w[i].nedges;
    }
    uint32_t *fwd = ok ? malloc((edges ? edges : 1) * sizeof *fwd) : NULL;
    if (ok && !fwd) {
        snprintf(err, errlen, "out of memory for %llu edges", (unsigned long long)edges);
        ok = false;
    }
    uint64_t at = 0;
    for (int i = 0; ok && i < threads; i++) {
        memcpy(fwd + at, w[i].edges, w[i].nedges * sizeof *fwd);
        at += w[i].nedges;
    }
    for (int i = 0; i < threads; i++) free(w[i].edges);
    free(w);
    if (ok) ok = propagate(t, deg, capdraw, fwd, nodes, err, errlen);
    free(fwd);
    free(deg);
    free(capdraw);
    if (!ok) return false;

    memset(stats, 0, sizeof *stats);
    stats->edges = edges;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < n; i++) {
            uint16_t v = t->val[c][i];
            if (v == EGTB_ILLEGAL) stats->illegal[c]++;
            else if (v == 0) stats->draw[c]++;
            else if (v & 1) stats->loss[c]++;
            else stats->win[c]++;
            if (v != EGTB_ILLEGAL && v > stats->longest[c]) {
                stats->longest[c] = v;
                stats->longest_index[c] = i;
            }
        }
    return true;
}
