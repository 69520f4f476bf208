// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * What the three parts of the search share, and nothing the rest of the
 * engine should use (search.h is that interface):
 *   search.c          the driver: threads, limits, the public calls;
 *   search_iterate.c  iterative deepening, aspiration windows, reports;
 *   search_tree.c     the tree: principal variation search, quiescence,
 *                     pruning, extensions, the game rules inside the tree.
 *   search_clock.c    node time: the engine's own clock counted in nodes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "search.h"
#include "skill/skill.h"
#include "thread.h"
#include "timeman.h"

/* Shared state of the running search. */
typedef struct {
    pthread_t driver;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool running;               /* driver started and not yet joined */
    atomic_bool stop;           /* every thread: unwind now */
    atomic_bool stop_requested; /* the GUI said stop (releases a held bestmove) */
    atomic_bool pondering;
    atomic_int_fast64_t clock_ms; /* when the clock started (search start or ponderhit) */
    int64_t start_ms;             /* when the search started, for info time */
    /* The machine's latency as the main thread sees it: the clock at its
     * last check, the longest wait between two checks in this search, and
     * what the driver carries from search to search for tm_init(). */
    int64_t last_check_ms, longest_gap_ms;
    int latency_ms;
    /* Node time (the nodestime option, search_clock.c): under a clock the
     * search counts nodes, Options.nodestime to the millisecond, and the
     * engine keeps its own clock in nodes from move to move. */
    bool node_time;                    /* this search's time limits are in nodes */
    int64_t node_clock;                /* nodes left on that clock; 0: start it from the GUI's at the next go */
    atomic_uint_fast64_t nodes_at_clock; /* nodes searched when the clock started (0, or at the ponderhit) */
    int64_t real_hard_ms;              /* under node time, the real clock's hard limit still holds */
    int64_t gui_time_ms, last_move_ms; /* the GUI's clock at the last go, and that move's real length */
    int gui_movestogo, gui_game_ply;   /* ...its movestogo and the game's ply then */
    int64_t node_clock_rate;           /* the nodestime the clock was started with */
    SearchLimits limits;
    SearchCallbacks cb;
    TimeManager tm;
    Position root;
    int multipv;      /* lines searched */
    int report_lines; /* lines shown (MultiPV); the rest are the skill's */
    SkillPlan skill;  /* strength level and randomness (skill/skill.h) */
    Score contempt;   /* style: a draw is worth -contempt to the root side */
    int reduction_percent, idle_duty;
    bool null_move; /* pruning: the grades of skill/grades.h */
    int tb_pieces;  /* probe the tables with at most this many pieces besides the kings (0: off) */
    bool root_in_tb; /* the root moves were ranked by DTC (search_tb.c): report their table scores */
    bool root_tb_rule; /* ... and the root's value rests on a repetition rule (DTC order > 0): report
                          the table's score even where the search saw the rule win as a mate */
    bool tables;     /* tables are loaded and in use: report tbhits */
    uint64_t root_tbhits; /* DTC probes of the root ranking, when it ranked */
    bool initialised;
} SearchShared;
extern SearchShared Shared;

static inline int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds since the clock started (the search start or the ponderhit). */
static inline int64_t clock_elapsed(void) { return now_ms() - atomic_load(&Shared.clock_ms); }

/* What the time limits are measured against: real milliseconds, or under
 * node time the nodes searched since the clock started, in milliseconds. */
static inline int64_t search_clock_spent(void) {
    if (!Shared.node_time) return clock_elapsed();
    uint64_t n = threads_nodes(), at = atomic_load(&Shared.nodes_at_clock);
    return n > at ? (int64_t)((n - at) / (uint64_t)Options.nodestime) : 0;
}

/* search_clock.c: node time. Before tm_init(): under node time turn the
 * GUI's clock in `limits` into the engine's own (in milliseconds of
 * nodes) and say so; after the search: charge the nodes it took. */
bool node_time_begin(SearchLimits *limits, int game_ply);
void node_time_end(const SearchLimits *gui_limits, bool completed);
void node_time_reset(void);

static inline bool stopped(void) { return atomic_load_explicit(&Shared.stop, memory_order_relaxed); }

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline Score mated_in(int ply) { return -(SCORE_MATE - ply); }
static inline Score mate_in(int ply) { return SCORE_MATE - ply; }

/* search_tree.c: the score of the node ss of thread t (the root when
 * ss->ply is 0) searched to depth within (alpha, beta). */
Score search_tree(SearchThread *t, SearchStack *ss, Score alpha, Score beta, Depth depth, bool cut_node);
/* search_tree.c: the reduction and late-move tables, from the parameters
 * and the pruning option; again at every search start, so a tuning build
 * sees changed parameters. */
void search_tree_init_tables(void);

/* search_tb.c: with the root in the endgame tables (DTC) and the game's
 * history not against them, keep only the root moves that hold the best
 * table result (the shortest win, the longest resistance, a draw; by
 * order first where the repetition rules settled it) and set scores[i] to
 * each kept move's table score; false (moves untouched) when the tables
 * cannot decide the root. Sets Shared.root_tb_rule. */
bool tb_rank_root(const Position *root, MoveList *moves, Score *scores);
/* search_tb.c: the plies, at most, from pos (a rule-settled win or loss,
 * DTC order > 0) to where the game ends or converts, the loser delaying
 * as long as it can and the winner keeping to the table's line; false when
 * the tables cannot bound it (too many positions to go through, a table
 * missing). Only the driver calls it (the root ranking, the tests). */
bool tb_rule_win_plies(const Position *pos, int *plies);
/* The same with the region capped at cap positions (at most the engine's
 * RULE_REGION_CAP): past it, false. For the tests of the overflow. */
bool tb_rule_win_plies_within(const Position *pos, int cap, int *plies);
/* search_tb.c: the score of a WDL result at ply. */
Score tb_score(int wdl, int ply, Score draw);

/* search_iterate.c: iterative deepening of thread t until the limits or a
 * stop; the main thread reports each completed iteration. */
void iterative_deepening(SearchThread *t);
/* search_iterate.c: report MultiPV line i of thread t at depth (the bound
 * overridden unless BOUND_NONE). */
void report_line(SearchThread *t, int i, int depth, Bound bound_override);
