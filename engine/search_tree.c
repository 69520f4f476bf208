// SPDX-License-Identifier: GPL-3.0-or-later
/* The tree below the root: principal variation search with quiescence,
 * pruning, reductions and extensions, the xiangqi draw and repetition rules
 * inside the tree, and the statistics the move ordering learns from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "egtb/egtb_probe.h"
#include "eval.h"
#include "movegen.h"
#include "movepick.h"
#include "repetition.h"
#include "search_params.h"
#include "search_shared.h"
#include "search_stats.h"
#include "see.h"
#include "skill/grades.h"
#include "skill/idle.h"
#include "tt.h"

/* Fixed constants of the tree; the tunable ones are in search_params.h. */
static const int NMP_MIN_DEPTH = 3;
static const int IIR_PV_REDUCTION = 2;
static const int SEE_PER_EVAL = 4; /* SEE units per evaluation unit (a chariot: 900 vs ~250) */
enum { LMP_MAX_DEPTH = 10, REDUCTION_TABLE = 64, MAX_TRIED = 32 };
static const int CURRMOVE_AFTER_MS = 1000;
/* A table result is exact to any depth: stored this much deeper than the
 * node's depth so that searches of the node keep it. */
static const int TB_DEPTH_BONUS = 6;
/* Rough piece values in evaluation units, for futility margins. */
static const int EvalPieceValue[TYPE_NB] = {0, 0, 30, 25, 100, 250, 100, 30};

static int Reductions[REDUCTION_TABLE][REDUCTION_TABLE]; /* 1/1024 ply */
static int LateMoveCount[2][LMP_MAX_DEPTH + 1];

/* ---------------------------------------------------------------------- */
/* Limits                                                                  */

/* Stop on the node budget (main thread) and on the hard time limit (every
 * thread: when threads outnumber free processors the main thread may wait
 * long for a time slice, and the clock must not run out meanwhile). */
static void check_limits(SearchThread *t) {
    uint64_t n = thread_nodes(t);
    if (Shared.limits.nodes && t->id == 0) {
        uint64_t total = threads_count() == 1 ? n : ((n & 1023) == 0 ? threads_nodes() : 0);
        if (total >= Shared.limits.nodes) atomic_store(&Shared.stop, true);
    }
    if ((n & 1023) != 0) return;
    int64_t elapsed = clock_elapsed();
    bool over = Shared.node_time ? tm_hard_exceeded(&Shared.tm, search_clock_spent()) || elapsed >= Shared.real_hard_ms
                                 : tm_hard_exceeded(&Shared.tm, elapsed);
    if (over && !atomic_load(&Shared.pondering)) atomic_store(&Shared.stop, true);
    if (Shared.idle_duty < IDLE_DUTY_FULL) {
        idle_pace(Shared.idle_duty);
    } else if (t->id == 0) {
        /* 1024 nodes take about a millisecond; a longer wait is the
         * machine's (a ponderhit restarts the clock: never negative). */
        if (elapsed - Shared.last_check_ms > Shared.longest_gap_ms) Shared.longest_gap_ms = elapsed - Shared.last_check_ms;
        Shared.last_check_ms = elapsed;
    }
}


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

/* A draw for the side to move at ply: the root side's contempt (style)
 * counts against it, the opponent's for it. */
static inline Score draw_score(int ply) { return ply & 1 ? Shared.contempt : -Shared.contempt; }

/*
 * The verdict of the game rules on the current position, for the side to
 * move: SCORE_NONE when play goes on. The no-capture limit is a draw
 * unless the side to move is mated or stalemated there. A
 * repetition of an earlier position since the last capture (and not across
 * a null move) goes to the Asian-rules judge (repetition.h): perpetual check
 * or chase loses for the side doing it, anything else is a draw. Rule wins
 * and losses score like a mate at this ply so the search avoids them as
 * firmly as a mate.
 */
static Score rule_verdict(const Position *pos, int ply) {
    const StateInfo *st = pos_state(pos);
    /* A mate (or stalemate) given on the limit's last ply still decides, as
     * the referee rules (docs/matches.md): no legal move comes first. */
    if (Options.draw_plies > 0 && st->rule60 >= Options.draw_plies)
        return gen_count_legal(pos) ? draw_score(ply) : mated_in(ply);
    int window = imin(st->rule60, pos->game_ply);
    for (int d = 1; d <= window; d++) {
        if (pos->history[pos->game_ply - d + 1].move == MOVE_NULL) break;
        if (d < 4 || (d & 1) || pos->history[pos->game_ply - d].key != st->key) continue;
        switch (rep_judge_cycle(pos, pos->game_ply - d).verdict) {
        case REP_WIN: return mate_in(ply);
        case REP_LOSS: return mated_in(ply);
        default: return draw_score(ply);
        }
    }
    return SCORE_NONE;
}

/* ---------------------------------------------------------------------- */
/* Endgame tables                                                          */

/* Probe the tables here? Only just after a capture (the no-capture count
 * starts again, so no repetition since can have happened and the move
 * limit is far: the table's verdict stands on its own; docs/egtb.md, "In
 * the search"), with no more pieces than the largest table: one comparison
 * when no tables are loaded. */
static inline bool tb_probe_ok(const Position *pos) {
    return Shared.tb_pieces && pos_state(pos)->rule60 == 0 && bb_popcount(pos->occ) - 2 <= Shared.tb_pieces;
}

static inline void tb_count_hit(SearchThread *t) {
    atomic_store_explicit(&t->tbhits, atomic_load_explicit(&t->tbhits, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* The WDL probe of a node, as the Stockfish family does it: a table result
 * that settles the node (a draw, a win at or above beta, a loss at or below
 * alpha) is stored in the transposition table and returned; otherwise
 * SCORE_NONE, and at PV nodes a win becomes a floor for the node's score
 * (and raises alpha), a loss a ceiling. */
static Score tb_probe_node(SearchThread *t, SearchStack *ss, Key key, Score *alpha, Score beta, Depth depth,
                           Score *floor, Score *ceiling) {
    EgtbWdl wdl;
    if (!egtb_probe_wdl(&t->pos, &wdl)) return SCORE_NONE;
    tb_count_hit(t);
    Score v = tb_score(wdl, ss->ply, draw_score(ss->ply));
    Bound b = wdl == EGTB_WIN ? BOUND_LOWER : wdl == EGTB_LOSS ? BOUND_UPPER : BOUND_EXACT;
    if (b == BOUND_EXACT || (b == BOUND_LOWER ? v >= beta : v <= *alpha)) {
        tt_store(key, ss->ply, MOVE_NONE, v, SCORE_NONE, imin(MAX_PLY - 1, depth + TB_DEPTH_BONUS), b, ss->tt_pv);
        return v;
    }
    const bool pv_node = beta - *alpha > 1;
    if (pv_node && b == BOUND_LOWER) *floor = v, *alpha = imax(*alpha, v);
    if (pv_node && b == BOUND_UPPER) *ceiling = v;
    return SCORE_NONE;
}

/* ---------------------------------------------------------------------- */
/* Pruning predicates                                                      */

static inline bool tt_cutoff_ok(const TTHit *hit, Score beta) {
    return hit->score != SCORE_NONE && (hit->bound & (hit->score >= beta ? BOUND_LOWER : BOUND_UPPER));
}

/* The TT score is a better guess than the static eval when its bound says so. */
static inline Score eval_from_tt(const TTHit *hit, Score eval) {
    if (hit->found && hit->score != SCORE_NONE && (hit->bound & (hit->score > eval ? BOUND_LOWER : BOUND_UPPER)))
        return hit->score;
    return eval;
}

/* Reverse futility: the static eval beats beta by a depth-scaled margin. */
static inline bool reverse_futility_ok(Depth depth, Score eval, Score beta, bool improving) {
    return depth <= RFP_MAX_DEPTH && eval < SCORE_TB_WIN_IN_MAX && beta > -SCORE_TB_WIN_IN_MAX &&
           eval - RFP_MARGIN * depth + RFP_IMPROVING * improving >= beta;
}

/* Razoring: so far below alpha that only captures could save the node. */
static inline bool razoring_ok(Depth depth, Score eval, Score alpha) {
    return depth <= RAZOR_MAX_DEPTH && eval < alpha - RAZOR_BASE - RAZOR_DEPTH2 * depth * depth;
}

/* Enough material that passing is never best (no zugzwang): a chariot, or
 * two of horses and cannons. */
static inline bool null_move_material_ok(const Position *pos, Color c) {
    return pos_pieces(pos, c, ROOK) || bb_popcount(pos_pieces(pos, c, HORSE) | pos_pieces(pos, c, CANNON)) >= 2;
}

static inline bool null_move_ok(const SearchThread *t, const SearchStack *ss, Depth depth, Score eval, Score beta) {
    return Shared.null_move && depth >= NMP_MIN_DEPTH && (ss - 1)->move != MOVE_NULL && !ss->excluded && eval >= beta &&
           ss->static_eval >= beta - NMP_DEPTH_MARGIN * depth + NMP_MARGIN && beta > -SCORE_TB_WIN_IN_MAX &&
           ss->ply >= t->nmp_min_ply && null_move_material_ok(&t->pos, t->pos.side);
}

/* Late move pruning: enough quiet moves tried at shallow depth. */
static inline bool late_move_prune_ok(Depth depth, int move_count, bool improving) {
    return depth <= LMP_MAX_DEPTH && move_count >= LateMoveCount[improving][depth];
}

/* Futility: a quiet move cannot lift the static eval up to alpha. */
static inline bool futility_prune_ok(Depth lmr_depth, Score static_eval, Score alpha) {
    return lmr_depth < FUT_MAX_DEPTH && static_eval + FUT_BASE + FUT_PER_DEPTH * lmr_depth <= alpha;
}

/* Fail-high scores pulled towards beta (FAIL_HIGH_BLEND; score.h). */
static inline Score blend_fail_high(Score best, Score beta, Depth depth) {
    return FAIL_HIGH_BLEND ? score_fail_high_blend(best, beta, depth) : best;
}

/* Reduction of the move_count-th move at depth, in 1/1024 ply. */
static inline int base_reduction(Depth depth, int move_count) {
    return Reductions[imin(depth, REDUCTION_TABLE - 1)][imin(move_count, REDUCTION_TABLE - 1)];
}

/* ---------------------------------------------------------------------- */
/* Move ordering inputs                                                    */

static OrderingTables ordering_tables(SearchThread *t, const SearchStack *ss) {
    OrderingTables o = {
        .main = &t->history,
        .low_ply = ss->ply < LOW_PLY ? (const int16_t(*)[SQUARE_NB])t->low_ply[ss->ply] : NULL,
        .capture = &t->capture,
        .cont = {(ss - 1)->cont_hist, (ss - 2)->cont_hist, (ss - 4)->cont_hist, (ss - 6)->cont_hist},
    };
    return o;
}

/* Continuation-history score of quiet move m at ss (history pruning). */
static inline int quiet_cont_score(const SearchThread *t, const SearchStack *ss, Move m) {
    Piece p = t->pos.board[move_from(m)];
    Square to = move_to(m);
    return (*(ss - 1)->cont_hist)[p][to] + (*(ss - 2)->cont_hist)[p][to] + (*(ss - 4)->cont_hist)[p][to];
}

/* History score of quiet move m at ss (reductions, futility depth). */
static inline int quiet_stat_score(const SearchThread *t, const SearchStack *ss, Move m) {
    return 2 * t->history[t->pos.side][move_from(m)][move_to(m)] + quiet_cont_score(t, ss, m);
}

static inline int capture_stat_score(const SearchThread *t, Move m) {
    const Position *pos = &t->pos;
    return t->capture[pos->board[move_from(m)]][move_to(m)][type_of(pos->board[move_to(m)])];
}

/* ---------------------------------------------------------------------- */
/* Root moves                                                              */

static RootMove *find_root_move(SearchThread *t, Move m) {
    for (int i = t->pv_index; i < t->root_count; i++)
        if (t->root_moves[i].move == m) return &t->root_moves[i];
    return NULL;
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

static inline void update_pv(SearchStack *ss, Move m) {
    ss->pv[0] = m;
    int n = imin((ss + 1)->pv_length, MAX_PLY - 1);
    memcpy(ss->pv + 1, (ss + 1)->pv, sizeof(Move) * (size_t)n);
    ss->pv_length = n + 1;
}

/* ---------------------------------------------------------------------- */
/* Quiescence                                                              */

/* qdepth is 0 on the first quiescence ply (quiet checks are tried there
 * too, so a mate by a quiet check is not lost at the horizon) and negative
 * below it. */
static Score qsearch(SearchThread *t, SearchStack *ss, Score alpha, Score beta, int qdepth) {
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    ss->pv_length = 0;

    // Step 1. Node accounting and abort
    if (!enter_node(t, ss)) return 0;

    // Step 2. Draws, repetitions, ply limit
    Score verdict = rule_verdict(pos, ss->ply);
    if (verdict != SCORE_NONE) return verdict;
    const bool in_check = ss->in_check = pos_in_check(pos);
    if (ss->ply >= MAX_PLY - 1 || pos->game_ply >= MAX_HISTORY - 2) return in_check ? SCORE_DRAW : evaluate(pos);

    // Step 3. Transposition table
    const Key key = pos_key(pos);
    TTHit hit;
    tt_probe(key, ss->ply, &hit);
    const bool tt_pv = hit.found && hit.pv;
    if (!pv_node && hit.found && tt_cutoff_ok(&hit, beta)) return hit.score;

    // Step 4. Stand pat (not in check: then every evasion is searched)
    Score best = -SCORE_INFINITE, raw = SCORE_NONE, futility_base = -SCORE_INFINITE;
    if (in_check) {
        ss->static_eval = SCORE_NONE;
    } else {
        raw = ss->raw_eval = hit.found && hit.eval != SCORE_NONE ? hit.eval : evaluate(pos);
        ss->static_eval = corr_apply(&t->correction, pos, raw);
        best = eval_from_tt(&hit, ss->static_eval);
        if (best >= beta) {
            best = blend_fail_high(best, beta, 1);
            if (!hit.found) tt_store(key, ss->ply, MOVE_NONE, best, raw, 0, BOUND_LOWER, false);
            return best;
        }
        if (best > alpha) alpha = best;
        futility_base = ss->static_eval + QS_FUT_MARGIN;
    }

    // Step 5. Captures (or evasions); futile and losing captures skipped
    MovePicker mp;
    OrderingTables tables = ordering_tables(t, ss);
    mp_init_qsearch(&mp, pos, hit.move, QS_CHECKS && qdepth == 0, &tables);
    Move m, best_move = MOVE_NONE;
    int legal = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (!pos_move_is_safe(pos, m)) continue;
        legal++;
        if (!in_check && best > -SCORE_TB_WIN_IN_MAX && move_is_capture(pos, m)) {
            Score futility = futility_base + EvalPieceValue[type_of(pos->board[move_to(m)])];
            if (futility <= alpha && !move_gives_check(pos, m)) {
                best = imax(best, futility);
                continue;
            }
            if (futility_base <= alpha && !see_ge(pos, m, 1)) {
                best = imax(best, futility_base);
                continue;
            }
            if (!see_ge(pos, m, QS_SEE_MARGIN)) continue;
        }
        ss->move = m;
        ss->cont_hist = &t->cont[pos->board[move_from(m)]][move_to(m)];
        pos_make_move(pos, m);
        tt_prefetch(pos_key(pos));
        Score score = -qsearch(t, ss + 1, -beta, -alpha, qdepth - 1);
        pos_unmake_move(pos);
        if (stopped()) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(ss, m);
                if (score >= beta) break;
                alpha = score;
            }
        }
    }

    // Step 6. Mated (in check with no evasion)
    if (in_check && legal == 0) return mated_in(ss->ply);

    // Step 7. Store
    best = blend_fail_high(best, beta, 1);
    Bound bound = best >= beta ? BOUND_LOWER : pv_node && best_move ? BOUND_EXACT : BOUND_UPPER;
    tt_store(key, ss->ply, best_move, best, raw, 0, bound, tt_pv);
    return best;
}

/* ---------------------------------------------------------------------- */
/* Principal variation search                                              */


/* ProbCut: a capture whose shallow search already beats beta by a margin
 * would very likely make the full search fail high too. Returns the score
 * that proves it, or SCORE_NONE. */
static Score probcut(SearchThread *t, SearchStack *ss, Score beta, Depth depth, bool cut_node, bool improving,
                     const TTHit *hit, Move tt_move) {
    Position *pos = &t->pos;
    Score pc_beta = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * improving;
    if (hit->found && hit->depth >= depth - 3 && hit->score != SCORE_NONE && hit->score < pc_beta) return SCORE_NONE;
    MovePicker mp;
    OrderingTables tables = ordering_tables(t, ss);
    mp_init_probcut(&mp, pos, tt_move, (pc_beta - ss->static_eval) * SEE_PER_EVAL, &tables);
    Move m;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (!pos_move_is_safe(pos, m)) continue;
        ss->move = m;
        ss->cont_hist = &t->cont[pos->board[move_from(m)]][move_to(m)];
        pos_make_move(pos, m);
        tt_prefetch(pos_key(pos));
        Score score = -qsearch(t, ss + 1, -pc_beta, -pc_beta + 1, 0);
        if (score >= pc_beta) score = -search_tree(t, ss + 1, -pc_beta, -pc_beta + 1, depth - 4, !cut_node);
        pos_unmake_move(pos);
        if (stopped()) return 0;
        if (score >= pc_beta) {
            tt_store(pos_key(pos), ss->ply, m, score, ss->raw_eval, depth - 3, BOUND_LOWER, ss->tt_pv);
            return score;
        }
    }
    return SCORE_NONE;
}

/* Singular extension search: is the TT move the only good one here? Returns
 * the extension (2 or 3 for a move far better than all others, 1 for a
 * singular one, negative when others are good too), or SCORE_NONE with
 * *cut set to the multi-cut score when several moves beat beta. */
static int singular_extension(SearchThread *t, SearchStack *ss, Score beta, Depth depth, bool pv_node, bool cut_node,
                              const TTHit *hit, Move tt_move, bool tt_capture, Score *cut) {
    Score singular_beta = hit->score - (SE_MARGIN + SE_MARGIN * (ss->tt_pv && !pv_node)) * depth / 16;
    ss->excluded = tt_move;
    Score v = search_tree(t, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
    ss->excluded = MOVE_NONE;
    if (stopped()) return 0;
    if (v < singular_beta) {
        if (pv_node || ss->double_extensions > SE_MAX_DOUBLE || v >= singular_beta - SE_DOUBLE_MARGIN) return 1;
        return !tt_capture && v < singular_beta - SE_TRIPLE_MARGIN ? 3 : 2;
    }
    if (singular_beta >= beta) {
        *cut = singular_beta;
        return SCORE_NONE;
    }
    if (hit->score >= beta) return -2;
    if (cut_node) return -2;
    return hit->score <= v ? -1 : 0;
}

Score search_tree(SearchThread *t, SearchStack *ss, Score alpha, Score beta, Depth depth, bool cut_node) {
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    const bool root = ss->ply == 0;
    const Move excluded = ss->excluded;

    // Step 1. Quiescence at the horizon
    if (depth <= 0) return qsearch(t, ss, alpha, beta, 0);

    // Step 2. Node accounting and abort
    ss->pv_length = 0;
    if (!enter_node(t, ss)) return 0;
    const bool in_check = ss->in_check = pos_in_check(pos);

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
    (ss + 1)->excluded = MOVE_NONE;
    (ss + 2)->cutoffs = 0;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    if (!excluded) ss->double_extensions = root ? 0 : (ss - 1)->double_extensions;

    // Step 5. Transposition table (not inside a singular search of this node)
    const Key key = pos_key(pos);
    TTHit hit;
    if (excluded)
        memset(&hit, 0, sizeof hit), hit.score = hit.eval = SCORE_NONE;
    else
        tt_probe(key, ss->ply, &hit);
    const Move tt_move = root ? t->root_moves[t->pv_index].move : hit.move;
    const bool tt_capture = tt_move && move_is_capture(pos, tt_move);
    ss->tt_hit = hit.found;
    if (!excluded) ss->tt_pv = pv_node || (hit.found && hit.pv);
    if (!pv_node && !excluded && hit.found && hit.depth >= depth && tt_cutoff_ok(&hit, beta)) {
        if (tt_move && hit.score >= beta && !tt_capture && move_is_pseudo_legal(pos, tt_move))
            stats_quiet_cutoff(t, ss, tt_move, history_bonus(depth));
        return hit.score;
    }

    // Step 5a. Endgame tables (WDL), just after a capture
    Score tb_floor = -SCORE_INFINITE, tb_ceiling = SCORE_INFINITE;
    if (!root && !excluded && tb_probe_ok(pos)) {
        Score v = tb_probe_node(t, ss, key, &alpha, beta, depth, &tb_floor, &tb_ceiling);
        if (v != SCORE_NONE) return v;
    }

    // Step 6. Static evaluation, corrected; improving
    Score eval = SCORE_NONE;
    bool improving = false;
    if (in_check) {
        ss->static_eval = ss->raw_eval = SCORE_NONE;
        goto moves_loop;
    }
    if (!excluded) {
        ss->raw_eval = hit.found && hit.eval != SCORE_NONE ? hit.eval : evaluate(pos);
        ss->static_eval = corr_apply(&t->correction, pos, ss->raw_eval);
        if (!hit.found) tt_store(key, ss->ply, MOVE_NONE, SCORE_NONE, ss->raw_eval, -TT_DEPTH_OFFSET + 1, BOUND_NONE, ss->tt_pv);
    }
    eval = eval_from_tt(&hit, ss->static_eval);
    if ((ss - 2)->static_eval != SCORE_NONE)
        improving = ss->static_eval > (ss - 2)->static_eval;
    else
        improving = (ss - 4)->static_eval == SCORE_NONE || ss->static_eval > (ss - 4)->static_eval;

    if (!pv_node) {
        // Step 7. Razoring
        if (!improving && razoring_ok(depth, eval, alpha)) {
            Score v = qsearch(t, ss, alpha - 1, alpha, 0);
            if (v < alpha) return v;
        }
        // Step 8. Reverse futility pruning
        if (!ss->tt_pv && reverse_futility_ok(depth, eval, beta, improving)) return eval;

        // Step 9. Null move pruning, verified at high depth
        if (null_move_ok(t, ss, depth, eval, beta)) {
            int r = NMP_BASE + depth / NMP_DEPTH_DIV + imin(3, (eval - beta) / NMP_EVAL_DIV);
            ss->move = MOVE_NULL;
            ss->cont_hist = &t->cont[NO_PIECE][0];
            pos_make_null(pos);
            Score v = -search_tree(t, ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            pos_unmake_null(pos);
            if (stopped()) return 0;
            if (v >= beta && v < SCORE_TB_WIN_IN_MAX) {
                if (t->nmp_min_ply || depth < NMP_VERIFY_DEPTH) return v;
                t->nmp_min_ply = ss->ply + 3 * (depth - r) / 4;
                Score verified = search_tree(t, ss, beta - 1, beta, depth - r, false);
                t->nmp_min_ply = 0;
                if (verified >= beta) return v;
            }
        }
    }

    // Step 10. Internal iterative reduction: no hash move to guide the node
    if (pv_node && !tt_move) {
        depth -= IIR_PV_REDUCTION;
        if (depth <= 0) return qsearch(t, ss, alpha, beta, 0);
    }
    if (cut_node && depth >= IIR_CUT_DEPTH && !tt_move) depth -= 2;

    // Step 11. ProbCut
    if (!pv_node && !excluded && depth >= PROBCUT_MIN_DEPTH && abs(beta) < SCORE_TB_WIN_IN_MAX) {
        Score v = probcut(t, ss, beta, depth, cut_node, improving, &hit, tt_move);
        if (stopped()) return 0;
        if (v != SCORE_NONE) return v;
    }

moves_loop:;
    // Step 12. Move loop
    Move prev = (ss - 1)->move;
    Move counter = prev != MOVE_NONE && prev != MOVE_NULL ? t->counter[pos->board[move_to(prev)]][move_to(prev)]
                                                          : MOVE_NONE;
    MovePicker mp;
    OrderingTables tables = ordering_tables(t, ss);
    mp_init(&mp, pos, tt_move, ss->killers, counter, &tables);
    Move quiets[MAX_TRIED], captures[MAX_TRIED];
    int quiet_count = 0, capture_count = 0, move_count = 0;
    Score best = tb_floor;
    Move best_move = MOVE_NONE, m;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        if (m == excluded) continue;
        if (root && !find_root_move(t, m)) continue;
        if (!pos_move_is_safe(pos, m)) continue;
        move_count++;
        const bool capture = move_is_capture(pos, m);
        const Piece moved = pos->board[move_from(m)];
        if (root && t->id == 0 && Shared.cb.currmove && now_ms() - Shared.start_ms > CURRMOVE_AFTER_MS)
            Shared.cb.currmove(Shared.cb.ctx, m, move_count + t->pv_index, depth);
        Depth new_depth = depth - 1;
        int r = base_reduction(depth, move_count);

        // Step 13. Shallow-depth pruning (never of checking moves)
        if (!root && !in_check && best > -SCORE_TB_WIN_IN_MAX) {
            Depth lmr_depth = new_depth - r / 1024;
            if (!capture) {
                int cont = quiet_cont_score(t, ss, m);
                if ((late_move_prune_ok(depth, move_count, improving) ||
                     (lmr_depth < HIST_PRUNE_DEPTH && cont < -HIST_PRUNE_MARGIN * depth)) &&
                    !move_gives_check(pos, m)) {
                    if (late_move_prune_ok(depth, move_count, improving)) mp.skip_quiets = true;
                    continue;
                }
                lmr_depth = imax(0, lmr_depth + (cont + 2 * t->history[pos->side][move_from(m)][move_to(m)]) /
                                               HIST_LMR_DEPTH_DIV);
                if (futility_prune_ok(lmr_depth, ss->static_eval, alpha) && !move_gives_check(pos, m)) continue;
                if (!see_ge(pos, m, -SEE_QUIET_MARGIN * lmr_depth * lmr_depth) && !move_gives_check(pos, m)) continue;
            } else {
                int hist = capture_stat_score(t, m);
                Score futility = ss->static_eval + FUT_CAP_BASE + FUT_CAP_PER_DEPTH * imax(0, lmr_depth) +
                                 EvalPieceValue[type_of(pos->board[move_to(m)])];
                if (lmr_depth < FUT_MAX_DEPTH && futility <= alpha && !move_gives_check(pos, m)) continue;
                if (!see_ge(pos, m, -SEE_CAP_MARGIN * depth - hist / SEE_CAP_HIST_DIV) && !move_gives_check(pos, m))
                    continue;
            }
        }

        // Step 14. Singular extension of the TT move (checks: after the make)
        int extension = 0;
        if (ss->ply < 2 * t->root_depth) {
            if (!root && m == tt_move && !excluded && depth >= SE_MIN_DEPTH - (ss->tt_pv && !pv_node) &&
                hit.score != SCORE_NONE && !score_is_decisive(hit.score) && (hit.bound & BOUND_LOWER) &&
                hit.depth >= depth - 3) {
                Score cut = SCORE_NONE;
                extension = singular_extension(t, ss, beta, depth, pv_node, cut_node, &hit, tt_move, tt_capture, &cut);
                if (stopped()) return 0;
                if (extension == SCORE_NONE) return cut;
            }
        }
        ss->double_extensions = (root ? 0 : (ss - 1)->double_extensions) + (extension >= 2);
        ss->move_count = move_count;

        // Step 15. Make the move
        ss->move = m;
        ss->cont_hist = &t->cont[moved][move_to(m)];
        ss->stat_score = capture ? capture_stat_score(t, m) / 2 : quiet_stat_score(t, ss, m);
        uint64_t nodes_before = thread_nodes(t);
        pos_make_move(pos, m);
        tt_prefetch(pos_key(pos));
        const bool gives_check = pos_in_check(pos);
        if (gives_check && extension == 0 && depth >= CHECK_EXT_MIN_DEPTH && ss->ply < 2 * t->root_depth)
            extension = 1;
        new_depth += extension;
        Score score = -SCORE_INFINITE;

        // Step 16. Late move reductions, then the zero-window and full searches
        if (depth >= 2 && move_count > 1 + root && (!capture || !ss->tt_pv || cut_node)) {
            r += !pv_node * LMR_PV + !improving * LMR_IMPROVING + cut_node * LMR_CUT_NODE;
            r += (tt_capture && !capture) * LMR_TT_CAPTURE + ((ss + 1)->cutoffs > 3) * LMR_CUTOFFS;
            r -= ss->tt_pv * LMR_TT_PV + gives_check * LMR_GIVES_CHECK;
            if (m == ss->killers[0] || m == ss->killers[1] || m == counter) r -= LMR_REFUTATION;
            r -= ss->stat_score * 1024 / LMR_HISTORY_DIV;
            r = r * Shared.reduction_percent / 100;
            Depth d = imax(1, imin(new_depth, new_depth - r / 1024));
            score = -search_tree(t, ss + 1, -alpha - 1, -alpha, d, true);
            if (score > alpha && d < new_depth) {
                new_depth += (score > best + LMR_DEEPER_MARGIN + new_depth / 2) - (score < best + new_depth / 4);
                if (new_depth > d) score = -search_tree(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
                int bonus = score <= alpha ? -history_malus(new_depth) : score >= beta ? history_bonus(new_depth) : 0;
                if (bonus) stats_update_continuation(ss, moved, move_to(m), bonus);
            }
        } else if (!pv_node || move_count > 1) {
            score = -search_tree(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
        }
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search_tree(t, ss + 1, -beta, -alpha, new_depth, false);
        pos_unmake_move(pos);
        if (stopped()) return 0;

        // Step 17. Bookkeeping: root moves, best score, principal variation
        if (root) {
            find_root_move(t, m)->nodes += thread_nodes(t) - nodes_before;
            update_root_move(t, ss, m, move_count, score, alpha, beta);
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(ss, m);
                if (score >= beta) {
                    ss->cutoffs += 1 + !tt_move;
                    break;
                }
                alpha = score;
            }
        }
        if (m != best_move) {
            if (capture && capture_count < MAX_TRIED) captures[capture_count++] = m;
            else if (!capture && quiet_count < MAX_TRIED) quiets[quiet_count++] = m;
        }
    }

    // Step 18. No legal move: mated (stalemate loses too in xiangqi)
    if (move_count == 0) return excluded ? alpha : mated_in(ss->ply);

    // Step 19. Statistics: the best move, and the opponent's move that
    // made this node fail low
    if (best_move)
        stats_update_all(t, ss, best_move, depth, quiets, quiet_count, captures, capture_count);
    else if (prev != MOVE_NONE && prev != MOVE_NULL && !pos_state(pos)->captured)
        stats_update_continuation(ss - 1, pos->board[move_to(prev)], move_to(prev), history_bonus(depth));
    if (best <= alpha) ss->tt_pv = ss->tt_pv || ((ss - 1)->tt_pv && depth > 3);
    best = imin(best, tb_ceiling);
    if (!excluded) best = blend_fail_high(best, beta, depth);

    // Step 20. Store (not in a singular search, nor for the secondary
    // MultiPV lines at the root), and teach the correction history
    if (!excluded && (!root || t->pv_index == 0)) {
        Bound bound = best >= beta ? BOUND_LOWER : pv_node && best_move ? BOUND_EXACT : BOUND_UPPER;
        tt_store(key, ss->ply, best_move, best, ss->raw_eval, depth, bound, ss->tt_pv);
    }
    if (!in_check && !excluded && (!best_move || !move_is_capture(pos, best_move)) &&
        !(best >= beta && best <= ss->static_eval) && !(!best_move && best >= ss->static_eval))
        corr_update(&t->correction, pos, depth, best, ss->static_eval);
    return best;
}

/* ---------------------------------------------------------------------- */
/* Tables                                                                  */

void search_tree_init_tables(void) {
    for (int d = 1; d < REDUCTION_TABLE; d++)
        for (int m = 1; m < REDUCTION_TABLE; m++) Reductions[d][m] = LMR_BASE + (int)(LMR_SCALE * log(d) * log(m));
    int factor = grade_late_move_factor(Options.pruning); /* 0: no late-move pruning */
    for (int d = 0; d <= LMP_MAX_DEPTH; d++) {
        LateMoveCount[0][d] = factor ? (LMP_BASE + d * d) / 2 * factor : MAX_MOVES;
        LateMoveCount[1][d] = factor ? (LMP_BASE + d * d) * factor : MAX_MOVES;
    }
}
