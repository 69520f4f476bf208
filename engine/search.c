// SPDX-License-Identifier: GPL-3.0-or-later
/* The search: iterative deepening with aspiration windows over a principal
 * variation search, quiescence, pruning and reductions, the xiangqi draw and
 * repetition rules, MultiPV and lazy SMP; and the driver that runs it on its
 * own thread under the contract of search.h. */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks.h"
#include "eval.h"
#include "movegen.h"
#include "movepick.h"
#include "repetition.h"
#include "see.h"
#include "thread.h"
#include "timeman.h"
#include "tt.h"

SearchOptions Options = {.hash_mb = 64, .threads = 1, .multipv = 1, .move_overhead_ms = 30, .draw_plies = 120};

/*
 * Tunable constants. Score margins follow the evaluation's scale, where a
 * horse or cannon is about 100 and a chariot about 215 (eval_weights.c);
 * SEE margins are in see.c's own fixed scale, where a pawn is 100.
 */
static const int ASPIRATION_MIN_DEPTH = 5;
static const int ASPIRATION_MAX_DELTA = 400;
static const int ASPIRATION_WINDOW = 12;
static const int RFP_MAX_DEPTH = 8;
static const int RFP_MARGIN = 30;
static const int NMP_MIN_DEPTH = 3;
static const int NMP_BASE_REDUCTION = 3;
static const int NMP_DEPTH_DIVISOR = 4;
static const int NMP_EVAL_DIVISOR = 70;
static const int IIR_MIN_DEPTH = 4;
enum { LMP_MAX_DEPTH = 8 };
static const int FUTILITY_MAX_DEPTH = 8;
static const int FUTILITY_BASE = 30;
static const int FUTILITY_PER_DEPTH = 30;
static const int SEE_QUIET_MARGIN = -60;   /* per reduced depth */
static const int SEE_CAPTURE_MARGIN = -100; /* per depth */
static const int SEE_CAPTURE_MAX_DEPTH = 6;
static const int LMR_MIN_DEPTH = 3;
static const int LMR_HISTORY_DIVISOR = 8192;
static const int HISTORY_BONUS_MAX = 1600;
static const int CURRMOVE_AFTER_MS = 1000;
static const int BOUND_INFO_AFTER_MS = 1000;

static int Reductions[64][64];
static int LateMoveCount[2][LMP_MAX_DEPTH + 1];

/* Shared state of the running search. */
static struct {
    pthread_t driver;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool running;                /* driver started and not yet joined */
    atomic_bool stop;            /* every thread: unwind now */
    atomic_bool stop_requested;  /* the GUI said stop (releases a held bestmove) */
    atomic_bool pondering;
    atomic_int_fast64_t clock_ms; /* when the clock started (search start or ponderhit) */
    int64_t start_ms;            /* when the search started, for info time */
    SearchLimits limits;
    SearchCallbacks cb;
    TimeManager tm;
    Position root;
    int multipv;
    bool initialised;
} S = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline Score mated_in(int ply) { return -(SCORE_MATE - ply); }
static inline Score mate_in(int ply) { return SCORE_MATE - ply; }

/* ---------------------------------------------------------------------- */
/* Limits                                                                  */

static int64_t clock_elapsed(void) { return now_ms() - atomic_load(&S.clock_ms); }

/* Stop on the node budget (main thread) and on the hard time limit (every
 * thread: when threads outnumber free processors the main thread may wait
 * long for a time slice, and the clock must not run out meanwhile). */
static void check_limits(SearchThread *t) {
    uint64_t n = thread_nodes(t);
    if (S.limits.nodes && t->id == 0) {
        uint64_t total = threads_count() == 1 ? n : ((n & 1023) == 0 ? threads_nodes() : 0);
        if (total >= S.limits.nodes) atomic_store(&S.stop, true);
    }
    if ((n & 1023) == 0 && !atomic_load(&S.pondering) && tm_hard_exceeded(&S.tm, clock_elapsed()))
        atomic_store(&S.stop, true);
}

static inline bool stopped(void) { return atomic_load_explicit(&S.stop, memory_order_relaxed); }

/* Called on entering a node: false when the search must unwind. */
static inline bool enter_node(SearchThread *t, const SearchStack *ss) {
    check_limits(t);
    if (stopped()) return false;
    thread_add_node(t);
    if (ss->ply > t->seldepth) t->seldepth = ss->ply;
    return true;
}

/* ---------------------------------------------------------------------- */
/* Draw and repetition rules                                               */

/*
 * The verdict of the game rules on the current position, for the side to
 * move: SCORE_NONE when play goes on. The no-capture limit is a draw. A
 * repetition of an earlier position since the last capture (and not across
 * a null move) goes to the Asian-rules judge (repetition.h): perpetual check
 * or chase loses for the side doing it, anything else is a draw. Rule wins
 * and losses score like a mate at this ply so the search avoids them as
 * firmly as a mate.
 */
static Score rule_verdict(const Position *pos, int ply) {
    const StateInfo *st = pos_state(pos);
    if (Options.draw_plies > 0 && st->rule60 >= Options.draw_plies) return SCORE_DRAW;
    int window = imin(st->rule60, pos->game_ply);
    for (int d = 1; d <= window; d++) {
        if (pos->history[pos->game_ply - d + 1].move == MOVE_NULL) break;
        if (d < 4 || (d & 1) || pos->history[pos->game_ply - d].key != st->key) continue;
        switch (rep_judge_cycle(pos, pos->game_ply - d).verdict) {
        case REP_WIN: return mate_in(ply);
        case REP_LOSS: return mated_in(ply);
        default: return SCORE_DRAW;
        }
    }
    return SCORE_NONE;
}

/* ---------------------------------------------------------------------- */
/* Pruning predicates                                                      */

static inline bool tt_cutoff_ok(const TTHit *hit, Score beta) {
    return hit->score != SCORE_NONE && (hit->bound & (hit->score >= beta ? BOUND_LOWER : BOUND_UPPER));
}

/* Reverse futility: the static eval beats beta by a depth-scaled margin. */
static inline bool reverse_futility_ok(Depth depth, Score eval, Score beta, bool improving) {
    return depth <= RFP_MAX_DEPTH && eval < SCORE_MATE_IN_MAX && beta > -SCORE_MATE_IN_MAX &&
           eval - RFP_MARGIN * (depth - improving) >= beta;
}

/* Enough material that passing is never best (no zugzwang): a chariot, or
 * two of horses and cannons. */
static inline bool null_move_material_ok(const Position *pos, Color c) {
    return pos_pieces(pos, c, ROOK) || bb_popcount(pos_pieces(pos, c, HORSE) | pos_pieces(pos, c, CANNON)) >= 2;
}

static inline bool null_move_ok(const Position *pos, const SearchStack *ss, Depth depth, Score eval, Score beta) {
    return depth >= NMP_MIN_DEPTH && (ss - 1)->move != MOVE_NULL && eval >= beta && ss->static_eval >= beta &&
           beta > -SCORE_MATE_IN_MAX && null_move_material_ok(pos, pos->side);
}

/* Late move pruning: enough quiet moves tried at shallow depth. */
static inline bool late_move_prune_ok(Depth depth, int move_count, bool improving) {
    return depth <= LMP_MAX_DEPTH && move_count > LateMoveCount[improving][depth];
}

/* Futility: a quiet move cannot lift the static eval up to alpha. */
static inline bool futility_prune_ok(Depth lmr_depth, Score static_eval, Score alpha) {
    return lmr_depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha;
}

/* SEE pruning of a quiet move that loses material on its point. */
static inline bool see_quiet_prune_ok(const Position *pos, Move m, Depth lmr_depth) {
    return !see_ge(pos, m, SEE_QUIET_MARGIN * lmr_depth);
}

/* SEE pruning of a capture losing too much at shallow depth. */
static inline bool see_capture_prune_ok(const Position *pos, Move m, Depth depth) {
    return depth <= SEE_CAPTURE_MAX_DEPTH && !see_ge(pos, m, SEE_CAPTURE_MARGIN * depth);
}

/* Check extension, bounded so perpetual-check lines cannot explode. */
static inline bool check_extension_ok(const SearchThread *t, const SearchStack *ss, bool gives_check) {
    return gives_check && ss->ply < 2 * t->root_depth;
}

/* ---------------------------------------------------------------------- */
/* Statistics                                                              */

static inline void history_update(int16_t *h, int bonus) { *h = (int16_t)(*h + bonus - *h * abs(bonus) / HISTORY_MAX); }

static inline int history_bonus(Depth depth) { return imin(HISTORY_BONUS_MAX, 32 * depth * depth + 64 * depth); }

static void update_quiet(SearchThread *t, SearchStack *ss, Move m, int bonus) {
    const Position *pos = &t->pos;
    Piece p = pos->board[move_from(m)];
    Square to = move_to(m);
    history_update(&t->history[pos->side][move_from(m)][to], bonus);
    history_update(&(*(ss - 1)->cont_hist)[p][to], bonus);
    history_update(&(*(ss - 2)->cont_hist)[p][to], bonus);
}

/* A quiet move failed high: reward it, punish the quiets tried before it. */
static void update_quiet_stats(SearchThread *t, SearchStack *ss, Move best, const Move *quiets, int n, Depth depth) {
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    Move prev = (ss - 1)->move;
    if (prev != MOVE_NONE && prev != MOVE_NULL) t->counter[t->pos.board[move_to(prev)]][move_to(prev)] = best;
    int bonus = history_bonus(depth);
    update_quiet(t, ss, best, bonus);
    for (int i = 0; i < n; i++) update_quiet(t, ss, quiets[i], -bonus);
}

static inline int quiet_history(const SearchThread *t, const SearchStack *ss, Move m) {
    Piece p = t->pos.board[move_from(m)];
    Square to = move_to(m);
    return t->history[t->pos.side][move_from(m)][to] + (*(ss - 1)->cont_hist)[p][to] + (*(ss - 2)->cont_hist)[p][to];
}

/* ---------------------------------------------------------------------- */
/* Root moves                                                              */

static RootMove *find_root_move(SearchThread *t, Move m) {
    for (int i = t->pv_index; i < t->root_count; i++)
        if (t->root_moves[i].move == m) return &t->root_moves[i];
    return NULL;
}

/* Stable sort of root_moves[from..to) by score, best first. */
static void sort_root_moves(SearchThread *t, int from, int to) {
    for (int i = from + 1; i < to; i++) {
        RootMove rm = t->root_moves[i];
        int j = i - 1;
        for (; j >= from && t->root_moves[j].score < rm.score; j--) t->root_moves[j + 1] = t->root_moves[j];
        t->root_moves[j + 1] = rm;
    }
}

static void update_root_move(SearchThread *t, SearchStack *ss, Move m, int move_count, Score score, Score alpha,
                             Score beta) {
    RootMove *rm = find_root_move(t, m);
    if (move_count == 1 || score > alpha) {
        rm->score = score;
        rm->bound = score >= beta ? BOUND_LOWER : score <= alpha ? BOUND_UPPER : BOUND_EXACT;
        rm->seldepth = t->seldepth;
        rm->pv[0] = m;
        int n = imin((ss + 1)->pv_length, MAX_PLY - 1);
        memcpy(rm->pv + 1, (ss + 1)->pv, sizeof(Move) * (size_t)n);
        rm->pv_length = n + 1;
        if (move_count > 1 && t->pv_index == 0) t->best_changes++;
    } else {
        rm->score = -SCORE_INFINITE;
    }
}

/* ---------------------------------------------------------------------- */
/* Quiescence                                                              */

static Score qsearch(SearchThread *t, SearchStack *ss, Score alpha, Score beta) {
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    ss->pv_length = 0;

    // Step 1. Node accounting and abort
    if (!enter_node(t, ss)) return 0;

    // Step 2. Draws, repetitions, ply limit
    Score verdict = rule_verdict(pos, ss->ply);
    if (verdict != SCORE_NONE) return verdict;
    const bool in_check = pos_in_check(pos);
    if (ss->ply >= MAX_PLY - 1 || pos->game_ply >= MAX_HISTORY - 2) return in_check ? SCORE_DRAW : evaluate(pos);

    // Step 3. Transposition table
    const Key key = pos_key(pos);
    TTHit hit;
    tt_probe(key, ss->ply, &hit);
    if (!pv_node && hit.found && tt_cutoff_ok(&hit, beta)) return hit.score;

    // Step 4. Stand pat (not in check: then every evasion is searched)
    Score best = -SCORE_INFINITE, eval = SCORE_NONE;
    if (!in_check) {
        eval = hit.found && hit.eval != SCORE_NONE ? hit.eval : evaluate(pos);
        best = eval;
        if (hit.found && hit.score != SCORE_NONE && (hit.bound & (hit.score > eval ? BOUND_LOWER : BOUND_UPPER)))
            best = hit.score;
        if (best >= beta) {
            if (!hit.found) tt_store(key, ss->ply, MOVE_NONE, best, eval, 0, BOUND_LOWER);
            return best;
        }
        if (best > alpha) alpha = best;
    }

    // Step 5. Captures (or evasions), losing captures skipped
    MovePicker mp;
    mp_init_qsearch(&mp, pos, hit.move, &t->history);
    Move m, best_move = MOVE_NONE;
    int legal = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (!pos_move_is_safe(pos, m)) continue;
        legal++;
        if (!in_check && best > -SCORE_MATE_IN_MAX && !see_ge(pos, m, 0)) continue;
        ss->move = m;
        ss->cont_hist = &t->cont[pos->board[move_from(m)]][move_to(m)];
        pos_make_move(pos, m);
        tt_prefetch(pos_key(pos));
        Score score = -qsearch(t, ss + 1, -beta, -alpha);
        pos_unmake_move(pos);
        if (stopped()) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (score >= beta) break;
                alpha = score;
            }
        }
    }

    // Step 6. Mated (in check with no evasion)
    if (in_check && legal == 0) return mated_in(ss->ply);

    // Step 7. Store
    Bound bound = best >= beta ? BOUND_LOWER : pv_node && best_move ? BOUND_EXACT : BOUND_UPPER;
    tt_store(key, ss->ply, best_move, best, eval, 0, bound);
    return best;
}

/* ---------------------------------------------------------------------- */
/* Principal variation search                                              */

static Score search(SearchThread *t, SearchStack *ss, Score alpha, Score beta, Depth depth, bool cut_node) {
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    const bool root = ss->ply == 0;

    // Step 1. Quiescence at the horizon
    if (depth <= 0) return qsearch(t, ss, alpha, beta);

    // Step 2. Node accounting and abort
    ss->pv_length = 0;
    if (!enter_node(t, ss)) return 0;
    const bool in_check = pos_in_check(pos);

    if (!root) {
        // Step 3. Draws, repetitions, ply limit
        Score verdict = rule_verdict(pos, ss->ply);
        if (verdict != SCORE_NONE) return verdict;
        if (ss->ply >= MAX_PLY - 1 || pos->game_ply >= MAX_HISTORY - 2) return in_check ? SCORE_DRAW : evaluate(pos);

        // Step 4. Mate distance pruning
        alpha = imax(alpha, mated_in(ss->ply));
        beta = imin(beta, mate_in(ss->ply + 1));
        if (alpha >= beta) return alpha;
    }

    // Step 5. Transposition table
    const Key key = pos_key(pos);
    TTHit hit;
    tt_probe(key, ss->ply, &hit);
    const Move tt_move = root ? t->root_moves[t->pv_index].move : hit.move;
    if (!pv_node && hit.found && hit.depth >= depth && tt_cutoff_ok(&hit, beta)) return hit.score;

    // Step 6. Static evaluation
    Score eval = SCORE_NONE;
    bool improving = false;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    if (in_check) {
        ss->static_eval = SCORE_NONE;
    } else {
        eval = ss->static_eval = hit.found && hit.eval != SCORE_NONE ? hit.eval : evaluate(pos);
        if (hit.found && hit.score != SCORE_NONE && (hit.bound & (hit.score > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = hit.score;
        improving = (ss - 2)->static_eval != SCORE_NONE && ss->static_eval > (ss - 2)->static_eval;

        // Step 7. Reverse futility pruning
        if (!pv_node && reverse_futility_ok(depth, eval, beta, improving)) return eval;

        // Step 8. Null move pruning
        if (!pv_node && null_move_ok(pos, ss, depth, eval, beta)) {
            int r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + imin(3, (eval - beta) / NMP_EVAL_DIVISOR);
            ss->move = MOVE_NULL;
            ss->cont_hist = &t->cont[NO_PIECE][0];
            pos_make_null(pos);
            Score score = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            pos_unmake_null(pos);
            if (stopped()) return 0;
            if (score >= beta) return score >= SCORE_MATE_IN_MAX ? beta : score;
        }
    }

    // Step 9. Internal iterative reduction: no hash move to guide a deep node
    if ((pv_node || cut_node) && depth >= IIR_MIN_DEPTH && tt_move == MOVE_NONE) depth--;

    // Step 10. Move loop
    Move prev = (ss - 1)->move;
    Move counter = prev != MOVE_NONE && prev != MOVE_NULL ? t->counter[pos->board[move_to(prev)]][move_to(prev)]
                                                          : MOVE_NONE;
    MovePicker mp;
    mp_init(&mp, pos, tt_move, ss->killers, counter, &t->history, (ss - 1)->cont_hist, (ss - 2)->cont_hist);
    Move quiets[64];
    int quiet_count = 0, move_count = 0;
    Score best = -SCORE_INFINITE;
    Move best_move = MOVE_NONE, m;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (root && !find_root_move(t, m)) continue;
        if (!pos_move_is_safe(pos, m)) continue;
        move_count++;
        const bool capture = move_is_capture(pos, m);
        const Piece moved = pos->board[move_from(m)];
        if (root && t->id == 0 && S.cb.currmove && now_ms() - S.start_ms > CURRMOVE_AFTER_MS)
            S.cb.currmove(S.cb.ctx, m, move_count + t->pv_index, depth);

        // Step 11. Shallow-depth pruning (never of checking moves)
        int reduction = Reductions[imin(depth, 63)][imin(move_count, 63)];
        if (!root && !in_check && best > -SCORE_MATE_IN_MAX) {
            Depth lmr_depth = imax(0, depth - 1 - reduction);
            if (!capture) {
                if ((late_move_prune_ok(depth, move_count, improving) ||
                     futility_prune_ok(lmr_depth, ss->static_eval, alpha)) &&
                    !move_gives_check(pos, m)) {
                    mp.skip_quiets = true;
                    continue;
                }
                if (see_quiet_prune_ok(pos, m, lmr_depth) && !move_gives_check(pos, m)) continue;
            } else if (see_capture_prune_ok(pos, m, depth) && !move_gives_check(pos, m)) {
                continue;
            }
        }

        // Step 12. Make the move; extend checks
        ss->move = m;
        ss->cont_hist = &t->cont[moved][move_to(m)];
        uint64_t nodes_before = thread_nodes(t);
        pos_make_move(pos, m);
        tt_prefetch(pos_key(pos));
        const bool gives_check = pos_in_check(pos);
        Depth new_depth = depth - 1 + check_extension_ok(t, ss, gives_check);
        Score score = -SCORE_INFINITE;

        // Step 13. Late move reductions, then the zero-window and full searches
        if (depth >= LMR_MIN_DEPTH && move_count > 1 + pv_node && (!capture || mp.stage == STAGE_BAD_CAPTURES)) {
            int r = reduction + !pv_node + cut_node - improving - gives_check;
            if (!capture) r -= quiet_history(t, ss, m) / LMR_HISTORY_DIVISOR;
            if (m == ss->killers[0] || m == ss->killers[1] || m == counter) r--;
            Depth d = imax(1, imin(new_depth, new_depth - r));
            score = -search(t, ss + 1, -alpha - 1, -alpha, d, true);
            if (score > alpha && d < new_depth) score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        } else if (!pv_node || move_count > 1) {
            score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        }
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search(t, ss + 1, -beta, -alpha, new_depth, false);
        pos_unmake_move(pos);
        if (stopped()) return 0;

        // Step 14. Bookkeeping: root moves, best score, principal variation
        if (root) {
            find_root_move(t, m)->nodes += thread_nodes(t) - nodes_before;
            update_root_move(t, ss, m, move_count, score, alpha, beta);
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) {
                    ss->pv[0] = m;
                    int n = imin((ss + 1)->pv_length, MAX_PLY - 1);
                    memcpy(ss->pv + 1, (ss + 1)->pv, sizeof(Move) * (size_t)n);
                    ss->pv_length = n + 1;
                }
                if (score >= beta) break;
                alpha = score;
            }
        }
        if (!capture && m != best_move && quiet_count < 64) quiets[quiet_count++] = m;
    }

    // Step 15. No legal move: mated (stalemate loses too in xiangqi)
    if (move_count == 0) return mated_in(ss->ply);

    // Step 16. History, killers, countermove
    if (best >= beta && !move_is_capture(pos, best_move)) update_quiet_stats(t, ss, best_move, quiets, quiet_count, depth);

    // Step 17. Store (not for the secondary MultiPV lines at the root)
    if (!root || t->pv_index == 0) {
        Bound bound = best >= beta ? BOUND_LOWER : pv_node && best_move ? BOUND_EXACT : BOUND_UPPER;
        tt_store(key, ss->ply, best_move, best, ss->static_eval, depth, bound);
    }
    return best;
}

/* ---------------------------------------------------------------------- */
/* Iterative deepening                                                     */

static void report_line(SearchThread *t, int i, int depth, Bound bound_override) {
    const RootMove *rm = &t->root_moves[i];
    bool fresh = rm->score != -SCORE_INFINITE;
    SearchInfo info = {
        .depth = fresh || depth == 1 ? depth : depth - 1,
        .seldepth = rm->seldepth,
        .multipv = i + 1,
        .score = fresh ? rm->score : rm->prev_score,
        .bound = bound_override != BOUND_NONE ? bound_override : fresh ? rm->bound : BOUND_EXACT,
        .nodes = threads_nodes(),
        .time_ms = now_ms() - S.start_ms,
        .hashfull = tt_hashfull(),
        .pv_length = rm->pv_length,
    };
    if (info.score == -SCORE_INFINITE || info.score == SCORE_NONE) return;
    memcpy(info.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_length);
    if (S.cb.info) S.cb.info(S.cb.ctx, &info);
}

/* Aspiration loop for MultiPV line t->pv_index at `depth`. */
static void search_line(SearchThread *t, SearchStack *ss, int depth) {
    const bool main = t->id == 0;
    Score prev = t->root_moves[t->pv_index].prev_score;
    int delta = ASPIRATION_WINDOW;
    Score alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    if (depth >= ASPIRATION_MIN_DEPTH && prev != -SCORE_INFINITE && !score_is_mate(prev)) {
        alpha = imax(prev - delta, -SCORE_INFINITE);
        beta = imin(prev + delta, SCORE_INFINITE);
    }
    for (;;) {
        t->seldepth = 0;
        Score score = search(t, ss, alpha, beta, depth, false);
        sort_root_moves(t, t->pv_index, t->root_count);
        if (stopped()) return;
        Bound failed = score <= alpha ? BOUND_UPPER : score >= beta ? BOUND_LOWER : BOUND_NONE;
        if (failed == BOUND_NONE) return;
        if (main && now_ms() - S.start_ms > BOUND_INFO_AFTER_MS) report_line(t, t->pv_index, depth, failed);
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
    const SearchLimits *l = &S.limits;
    Score score = t->root_moves[0].score;
    if (l->depth && depth >= l->depth) return true;
    if (l->mate && score >= mate_in(2 * l->mate)) return true;
    if (l->infinite || atomic_load(&S.pondering)) return false;
    if (!l->depth && score_is_mate(score) && depth >= SCORE_MATE - abs(score) + 4) return true;
    if (!S.tm.timed) return false;
    if (t->root_count == 1 && depth >= 4) return true;
    uint64_t total = 0;
    for (int i = 0; i < t->root_count; i++) total += t->root_moves[i].nodes;
    double share = total ? (double)t->root_moves[0].nodes / (double)total : 0.5;
    tm_update(&S.tm, depth, t->best_changes, prev_best == -SCORE_INFINITE ? 0 : prev_best - score, share);
    t->best_changes = 0;
    return tm_soft_exceeded(&S.tm, clock_elapsed());
}

static void iterative_deepening(SearchThread *t) {
    const bool main = t->id == 0;
    SearchStack *ss = t->stack + STACK_OFFSET;
    int max_depth = S.limits.depth > 0 ? imin(S.limits.depth, MAX_PLY - 1) : MAX_PLY - 1;
    int lines = imin(S.multipv, t->root_count);
    Score prev_best = -SCORE_INFINITE;
    for (int depth = 1; depth <= max_depth; depth++) {
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
        for (int i = 0; i < lines; i++) report_line(t, i, depth, BOUND_NONE);
        if (iteration_says_stop(t, depth, prev_best)) break;
        prev_best = t->root_moves[0].score;
    }
}

/* ---------------------------------------------------------------------- */
/* Driver                                                                  */

static void prepare_thread(SearchThread *t, const Position *root, const MoveList *legal) {
    memcpy(&t->pos, root, sizeof *root);
    t->pos.nnue = &t->nnue;
    atomic_store(&t->nodes, 0);
    t->seldepth = t->root_depth = t->completed_depth = t->pv_index = t->best_changes = 0;
    t->root_count = legal->count;
    for (int i = 0; i < legal->count; i++) {
        RootMove *rm = &t->root_moves[i];
        rm->move = legal->moves[i];
        rm->score = rm->prev_score = -SCORE_INFINITE;
        rm->bound = BOUND_NONE;
        rm->seldepth = 0;
        rm->nodes = 0;
        rm->pv[0] = legal->moves[i];
        rm->pv_length = 1;
    }
    for (int i = 0; i < STACK_SIZE; i++) {
        SearchStack *ss = &t->stack[i];
        memset(ss, 0, offsetof(SearchStack, pv));
        ss->ply = i - STACK_OFFSET;
        ss->static_eval = SCORE_NONE;
        ss->cont_hist = &t->cont[NO_PIECE][0];
    }
}

/* The legal root moves, restricted to limits->root_moves when given. */
static void root_move_list(const Position *pos, const SearchLimits *limits, MoveList *out) {
    MoveList legal;
    gen_legal(pos, &legal);
    if (limits->root_count <= 0) {
        *out = legal;
        return;
    }
    out->count = 0;
    for (int i = 0; i < legal.count; i++)
        for (int j = 0; j < limits->root_count; j++)
            if (legal.moves[i] == limits->root_moves[j]) {
                out->moves[out->count++] = legal.moves[i];
                break;
            }
}

static void *helper_main(void *arg) {
    iterative_deepening(arg);
    return NULL;
}

/* A reply to expect after `best`, from the PV or else from the table. */
static Move ponder_move(SearchThread *t) {
    const RootMove *rm = &t->root_moves[0];
    if (rm->pv_length > 1) return rm->pv[1];
    Position *pos = &t->pos;
    if (pos_history_full(pos)) return MOVE_NONE;
    pos_make_move(pos, rm->move);
    TTHit hit;
    Move reply = tt_probe(pos_key(pos), 1, &hit) && move_is_legal(pos, hit.move) ? hit.move : MOVE_NONE;
    pos_unmake_move(pos);
    return reply;
}

static void *driver_main(void *arg) {
    (void)arg;
    SearchThread *main = thread_at(0);
    MoveList moves;
    root_move_list(&S.root, &S.limits, &moves);
    for (int i = 0; i < threads_count(); i++) prepare_thread(thread_at(i), &S.root, &moves);

    Move best = MOVE_NONE, ponder = MOVE_NONE;
    Score score = mated_in(0);
    int depth = 0;
    if (moves.count > 0) {
        threads_launch_helpers(helper_main);
        iterative_deepening(main);
        atomic_store(&S.stop, true);
        threads_join_helpers();
        const RootMove *rm = &main->root_moves[0];
        best = rm->move;
        score = rm->score != -SCORE_INFINITE ? rm->score : rm->prev_score;
        if (score == -SCORE_INFINITE) score = SCORE_DRAW;
        depth = main->completed_depth;
        ponder = ponder_move(main);
    }

    /* Ponder and infinite searches hold their answer until released. */
    pthread_mutex_lock(&S.lock);
    while (!atomic_load(&S.stop_requested) && (S.limits.infinite || atomic_load(&S.pondering)))
        pthread_cond_wait(&S.cond, &S.lock);
    pthread_mutex_unlock(&S.lock);
    if (S.cb.bestmove) S.cb.bestmove(S.cb.ctx, best, ponder, score, depth);
    return NULL;
}

/* The driver thread could not be created (no memory for its stack): answer
 * at once with a legal move rather than never. */
static void answer_without_search(void) {
    MoveList moves;
    root_move_list(&S.root, &S.limits, &moves);
    Move best = moves.count ? moves.moves[0] : MOVE_NONE;
    if (S.cb.bestmove) S.cb.bestmove(S.cb.ctx, best, MOVE_NONE, best != MOVE_NONE ? SCORE_DRAW : mated_in(0), 0);
}

static void init_tables(void) {
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) Reductions[d][m] = (int)(0.75 + log(d) * log(m) / 2.25);
    for (int d = 0; d <= LMP_MAX_DEPTH; d++) {
        LateMoveCount[0][d] = (3 + d * d) / 2;
        LateMoveCount[1][d] = 3 + d * d;
    }
}

void search_init(void) {
    if (S.initialised) return;
    engine_init();
    init_tables();
    if (!tt_resize((size_t)Options.hash_mb)) tt_resize(1);
    threads_resize(Options.threads > 0 ? Options.threads : 1);
    S.initialised = true;
}

bool search_resize_hash(int mb) {
    search_init();
    if (mb < 1) mb = 1;
    if (!tt_resize((size_t)mb)) return false;
    Options.hash_mb = mb;
    return true;
}

void search_clear(void) {
    search_init();
    search_wait();
    tt_clear();
    threads_clear();
}

void search_start(const Position *pos, const SearchLimits *limits, const SearchCallbacks *cb) {
    search_init();
    search_wait();
    int want = Options.threads > 0 ? Options.threads : 1;
    if (want != threads_count()) threads_resize(want);
    memcpy(&S.root, pos, sizeof *pos);
    S.limits = *limits;
    S.cb = *cb;
    S.multipv = Options.multipv > 1 ? Options.multipv : 1;
    atomic_store(&S.stop, false);
    atomic_store(&S.stop_requested, false);
    atomic_store(&S.pondering, limits->ponder);
    S.start_ms = now_ms();
    atomic_store(&S.clock_ms, S.start_ms);
    tm_init(&S.tm, limits, Options.move_overhead_ms, Options.ponder_enabled);
    tt_new_search();
    S.running = pthread_create(&S.driver, NULL, driver_main, NULL) == 0;
    if (!S.running) answer_without_search();
}

void search_stop(void) {
    pthread_mutex_lock(&S.lock);
    atomic_store(&S.stop_requested, true);
    atomic_store(&S.stop, true);
    pthread_cond_broadcast(&S.cond);
    pthread_mutex_unlock(&S.lock);
}

void search_ponderhit(void) {
    pthread_mutex_lock(&S.lock);
    atomic_store(&S.clock_ms, now_ms());
    atomic_store(&S.pondering, false);
    pthread_cond_broadcast(&S.cond);
    pthread_mutex_unlock(&S.lock);
}

void search_wait(void) {
    if (!S.running) return;
    pthread_join(S.driver, NULL);
    S.running = false;
}

bool search_running(void) { return S.running; }

void search_shutdown(void) {
    search_stop();
    search_wait();
    tt_free();
    threads_free();
    S.initialised = false;
}

ProbeResult search_probe(const Position *pos) {
    search_init();
    ProbeResult r = {0};
    TTHit hit;
    if (!tt_probe(pos_key(pos), 0, &hit)) return r;
    r.found = true;
    r.move = move_is_legal(pos, hit.move) ? hit.move : MOVE_NONE;
    r.score = hit.score;
    r.bound = hit.bound;
    r.depth = hit.depth;
    return r;
}
