// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_verify.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "egtb_solve.h"
#include "fen.h"
#include "movegen.h"

/* FAULTS_SHOWN: faults printed per table; THREADS_MAX, CHUNK: as the
 * solver's (egtb_solve.c). */
enum { FAULTS_SHOWN = 5, THREADS_MAX = 64, CHUNK = 1 << 12 };

bool egtb_child_value(EgtbSet *set, Position *pos, Move m, uint16_t *value, char *err, size_t errlen) {
    bool capture = pos->board[move_to(m)] != NO_PIECE;
    pos_make_move(pos, m);
    bool ok = egtb_probe(set, pos, value, err, errlen);
    pos_unmake_move(pos);
    if (ok && capture && *value != 0) *value = egtb_is_loss(*value) ? 1 : 0x8000; /* conversion */
    return ok;
}

/* The child value as the checks read it: a capture into a won position
 * (0x8000 above) is a win worth 0. */
static bool child_is_win(uint16_t v) { return v == 0x8000 || egtb_is_win(v); }
static uint16_t child_win_value(uint16_t v) { return v == 0x8000 ? 0 : v; }

/* What is wrong with value v of a legal position (NULL if nothing). */
static const char *check_node(EgtbSet *set, Position *pos, uint16_t v, char *err, size_t errlen, bool *failed) {
    MoveList list;
    gen_legal(pos, &list);
    if (v == EGTB_ILLEGAL) return "legal position marked illegal";
    if (list.count == 0) return v == 1 ? NULL : "no legal move but not loss 1";
    uint16_t min_loss = UINT16_MAX, max_win = 0;
    bool any_draw = false, all_win = true;
    for (int i = 0; i < list.count; i++) {
        uint16_t cv;
        if (!egtb_child_value(set, pos, list.moves[i], &cv, err, errlen)) {
            *failed = true;
            return NULL;
        }
        if (cv == EGTB_ILLEGAL) return "a legal move reaches a position marked illegal";
        if (egtb_is_loss(cv) && cv < min_loss) min_loss = cv;
        if (cv == 0) any_draw = true;
        if (child_is_win(cv)) {
            if (child_win_value(cv) > max_win) max_win = child_win_value(cv);
        } else {
            all_win = false;
        }
    }
    if (egtb_is_win(v))
        return min_loss == v - 1 ? NULL : "win without a move to a loss one step shorter, or with a shorter one";
    if (egtb_is_loss(v)) {
        if (!all_win) return "loss with a move that does not lose";
        return max_win == v - 1 ? NULL : "loss whose longest resistance is not one step shorter";
    }
    if (min_loss != UINT16_MAX) return "draw with a move to a position lost for the opponent";
    return any_draw ? NULL : "draw without a drawing move";
}

/* One worker's share: positions claimed CHUNK at a time from a shared
 * counter over both sides' indices. */
typedef struct {
    EgtbSet *set;
    const EgtbTable *t;
    FILE *out;
    atomic_uint_fast64_t next;
    atomic_int_fast64_t faults;
    pthread_mutex_t print;
} Shared;

typedef struct {
    Shared *sh;
    bool failed;
    char err[256];
} Worker;

static void *verify_run(void *arg) {
    Worker *w = arg;
    Shared *sh = w->sh;
    const EgtbTable *t = sh->t;
    uint64_t n = t->lay.positions;
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        snprintf(w->err, sizeof w->err, "out of memory");
        w->failed = true;
        return NULL;
    }
    for (;;) {
        uint64_t begin = atomic_fetch_add(&sh->next, CHUNK);
        if (begin >= 2 * n || w->failed) break;
        uint64_t end = begin + CHUNK < 2 * n ? begin + CHUNK : 2 * n;
        for (uint64_t node = begin; node < end && !w->failed; node++) {
            Color c = node < n ? RED : BLACK;
            uint64_t i = node % n;
            uint16_t v = t->val[c][i];
            const char *why;
            if (!egtb_decode(&t->lay, i, c, pos) || !egtb_decoded_legal(pos))
                why = v == EGTB_ILLEGAL ? NULL : "illegal position with a value";
            else
                why = check_node(sh->set, pos, v, w->err, sizeof w->err, &w->failed);
            if (!why || w->failed) continue;
            if (atomic_fetch_add(&sh->faults, 1) < FAULTS_SHOWN) {
                char fen[FEN_MAX];
                pthread_mutex_lock(&sh->print);
                fprintf(sh->out, "%s: index %llu %s to move, value %u: %s (%s)\n", t->name, (unsigned long long)i,
                        c == RED ? "red" : "black", v, why, fen_write(pos, fen));
                pthread_mutex_unlock(&sh->print);
            }
        }
    }
    free(pos);
    return NULL;
}

int64_t egtb_verify(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen) {
    /* The smaller tables load now: the workers then only read the set. */
    EgtbMaterial need[2 * TYPE_NB];
    int nneed = egtb_solve_needs(&t->lay.mat, need);
    for (int i = 0; i < nneed; i++)
        if (!egtb_set_get(set, &need[i], err, errlen)) return -1;
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    Shared sh = {.set = set, .t = t, .out = out};
    atomic_init(&sh.next, 0);
    atomic_init(&sh.faults, 0);
    pthread_mutex_init(&sh.print, NULL);
    Worker w[THREADS_MAX];
    pthread_t tid[THREADS_MAX];
    bool started[THREADS_MAX] = {false};
    for (int i = 0; i < threads; i++)
        w[i] = (Worker){.sh = &sh};
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, verify_run, &w[i]) == 0;
    verify_run(&w[0]);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    for (int i = 1; i < threads; i++)
        if (!started[i]) verify_run(&w[i]);
    pthread_mutex_destroy(&sh.print);
    for (int i = 0; i < threads; i++)
        if (w[i].failed) {
            snprintf(err, errlen, "%s", w[i].err);
            return -1;
        }
    return (int64_t)atomic_load(&sh.faults);
}
