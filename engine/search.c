/* Placeholder search: single-threaded iterative-deepening alpha-beta with a
 * capture quiescence, real limits and the full thread/ponder contract of
 * search.h. The search issue replaces the internals. */
#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "movegen.h"

SearchOptions Options = {.hash_mb = 64, .threads = 1, .multipv = 1, .move_overhead_ms = 30, .draw_plies = 120};

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool running;       /* thread started and not yet joined */
    atomic_bool stop;   /* abort the search now */
    atomic_bool waiting_release; /* ponder/infinite: hold bestmove until stop or ponderhit */
    atomic_bool pondering;
    Position pos;
    SearchLimits limits;
    SearchCallbacks cb;
    int64_t start_ms, soft_ms, hard_ms;
    uint64_t nodes;
    Move pv[MAX_PLY][MAX_PLY];
    int pv_len[MAX_PLY];
    int seldepth;
} S = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_time_budget(void) {
    const SearchLimits *l = &S.limits;
    S.soft_ms = S.hard_ms = INT64_MAX;
    if (l->movetime_ms > 0) {
        S.soft_ms = S.hard_ms = l->movetime_ms - Options.move_overhead_ms > 1 ? l->movetime_ms - Options.move_overhead_ms : 1;
    } else if (l->time_ms >= 0) {
        int64_t left = l->time_ms - Options.move_overhead_ms;
        if (left < 1) left = 1;
        int mtg = l->movestogo > 0 ? (l->movestogo < 30 ? l->movestogo : 30) : 30;
        S.soft_ms = left / mtg + l->inc_ms * 3 / 4;
        S.hard_ms = left / (mtg > 1 ? 2 : 1) < S.soft_ms * 4 ? left / (mtg > 1 ? 2 : 1) : S.soft_ms * 4;
        if (S.soft_ms > left) S.soft_ms = left;
        if (S.hard_ms > left) S.hard_ms = left;
        if (S.soft_ms < 1) S.soft_ms = 1;
    }
}

static bool out_of_budget(void) {
    if (atomic_load(&S.stop)) return true;
    if (S.limits.nodes && S.nodes >= S.limits.nodes) return true;
    if ((S.nodes & 1023) == 0 && !atomic_load(&S.pondering) && !S.limits.infinite && now_ms() - S.start_ms >= S.hard_ms) {
        atomic_store(&S.stop, true);
        return true;
    }
    return false;
}

static Score qsearch(Position *pos, Score alpha, Score beta, int ply) {
    S.nodes++;
    if (ply > S.seldepth) S.seldepth = ply;
    if (ply >= MAX_PLY - 1) return evaluate(pos);
    Score stand = evaluate(pos);
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    MoveList list;
    gen_captures(pos, &list);
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        Score s = -qsearch(pos, -beta, -alpha, ply + 1);
        pos_unmake_move(pos);
        if (out_of_budget()) return 0;
        if (s > alpha) alpha = s;
        if (alpha >= beta) break;
    }
    return alpha;
}

static Score alphabeta(Position *pos, Score alpha, Score beta, int depth, int ply) {
    S.pv_len[ply] = 0;
    if (depth <= 0 || ply >= MAX_PLY - 1) return qsearch(pos, alpha, beta, ply);
    S.nodes++;
    MoveList list;
    gen_legal(pos, &list);
    if (ply == 0 && S.limits.root_count > 0) {
        memcpy(list.moves, S.limits.root_moves, sizeof(Move) * (size_t)S.limits.root_count);
        list.count = S.limits.root_count;
    }
    if (list.count == 0) return -(SCORE_MATE - ply);
    Score best = -SCORE_INFINITE;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        Score s = -alphabeta(pos, -beta, -alpha, depth - 1, ply + 1);
        pos_unmake_move(pos);
        if (out_of_budget()) return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                S.pv[ply][0] = list.moves[i];
                memcpy(&S.pv[ply][1], S.pv[ply + 1], sizeof(Move) * (size_t)S.pv_len[ply + 1]);
                S.pv_len[ply] = S.pv_len[ply + 1] + 1;
            }
        }
        if (alpha >= beta) break;
    }
    return best;
}

static void *search_thread(void *arg) {
    (void)arg;
    Position *pos = &S.pos;
    MoveList legal;
    gen_legal(pos, &legal);
    Move best = MOVE_NONE, ponder = MOVE_NONE;
    Score best_score = 0;
    int done_depth = 0;
    if (legal.count > 0) {
        best = S.limits.root_count > 0 ? S.limits.root_moves[0] : legal.moves[0];
        int max_depth = S.limits.depth > 0 ? S.limits.depth : MAX_PLY - 1;
        for (int d = 1; d <= max_depth; d++) {
            S.seldepth = 0;
            Score s = alphabeta(pos, -SCORE_INFINITE, SCORE_INFINITE, d, 0);
            if (atomic_load(&S.stop) || (S.limits.nodes && S.nodes >= S.limits.nodes && d > 1)) break;
            best_score = s;
            done_depth = d;
            if (S.pv_len[0] > 0) best = S.pv[0][0];
            ponder = S.pv_len[0] > 1 ? S.pv[0][1] : MOVE_NONE;
            SearchInfo info = {.depth = d, .seldepth = S.seldepth, .multipv = 1, .score = s, .bound = BOUND_EXACT,
                               .nodes = S.nodes, .time_ms = now_ms() - S.start_ms, .pv_length = S.pv_len[0]};
            memcpy(info.pv, S.pv[0], sizeof(Move) * (size_t)S.pv_len[0]);
            if (S.cb.info) S.cb.info(S.cb.ctx, &info);
            if (score_is_mate(s) && d > 1 && !S.limits.infinite) break;
            if (!S.limits.infinite && !atomic_load(&S.pondering) && now_ms() - S.start_ms >= S.soft_ms) break;
        }
    }
    /* Ponder and infinite searches hold their answer until released. */
    pthread_mutex_lock(&S.lock);
    while (!atomic_load(&S.stop) && (S.limits.infinite || atomic_load(&S.pondering)))
        pthread_cond_wait(&S.cond, &S.lock);
    pthread_mutex_unlock(&S.lock);
    if (S.cb.bestmove) S.cb.bestmove(S.cb.ctx, best, ponder, best_score, done_depth);
    return NULL;
}

void search_init(void) {}

bool search_resize_hash(int mb) {
    Options.hash_mb = mb;
    return true;
}

void search_clear(void) {}

void search_start(const Position *pos, const SearchLimits *limits, const SearchCallbacks *cb) {
    search_wait();
    memcpy(&S.pos, pos, sizeof *pos);
    S.limits = *limits;
    S.cb = *cb;
    S.nodes = 0;
    atomic_store(&S.stop, false);
    atomic_store(&S.pondering, limits->ponder);
    S.start_ms = now_ms();
    set_time_budget();
    S.running = true;
    pthread_create(&S.thread, NULL, search_thread, NULL);
}

void search_stop(void) {
    pthread_mutex_lock(&S.lock);
    atomic_store(&S.stop, true);
    pthread_cond_broadcast(&S.cond);
    pthread_mutex_unlock(&S.lock);
}

void search_ponderhit(void) {
    pthread_mutex_lock(&S.lock);
    S.start_ms = now_ms();
    atomic_store(&S.pondering, false);
    pthread_cond_broadcast(&S.cond);
    pthread_mutex_unlock(&S.lock);
}

void search_wait(void) {
    if (!S.running) return;
    pthread_join(S.thread, NULL);
    S.running = false;
}

bool search_running(void) { return S.running; }

void search_shutdown(void) {
    search_stop();
    search_wait();
}

ProbeResult search_probe(const Position *pos) {
    (void)pos;
    ProbeResult r = {0};
    return r;
}

uint64_t search_bench(int depth, FILE *out) {
    (void)depth;
    fprintf(out, "Nodes searched: 0\nNodes/second: 0\n");
    return 0;
}
