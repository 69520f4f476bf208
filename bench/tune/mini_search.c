// SPDX-License-Identifier: GPL-3.0-or-later
/* A deliberately small fixed-depth alpha-beta for data generation: no
 * hash, no pruning beyond alpha-beta, captures ordered most valuable victim
 * first. The engine's real search lives in engine/search_tree.c. */
#include <string.h>

#include "eval.h"
#include "movegen.h"
#include "tune.h"

enum { QS_MAX_PLY = 24 };

void rng_seed(Rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull; if (!r->s) r->s = 1; }

uint64_t rng_next(Rng *r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

static const int VictimOrder[TYPE_NB] = {0, 100, 20, 20, 40, 90, 45, 10};

/* Captures first, most valuable victim first (a stable insertion sort). */
static void order_moves(const Position *pos, MoveList *list) {
    int key[MAX_MOVES];
    for (int i = 0; i < list->count; i++) {
        Piece victim = pos_piece_on(pos, move_to(list->moves[i]));
        key[i] = victim ? 1000 + VictimOrder[type_of(victim)] * 8 - VictimOrder[type_of(pos_piece_on(pos, move_from(list->moves[i])))] / 10 : 0;
    }
    for (int i = 1; i < list->count; i++) {
        Move m = list->moves[i];
        int k = key[i], j = i - 1;
        for (; j >= 0 && key[j] < k; j--) {
            list->moves[j + 1] = list->moves[j];
            key[j + 1] = key[j];
        }
        list->moves[j + 1] = m;
        key[j + 1] = k;
    }
}

static Score qsearch(Position *pos, MiniSearch *ms, Score alpha, Score beta, int ply, Move *pv, int *pvlen) {
    ms->nodes++;
    *pvlen = 0;
    bool check = pos_in_check(pos);
    MoveList list;
    if (check) {
        gen_legal(pos, &list);
        if (list.count == 0) return -(SCORE_MATE - ply);
    } else {
        Score stand = eval_classical(pos);
        if (stand >= beta || ply >= QS_MAX_PLY) return stand;
        if (stand > alpha) alpha = stand;
        gen_captures(pos, &list);
    }
    if (ply >= QS_MAX_PLY) return eval_classical(pos);
    order_moves(pos, &list);
    Move child[QS_MAX_PLY + 2];
    for (int i = 0; i < list.count; i++) {
        int clen;
        pos_make_move(pos, list.moves[i]);
        Score s = -qsearch(pos, ms, -beta, -alpha, ply + 1, child, &clen);
        pos_unmake_move(pos);
        if (s > alpha) {
            alpha = s;
            pv[0] = list.moves[i];
            memcpy(pv + 1, child, (size_t)clen * sizeof *pv);
            *pvlen = clen + 1;
            if (s >= beta) break;
        }
    }
    return alpha;
}

static Score alphabeta(Position *pos, MiniSearch *ms, Score alpha, Score beta, int depth, int ply, Move *pv, int *pvlen) {
    if (depth <= 0) return qsearch(pos, ms, alpha, beta, ply, pv, pvlen);
    ms->nodes++;
    *pvlen = 0;
    MoveList list;
    gen_legal(pos, &list);
    if (list.count == 0) return -(SCORE_MATE - ply);
    order_moves(pos, &list);
    Move child[MAX_PLY];
    Score best = -SCORE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        int clen;
        pos_make_move(pos, list.moves[i]);
        Score s = -alphabeta(pos, ms, -beta, -alpha, depth - 1, ply + 1, child, &clen);
        pos_unmake_move(pos);
        if (s > best) {
            best = s;
            pv[0] = list.moves[i];
            memcpy(pv + 1, child, (size_t)clen * sizeof *pv);
            *pvlen = clen + 1;
            if (s > alpha) alpha = s;
            if (s >= beta) break;
        }
    }
    return best;
}

Score mini_search(Position *pos, MiniSearch *ms, int depth) {
    ms->pv_length = 0;
    return alphabeta(pos, ms, -SCORE_INFINITE, SCORE_INFINITE, depth, 0, ms->pv, &ms->pv_length);
}

void mini_quiet_leaf(Position *pos) {
    MiniSearch ms = {0};
    Score s = qsearch(pos, &ms, -SCORE_INFINITE, SCORE_INFINITE, 0, ms.pv, &ms.pv_length);
    (void)s;
    for (int i = 0; i < ms.pv_length; i++) pos_make_move(pos, ms.pv[i]);
}
