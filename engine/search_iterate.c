// SPDX-License-Identifier: GPL-3.0-or-later
/* Iterative deepening: one iteration per depth, each MultiPV line searched
 * in an aspiration window that widens on a fail, the completed iterations
 * reported, and the time manager asked after each whether to go on; lazy
 * SMP helpers run the same loop over a per-thread pattern of depths. */
#include <stdlib.h>
#include <string.h>

#include "search_params.h"
#include "search_shared.h"
#include "tt.h"

/* Fixed constants; the tunable ones (ASP_WINDOW) are in search_params.h. */
static const int ASPIRATION_MIN_DEPTH = 5;
static const int ASPIRATION_MAX_DELTA = 400;
static const int BOUND_INFO_AFTER_MS = 1000;
/* A mate in p plies ends the iterations once the depth reaches
 * MATE_STOP_FACTOR * p + MATE_STOP_MARGIN: by then the pruned and reduced
 * iterations have had the depth to find a shorter mate (sqyq-192f: a mate
 * in 5 seen at depth 7, the mate in 3 only at depth 13). */
static const int MATE_STOP_FACTOR = 2, MATE_STOP_MARGIN = 4;

/* Stable sort of root_moves[from..to) by score, best first. */
static void sort_root_moves(SearchThread *t, int from, int to) {
    for (int i = from + 1; i < to; i++) {
        RootMove rm = t->root_moves[i];
        int j = i - 1;
        for (; j >= from && t->root_moves[j].score < rm.score; j--)
            t->root_moves[j + 1] = t->root_moves[j];
        t->root_moves[j + 1] = rm;
    }
}

void report_line(SearchThread *t, int i, int depth, Bound bound_override) {
    const RootMove *rm = &t->root_moves[i];
    bool fresh = rm->score != -SCORE_INFINITE;
    SearchInfo info = {
        .depth = fresh || depth == 1 ? depth : depth - 1,
        .seldepth = rm->seldepth,
        .multipv = i + 1,
        .score = fresh ? rm->score : rm->prev_score,
        .bound = bound_override != BOUND_NONE ? bound_override
                 : fresh                      ? rm->bound
                                              : BOUND_EXACT,
        .nodes = threads_nodes(),
        .time_ms = now_ms() - Shared.start_ms,
        .hashfull = tt_hashfull(),
        .tbhits = threads_tbhits() + Shared.root_tbhits,
        .tables = Shared.tables,
        .pv_length = rm->pv_length,
    };
    if (info.score == -SCORE_INFINITE || info.score == SCORE_NONE) return;
    /* The table knows better; where its value rests on a repetition rule, a
     * "mate" of the search is that rule's verdict seen in the tree. */
    if (Shared.root_in_tb && (Shared.root_tb_rule || !score_is_mate(info.score))) info.score = rm->tb_score;
    memcpy(info.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_length);
    if (Shared.cb.info) Shared.cb.info(Shared.cb.ctx, &info);
}

/* Aspiration loop for MultiPV line t->pv_index at `depth`. */
static void search_line(SearchThread *t, SearchStack *ss, int depth) {
    const bool main = t->id == 0;
    Score prev = t->root_moves[t->pv_index].prev_score;
    int delta = ASP_WINDOW;
    Score alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (depth >= ASPIRATION_MIN_DEPTH && prev != -SCORE_INFINITE && !score_is_decisive(prev)) {
        alpha = imax(prev - delta, -SCORE_INFINITE);
        beta = imin(prev + delta, SCORE_INFINITE);
    }
    for (;;) {
        t->seldepth = 0;
        Score score = search_tree(t, ss, alpha, beta, depth, false);
        sort_root_moves(t, t->pv_index, t->root_count);
        if (stopped()) return;
        Bound failed = score <= alpha ? BOUND_UPPER : score >= beta ? BOUND_LOWER : BOUND_NONE;
        if (failed == BOUND_NONE) return;
        if (main && t->pv_index < Shared.report_lines && now_ms() - Shared.start_ms > BOUND_INFO_AFTER_MS)
            report_line(t, t->pv_index, depth, failed);
        if (failed == BOUND_UPPER) {
            beta = (alpha + beta) / 2;
            alpha = imax(score - delta, -SCORE_INFINITE);
        } else {
            beta = imin(score + delta, SCORE_INFINITE);
        }
        delta += delta / 2;
        if (delta > ASPIRATION_MAX_DELTA) alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    }
}

/* Main thread, after a completed iteration: is it time to stop? */
static bool iteration_says_stop(SearchThread *t, int depth, Score prev_best) {
    const SearchLimits *l = &Shared.limits;
    Score score = t->root_moves[0].score;
    if (l->depth && depth >= l->depth) return true;
    if (l->mate && score >= mate_in(2 * l->mate)) return true;
    if (l->infinite || atomic_load(&Shared.pondering)) return false;
    if (!l->depth && score_is_mate(score) && depth >= MATE_STOP_FACTOR * (SCORE_MATE - abs(score)) + MATE_STOP_MARGIN)
        return true;
    if (!Shared.tm.timed) return false;
    if (t->root_count == 1 && depth >= 4) return true;
    uint64_t total = 0;
    for (int i = 0; i < t->root_count; i++)
        total += t->root_moves[i].nodes;
    double share = total ? (double)t->root_moves[0].nodes / (double)total : 0.5;
    tm_update(&Shared.tm, depth, t->best_changes, prev_best == -SCORE_INFINITE ? 0 : prev_best - score, share);
    t->best_changes = 0;
    return tm_soft_exceeded(&Shared.tm, search_clock_spent());
}

/* Lazy SMP: helpers skip some depths in a per-thread pattern, so that the
 * threads spread over neighbouring depths instead of all searching the same
 * tree in step; what a thread ahead stores in the table guides the others. */
static bool helper_skips_depth(const SearchThread *t, int depth) {
    static const int SkipSize[] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int SkipPhase[] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    if (t->id == 0 || Shared.limits.depth > 0) return false;
    int i = (t->id - 1) % (int)(sizeof SkipSize / sizeof SkipSize[0]);
    return ((depth + SkipPhase[i]) / SkipSize[i]) % 2 != 0;
}

void iterative_deepening(SearchThread *t) {
    const bool main = t->id == 0;
    SearchStack *ss = t->stack + STACK_OFFSET;
    int max_depth = Shared.limits.depth > 0 ? imin(Shared.limits.depth, MAX_PLY - 1) : MAX_PLY - 1;
    int lines = imin(Shared.multipv, t->root_count);
    Score prev_best = -SCORE_INFINITE;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (helper_skips_depth(t, depth)) continue;
        t->root_depth = depth;
        for (int i = 0; i < t->root_count; i++) {
            t->root_moves[i].prev_score = t->root_moves[i].score;
            t->root_moves[i].nodes = 0;
        }
        for (t->pv_index = 0; t->pv_index < lines && !stopped(); t->pv_index++) {
            search_line(t, ss, depth);
            sort_root_moves(t, 0, t->pv_index + 1);
        }
        t->pv_index = 0;
        if (stopped()) break;
        t->completed_depth = depth;
        if (!main) continue;
        for (int i = 0; i < imin(lines, Shared.report_lines); i++)
            report_line(t, i, depth, BOUND_NONE);
        if (iteration_says_stop(t, depth, prev_best)) break;
        prev_best = t->root_moves[0].score;
    }
}
