// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Search threads: each owns a copy of the root position, its node counter,
 * its history tables and its search stack; all share the transposition
 * table. Thread 0 is the main thread (it reports and decides when to stop);
 * the others are lazy-SMP helpers that search the same root.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "movepick.h"
#include "nnue/nnue_accum.h"
#include "position.h"
#include "score.h"
#include "search.h"

/* ss - STACK_OFFSET .. ss - 1 are sentinels so ss[-6] is always valid. */
enum { STACK_OFFSET = 7, STACK_SIZE = MAX_PLY + STACK_OFFSET + 3 };

typedef struct {
    int ply;
    Move move;                 /* move made from this node (MOVE_NULL for a null move) */
    Move excluded;             /* the TT move, left out by a singular-extension search */
    Move killers[2];
    Score raw_eval;            /* the evaluation as evaluate() gives it */
    Score static_eval;         /* raw_eval corrected by the correction history (SCORE_NONE in check) */
    int stat_score;            /* history score of `move`, for the child's reductions and pruning */
    int move_count;            /* legal moves tried at this node so far */
    int cutoffs;               /* beta cut-offs among this node's children */
    int double_extensions;     /* double and triple extensions on the line to this node */
    bool in_check, tt_pv, tt_hit;
    PieceToHistory *cont_hist; /* continuation row of `move` */
    int pv_length;
    Move pv[MAX_PLY];
} SearchStack;

typedef struct {
    Move move;
    Score score;      /* this iteration's score, -SCORE_INFINITE if not (yet) searched */
    Score prev_score; /* the previous iteration's */
    Bound bound;
    int seldepth;
    Score tb_score;   /* the table's score of this move when the root is in the tables */
    uint64_t nodes;   /* nodes spent under this move in the current search */
    int pv_length;
    Move pv[MAX_PLY];
} RootMove;

typedef struct {
    int id;
    pthread_t handle;
    atomic_uint_fast64_t nodes; /* written by this thread only, read by the main thread */
    atomic_uint_fast64_t tbhits; /* the same, for endgame-table probes that gave a value */
    int seldepth;
    int root_depth, completed_depth;
    int pv_index; /* MultiPV line being searched */
    int best_changes;
    int root_count;
    RootMove root_moves[MAX_MOVES];
    int nmp_min_ply; /* null-move verification: no null move before this ply */
    ButterflyHistory history;
    LowPlyHistory low_ply;
    CaptureHistory capture;
    CounterMoveTable counter;
    ContinuationHistory cont;
    CorrectionHistory correction;
    SearchStack stack[STACK_SIZE];
    Position pos;
    NnueStack nnue; /* pos.nnue points here during a search */
} SearchThread;

/* Make `n` threads exist (at least 1); false (and the old set kept) if
 * memory is short. */
bool threads_resize(int n);
int threads_count(void);
SearchThread *thread_at(int i);
/* Run fn(thread) on threads 1..count-1 in new pthreads / join them. */
void threads_launch_helpers(void *(*fn)(void *));
void threads_join_helpers(void);
/* Forget all learnt move-ordering statistics. */
void threads_clear(void);
/* Free everything (shutdown). */
void threads_free(void);
/* Nodes searched by all threads. */
uint64_t threads_nodes(void);
/* Endgame-table hits of all threads. */
uint64_t threads_tbhits(void);

static inline void thread_add_node(SearchThread *t) {
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}
static inline uint64_t thread_nodes(SearchThread *t) { return atomic_load_explicit(&t->nodes, memory_order_relaxed); }
