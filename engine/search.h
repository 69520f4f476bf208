// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The search driver's interface to the protocol front end.
 *
 * search_start() copies the position and limits and returns at once; the
 * search runs on its own thread(s) and reports through the callbacks, which
 * are called from the search thread. It calls `bestmove` exactly once per
 * search_start(). While pondering or in an infinite search it never calls
 * `bestmove` on its own: after finishing early it waits for search_stop()
 * or search_ponderhit() (UCI/UCCI rule). search_stop() makes it report
 * within a few milliseconds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "move.h"
#include "position.h"
#include "score.h"
#include "skill/skill.h"

typedef struct {
    int depth;            /* maximum depth in plies, 0 = none */
    uint64_t nodes;       /* node budget, 0 = none */
    int64_t movetime_ms;  /* fixed time for this move, 0 = none */
    int64_t time_ms;      /* own clock, < 0 = no clock */
    int64_t inc_ms;       /* own increment per move */
    int movestogo;        /* moves to the next time control, 0 = whole game */
    int64_t opp_time_ms;  /* opponent's clock, < 0 = unknown */
    int64_t opp_inc_ms;
    int mate;             /* find a mate in this many moves, 0 = off */
    bool infinite;        /* search until stopped */
    bool ponder;          /* pondering: the clock starts at search_ponderhit() */
    int root_count;       /* if > 0, search only these root moves (searchmoves, or legal minus banmoves) */
    Move root_moves[MAX_MOVES];
} SearchLimits;

typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

typedef struct {
    int depth, seldepth, multipv; /* multipv is 1-based */
    Score score;
    Bound bound;         /* BOUND_EXACT, or the side of a failed aspiration window */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;        /* per mille */
    uint64_t tbhits;     /* endgame-table probes that gave a value */
    bool tables;         /* tables were in use: print tbhits */
    int pv_length;
    Move pv[MAX_PLY];
} SearchInfo;

typedef struct {
    void (*info)(void *ctx, const SearchInfo *info);
    void (*currmove)(void *ctx, Move move, int number, int depth);
    /* ponder may be MOVE_NONE; best is MOVE_NONE when there is no legal move. */
    void (*bestmove)(void *ctx, Move best, Move ponder, Score score, int depth);
    void *ctx;
} SearchCallbacks;

/* Options the protocol sets; read at search_start(). */
typedef struct {
    int hash_mb;
    int threads;
    int multipv;
    int move_overhead_ms;
    int draw_plies;      /* no-capture plies before a draw (UCCI drawmoves), 0 = off */
    bool ponder_enabled; /* the GUI may ponder: only changes time allocation */
    SkillOptions skill;  /* strength level and randomness (skill/skill.h) */
    int style;           /* UCCI style: a Style of skill/grades.h (the draw score) */
    int pruning;         /* UCCI pruning: a Grade (reductions, late-move and null-move pruning) */
    int idle;            /* UCCI idle: a Grade (share of the processor) */
    bool use_egtb;       /* probe the loaded endgame tables (engine/egtb/egtb_probe.h) */
    int nodestime;       /* node time: a clock is counted in nodes, this many to the millisecond (0: off) */
} SearchOptions;

/* Options at start-up (bench searches with these). */
extern const SearchOptions SearchDefaults;

extern SearchOptions Options;

/* One-time setup (allocates the default hash). */
void search_init(void);
/* Apply Options.hash_mb; false (old table kept) if memory could not be had. */
bool search_resize_hash(int mb);
/* Forget everything learnt: hash, history tables (newgame / ucinewgame). */
void search_clear(void);
void search_start(const Position *pos, const SearchLimits *limits, const SearchCallbacks *cb);
void search_stop(void);
void search_ponderhit(void);
/* Block until the running search (if any) has called bestmove and ended. */
void search_wait(void);
bool search_running(void);
/* Tear down threads and memory (quit). */
void search_shutdown(void);

typedef struct {
    bool found;
    Move move;
    Score score;
    Bound bound;
    int depth;
} ProbeResult;

/* What the transposition table knows of pos (UCCI probe). */
ProbeResult search_probe(const Position *pos);

/* Search the fixed benchmark positions to `depth` with one thread and a
 * fixed hash; prints `Nodes searched: N` and `Nodes/second: M`. */
uint64_t search_bench(int depth, FILE *out);
