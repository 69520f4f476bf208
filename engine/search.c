// SPDX-License-Identifier: GPL-3.0-or-later
/* The search driver: runs the search (search_iterate.c, search_tree.c) on
 * its own thread and its helpers under the contract of search.h, picks the
 * answer among the threads, and holds it while pondering. */
#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "egtb/egtb_probe.h"
#include "movegen.h"
#include "search_shared.h"
#include "skill/grades.h"
#include "tt.h"

#define SEARCH_DEFAULTS                                                                                            \
    {.hash_mb = 64, .threads = 1, .multipv = 1, .move_overhead_ms = 30, .draw_plies = 120,                         \
     .skill = {.level = SKILL_LEVEL_MAX, .elo = SKILL_ELO_DEFAULT}, .style = STYLE_NORMAL, .pruning = GRADE_LARGE, \
     .idle = GRADE_NONE, .use_egtb = true}
const SearchOptions SearchDefaults = SEARCH_DEFAULTS;
SearchOptions Options = SEARCH_DEFAULTS;

/* Shared state of the running search (search_shared.h). */
SearchShared Shared = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

/* ---------------------------------------------------------------------- */
/* Driver                                                                  */

static void prepare_thread(SearchThread *t, const Position *root, const MoveList *legal, const Score *tb_scores) {
    memcpy(&t->pos, root, sizeof *root);
    t->pos.nnue = &t->nnue;
    atomic_store(&t->nodes, 0);
    atomic_store(&t->tbhits, 0);
    t->seldepth = t->root_depth = t->completed_depth = t->pv_index = t->best_changes = t->nmp_min_ply = 0;
    memset(t->low_ply, 0, sizeof t->low_ply);
    t->root_count = legal->count;
    for (int i = 0; i < legal->count; i++) {
        RootMove *rm = &t->root_moves[i];
        rm->move = legal->moves[i];
        rm->score = rm->prev_score = -SCORE_INFINITE;
        rm->bound = BOUND_NONE;
        rm->tb_score = tb_scores ? tb_scores[i] : SCORE_NONE;
        rm->seldepth = 0;
        rm->nodes = 0;
        rm->pv[0] = legal->moves[i];
        rm->pv_length = 1;
    }
    for (int i = 0; i < STACK_SIZE; i++) {
        SearchStack *ss = &t->stack[i];
        memset(ss, 0, offsetof(SearchStack, pv));
        ss->ply = i - STACK_OFFSET;
        ss->static_eval = ss->raw_eval = SCORE_NONE;
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

/* The thread whose answer to play: the main thread's unless a helper
 * completed a deeper iteration with a score at least as good (a single
 * MultiPV line only: the lines of different threads do not mix). */
static SearchThread *best_thread(void) {
    SearchThread *best = thread_at(0);
    if (Shared.multipv > 1) return best;
    for (int i = 1; i < threads_count(); i++) {
        SearchThread *h = thread_at(i);
        const RootMove *a = &best->root_moves[0], *b = &h->root_moves[0];
        if (h->completed_depth > best->completed_depth && b->score != -SCORE_INFINITE && b->score >= a->score &&
            !score_is_mate(a->score))
            best = h;
    }
    return best;
}

/* Strength levels and randomness: play one of the lines as skill_pick()
 * says; it goes to the front and is reported as the final line. */
static void skill_choose(SearchThread *t) {
    int lines = imin(Shared.multipv, t->root_count);
    if (Shared.skill.lines <= 1 || lines <= 1) return;
    Score scores[MAX_MOVES];
    for (int i = 0; i < lines; i++) {
        const RootMove *rm = &t->root_moves[i];
        scores[i] = rm->score != -SCORE_INFINITE ? rm->score : rm->prev_score;
    }
    int pick = skill_pick(&Shared.skill, scores, lines);
    if (pick <= 0) return;
    RootMove chosen = t->root_moves[pick];
    t->root_moves[pick] = t->root_moves[0];
    t->root_moves[0] = chosen;
    /* report_line takes the iteration under way: a line without a fresh
     * score shows the depth before it, the completed one. */
    report_line(t, 0, t->completed_depth + (chosen.score == -SCORE_INFINITE), BOUND_NONE);
}

static void *driver_main(void *arg) {
    (void)arg;
    SearchThread *main = thread_at(0);
    MoveList moves;
    root_move_list(&Shared.root, &Shared.limits, &moves);
    Score tb_scores[MAX_MOVES];
    Shared.root_in_tb = tb_rank_root(&Shared.root, &moves, tb_scores);
    for (int i = 0; i < threads_count(); i++)
        prepare_thread(thread_at(i), &Shared.root, &moves, Shared.root_in_tb ? tb_scores : NULL);

    Move best = MOVE_NONE, ponder = MOVE_NONE;
    Score score = mated_in(0);
    int depth = 0;
    if (moves.count > 0) {
        threads_launch_helpers(helper_main);
        Shared.last_check_ms = clock_elapsed();
        Shared.longest_gap_ms = 0;
        iterative_deepening(main);
        /* A busy spell fades: half of it is remembered per search. */
        Shared.latency_ms = (int)(Shared.longest_gap_ms > Shared.latency_ms / 2 ? Shared.longest_gap_ms
                                                                               : Shared.latency_ms / 2);
        atomic_store(&Shared.stop, true);
        threads_join_helpers();
        /* A ponder search the GUI stopped was on the opponent's time. */
        node_time_end(&Shared.limits, !atomic_load(&Shared.pondering));
        SearchThread *chosen = best_thread();
        if (chosen != main) report_line(chosen, 0, chosen->completed_depth, BOUND_NONE);
        skill_choose(chosen);
        const RootMove *rm = &chosen->root_moves[0];
        best = rm->move;
        score = rm->score != -SCORE_INFINITE ? rm->score : rm->prev_score;
        if (score == -SCORE_INFINITE) score = SCORE_DRAW;
        if (Shared.root_in_tb && (Shared.root_tb_rule || !score_is_mate(score))) score = rm->tb_score;
        depth = chosen->completed_depth;
        ponder = ponder_move(chosen);
    }

    /* Ponder and infinite searches hold their answer until released. */
    pthread_mutex_lock(&Shared.lock);
    while (!atomic_load(&Shared.stop_requested) && (Shared.limits.infinite || atomic_load(&Shared.pondering)))
        pthread_cond_wait(&Shared.cond, &Shared.lock);
    pthread_mutex_unlock(&Shared.lock);
    if (Shared.cb.bestmove) Shared.cb.bestmove(Shared.cb.ctx, best, ponder, score, depth);
    return NULL;
}

/* The driver thread could not be created (no memory for its stack): answer
 * at once with a legal move rather than never. */
static void answer_without_search(void) {
    MoveList moves;
    root_move_list(&Shared.root, &Shared.limits, &moves);
    Move best = moves.count ? moves.moves[0] : MOVE_NONE;
    if (Shared.cb.bestmove) Shared.cb.bestmove(Shared.cb.ctx, best, MOVE_NONE, best != MOVE_NONE ? SCORE_DRAW : mated_in(0), 0);
}

/* The strength level's plan and the grades of style, pruning and idle. */
static void apply_play_options(const Position *pos, const SearchLimits *limits) {
    Shared.skill = skill_plan(&Options.skill, !limits->infinite && !limits->mate, pos_key(pos));
    skill_limit(&Shared.skill, &Shared.limits.nodes, &Shared.limits.depth);
    Shared.report_lines = Options.multipv > 1 ? Options.multipv : 1;
    Shared.multipv = imax(Shared.report_lines, Shared.skill.lines);
    Shared.contempt = grade_contempt((Style)Options.style);
    Shared.reduction_percent = grade_reduction_percent((Grade)Options.pruning);
    Shared.null_move = grade_null_move((Grade)Options.pruning);
    Shared.idle_duty = grade_idle_duty((Grade)Options.idle);
    Shared.tables = Options.use_egtb && egtb_wdl_count() + egtb_dtc_count() > 0;
    Shared.tb_pieces = Options.use_egtb ? EgtbMaxPieces : 0;
}

void search_init(void) {
    if (Shared.initialised) return;
    engine_init();
    search_tree_init_tables();
    if (!tt_resize((size_t)Options.hash_mb)) tt_resize(1);
    threads_resize(Options.threads > 0 ? Options.threads : 1);
    Shared.initialised = true;
}

bool search_resize_hash(int mb) {
    search_init();
    if (mb < 1) mb = 1;
    if (!tt_resize((size_t)mb)) return false;
    tt_clear(); /* its page faults now, before `readyok`, not in the first search */
    Options.hash_mb = mb;
    return true;
}

void search_clear(void) {
    search_init();
    search_wait();
    tt_clear();
    threads_clear();
    node_time_reset();
}

void search_start(const Position *pos, const SearchLimits *limits, const SearchCallbacks *cb) {
    search_init();
    search_wait();
    memcpy(&Shared.root, pos, sizeof *pos);
    Shared.limits = *limits;
    Shared.cb = *cb;
    apply_play_options(pos, limits);
    int want = Shared.skill.one_thread ? 1 : Options.threads > 0 ? Options.threads : 1;
    if (want != threads_count()) threads_resize(want);
    atomic_store(&Shared.stop, false);
    atomic_store(&Shared.stop_requested, false);
    atomic_store(&Shared.pondering, limits->ponder);
    Shared.start_ms = now_ms();
    atomic_store(&Shared.clock_ms, Shared.start_ms);
    search_tree_init_tables();
    int game_ply = 2 * (pos->root_fullmove - 1) + pos->game_ply;
    SearchLimits clock = *limits;
    if (node_time_begin(&clock, game_ply)) {
        /* The nodes' clock needs no reserve for the machine; the real one
         * keeps its hard limit (search_clock.c). */
        TimeManager real;
        tm_init(&real, limits, Options.move_overhead_ms, Shared.latency_ms, Options.ponder_enabled, game_ply);
        Shared.real_hard_ms = real.hard_ms;
        tm_init(&Shared.tm, &clock, 0, 0, Options.ponder_enabled, game_ply);
    } else {
        tm_init(&Shared.tm, limits, Options.move_overhead_ms, Shared.latency_ms, Options.ponder_enabled, game_ply);
    }
    tt_new_search();
    Shared.running = pthread_create(&Shared.driver, NULL, driver_main, NULL) == 0;
    if (!Shared.running) answer_without_search();
}

void search_stop(void) {
    pthread_mutex_lock(&Shared.lock);
    atomic_store(&Shared.stop_requested, true);
    atomic_store(&Shared.stop, true);
    pthread_cond_broadcast(&Shared.cond);
    pthread_mutex_unlock(&Shared.lock);
}

void search_ponderhit(void) {
    pthread_mutex_lock(&Shared.lock);
    atomic_store(&Shared.clock_ms, now_ms());
    atomic_store(&Shared.nodes_at_clock, threads_nodes());
    atomic_store(&Shared.pondering, false);
    pthread_cond_broadcast(&Shared.cond);
    pthread_mutex_unlock(&Shared.lock);
}

void search_wait(void) {
    if (!Shared.running) return;
    pthread_join(Shared.driver, NULL);
    Shared.running = false;
}

bool search_running(void) { return Shared.running; }

void search_shutdown(void) {
    search_stop();
    search_wait();
    tt_free();
    threads_free();
    Shared.initialised = false;
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
