// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_verify.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "egtb_capture.h"
#include "egtb_reindex.h"
#include "fen.h"
#include "movegen.h"

/* FAULTS_SHOWN: faults printed per table; THREADS_MAX, CHUNK: as the
 * solver's (egtb_solve.c). INDEX_CHECK_EVERY: one node in this many also
 * has every quiet child indexed through egtb_index_of, to catch a fault of
 * the re-index, which the solver's un-moves share (a few per cent of the
 * time at 64). */
enum { FAULTS_SHOWN = 5, THREADS_MAX = 64, CHUNK = 1 << 12, INDEX_CHECK_EVERY = 64 };

/* A capture's child as the checks read it: a position the opponent loses
 * is a loss 1 (converted now), one it wins a win 0 (0x8000 here). */
static uint16_t conversion(uint16_t v) { return v == 0 ? 0 : egtb_is_loss(v) ? 1 : 0x8000; }

bool egtb_child_value(EgtbSet *set, Position *pos, Move m, uint16_t *value, char *err, size_t errlen) {
    bool capture = pos->board[move_to(m)] != NO_PIECE;
    pos_make_move(pos, m);
    bool ok = egtb_probe(set, pos, value, err, errlen);
    pos_unmake_move(pos);
    if (ok && capture) *value = conversion(*value);
    return ok;
}

/* The child value as the checks read it: a capture into a won position
 * (0x8000, conversion()) is a win worth 0. */
static bool child_is_win(uint16_t v) { return v == 0x8000 || egtb_is_win(v); }
static uint16_t child_win_value(uint16_t v) { return v == 0x8000 ? 0 : v; }

/* What is wrong with value v, of order k, of a legal position (NULL if
 * nothing); the children's values in cv[0..count-1] and their orders in
 * co[], for the moves of list. A value settled at order k (docs/egtb.md,
 * "Values") was settled from what was known then: a child settled at a
 * later order counts as open (a draw) for it, and levels start again at
 * each order. With every order 0 these are the rules of egtb_verify.h as
 * they stand. */
static const char *check_node(const MoveList *list, const uint16_t *cv, const uint8_t *co, uint16_t v, unsigned k) {
    if (v == EGTB_ILLEGAL) return "legal position marked illegal";
    if (list->count == 0) return v == 1 && k == 0 ? NULL : "no legal move but not loss 1";
    bool draw = v == 0;
    uint16_t min_loss = UINT16_MAX, max_win = 0;
    bool any_draw = false, all_win = true, older_loss = false;
    for (int i = 0; i < list->count; i++) {
        if (cv[i] == EGTB_ILLEGAL) return "a legal move reaches a position marked illegal";
        /* A draw is final: every child as it ends. */
        uint16_t c = !draw && co[i] > k ? 0 : cv[i];
        if (egtb_is_loss(c) && c < min_loss) min_loss = c;
        older_loss |= egtb_is_loss(c) && co[i] < k;
        if (c == 0) any_draw = true;
        if (child_is_win(c)) {
            /* Levels start again at each order: only this order's wins bound a loss. */
            if (co[i] == k && child_win_value(c) > max_win) max_win = child_win_value(c);
        } else {
            all_win = false;
        }
    }
    if (k > 0 && older_loss) return "value of a rule round with a move to a loss settled before it";
    if (egtb_is_win(v))
        return min_loss == v - 1 ? NULL : "win without a move to a loss one step shorter, or with a shorter one";
    if (egtb_is_loss(v) && k > 0 && v == 1)
        /* A rule round's verdict: s can only go on checking (chasing). The
         * comparison with xiangqitb's tables checks these. */
        return min_loss == UINT16_MAX ? NULL : "rule-round loss 1 with a move to a loss";
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
    const EgtbTable *t;
    bool dtm;                /* checking t->dtm: a capture carries its child's DTM */
    uint16_t *const *val;    /* t->val or t->dtm */
    EgtbCaptures caps; /* the smaller tables of t's captures */
    FILE *out;
    atomic_uint_fast64_t next;
    atomic_int_fast64_t faults;
    pthread_mutex_t print;
} Shared;

typedef struct {
    Shared *sh;
    Position *pos;          /* the node's position: boards and check state, no key */
    EgtbReindex r;          /* its index by groups, for its quiet children */
    MoveList list;          /* its legal moves */
    uint16_t cv[MAX_MOVES]; /* and their children's values */
    uint8_t co[MAX_MOVES];  /* and orders (0 for a capture: it converts) */
} Worker;

/* The index of the position after quiet move m in pos through
 * egtb_index_of, the move made on the boards only, and its side to move
 * there: the other side, except in a symmetric table, where a child with
 * Black to move is turned into Red to move. */
static uint64_t index_after(const EgtbLayout *lay, Position *pos, Move m, Color *side) {
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    pos_remove_piece(pos, from);
    pos_put_piece(pos, pc, to);
    pos->side = (Color)!pos->side;
    uint64_t idx = egtb_index_of(lay, pos, side);
    pos->side = (Color)!pos->side;
    pos_remove_piece(pos, to);
    pos_put_piece(pos, pc, from);
    return idx;
}

/* The cross-check of a quiet child's re-index idx: the same index, or, for
 * a child egtb_index_of turned (symmetric table), the same value and order
 * at the turned index (a symmetric table read from its file has its Black
 * side filled that way, egtb_sym.h). */
static bool same_child(const Shared *sh, Position *pos, Move m, uint64_t idx) {
    const EgtbTable *t = sh->t;
    Color side, child = (Color)!pos->side;
    uint64_t at = index_after(&t->lay, pos, m, &side);
    if (side == child) return at == idx;
    return sh->val[side][at] == sh->val[child][idx] &&
           (sh->dtm || egtb_table_order(t, side, at) == egtb_table_order(t, child, idx));
}

/* The children's values of the node in w->pos (decoded into w->r), each
 * as egtb_child_value gives it but found in O(1): a quiet move re-indexed
 * within t (its child has the other side to move, in t's frame), a
 * capture from the smaller table found once. With cross_check, every quiet
 * child's index is compared with egtb_index_of's; a mismatch is the fault
 * returned. */
static const char *child_values(Worker *w, bool cross_check) {
    const EgtbTable *t = w->sh->t;
    Position *pos = w->pos;
    const uint16_t *other = w->sh->val[!pos->side];
    for (int i = 0; i < w->list.count; i++) {
        Move m = w->list.moves[i];
        Square from = move_from(m), to = move_to(m);
        if (pos->board[to] != NO_PIECE) {
            uint16_t cv = egtb_capture_value(&w->sh->caps, pos, m);
            /* DTC: the capture converts; DTM: the count goes on in the smaller table. */
            w->cv[i] = w->sh->dtm ? cv : conversion(cv);
            w->co[i] = 0;
            continue;
        }
        bool mirrored;
        uint64_t idx = egtb_reindex_move(&t->lay, &w->r, pos->board[from], from, to, &mirrored);
        if (cross_check && !same_child(w->sh, pos, m, idx)) return "re-index differs from egtb_index_of";
        w->cv[i] = other[idx];
        w->co[i] = w->sh->dtm ? 0 : (uint8_t)egtb_table_order(t, !pos->side, idx);
    }
    return NULL;
}

static void *verify_run(void *arg) {
    Worker *w = arg;
    Shared *sh = w->sh;
    const EgtbTable *t = sh->t;
    uint64_t n = t->lay.positions;
    Position *pos = w->pos;
    for (;;) {
        uint64_t begin = atomic_fetch_add(&sh->next, CHUNK);
        if (begin >= 2 * n) break;
        uint64_t end = begin + CHUNK < 2 * n ? begin + CHUNK : 2 * n;
        for (uint64_t node = begin; node < end; node++) {
            Color c = node < n ? RED : BLACK;
            uint64_t i = node % n;
            uint16_t v = sh->val[c][i];
            const char *why;
            if (!egtb_reindex_decode(&t->lay, i, c, pos, &w->r) || !egtb_decoded_legal(pos)) {
                why = v == EGTB_ILLEGAL ? NULL : "illegal position with a value";
            } else {
                pos->history[0].in_check = pos_compute_in_check(pos); /* what gen_legal reads */
                gen_legal(pos, &w->list);
                why = child_values(w, node % INDEX_CHECK_EVERY == 0);
                if (!why) why = check_node(&w->list, w->cv, w->co, v, sh->dtm ? 0 : egtb_table_order(t, c, i));
            }
            if (!why) continue;
            if (atomic_fetch_add(&sh->faults, 1) < FAULTS_SHOWN) {
                char fen[FEN_MAX];
                pthread_mutex_lock(&sh->print);
                fprintf(sh->out, "%s: index %llu %s to move, %s %u: %s (%s)\n", t->name, (unsigned long long)i,
                        c == RED ? "red" : "black", sh->dtm ? "DTM" : "value", v, why, fen_write(pos, fen));
                pthread_mutex_unlock(&sh->print);
            }
        }
    }
    return NULL;
}

static int64_t verify(EgtbSet *set, const EgtbTable *t, bool dtm, int threads, FILE *out, char *err,
                      size_t errlen) {
    if (threads < 1) threads = 1;
    if (threads > THREADS_MAX) threads = THREADS_MAX;
    if (dtm && !t->dtm[RED]) {
        snprintf(err, errlen, "%s: no DTM", t->name);
        return -1;
    }
    Shared sh = {.t = t, .dtm = dtm, .val = dtm ? t->dtm : t->val, .out = out};
    /* The smaller tables load now: the workers then only read them. */
    if (!egtb_captures_init(&sh.caps, set, &t->lay.mat, dtm, err, errlen)) return -1;
    Worker w[THREADS_MAX];
    pthread_t tid[THREADS_MAX];
    bool started[THREADS_MAX] = {false};
    bool ok = true;
    for (int i = 0; i < threads; i++) {
        w[i] = (Worker){.sh = &sh, .pos = malloc(sizeof(Position))};
        ok &= w[i].pos != NULL;
    }
    if (!ok) {
        for (int i = 0; i < threads; i++)
            free(w[i].pos);
        snprintf(err, errlen, "%s: out of memory", t->name);
        return -1;
    }
    atomic_init(&sh.next, 0);
    atomic_init(&sh.faults, 0);
    pthread_mutex_init(&sh.print, NULL);
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, verify_run, &w[i]) == 0;
    verify_run(&w[0]);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    for (int i = 1; i < threads; i++)
        if (!started[i]) verify_run(&w[i]);
    pthread_mutex_destroy(&sh.print);
    for (int i = 0; i < threads; i++)
        free(w[i].pos);
    return (int64_t)atomic_load(&sh.faults);
}

int64_t egtb_verify(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen) {
    return verify(set, t, false, threads, out, err, errlen);
}

int64_t egtb_verify_dtm(EgtbSet *set, const EgtbTable *t, int threads, FILE *out, char *err, size_t errlen) {
    return verify(set, t, true, threads, out, err, errlen);
}
