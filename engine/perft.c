// SPDX-License-Identifier: GPL-3.0-or-later
#include "perft.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "notation.h"
#include "zobrist.h"

/* Every probe of the empty table misses: counting without a table. */
static PerftTable NoTable;

/*
 * Mirror twins: a position and its reflection through the middle file have
 * the same count, so the table stores both under one key, the smaller of
 * the position's Zobrist key and its twin's. The twin's key (the key of the
 * reflected board) is carried down the tree beside the position.
 */
static inline Square mirror_square(Square s) { return s + 8 - 2 * file_of(s); }

static Key mirror_key(const Position *pos) {
    Key k = pos->side == BLACK ? ZobristSide : 0;
    for (Square s = 0; s < SQUARE_NB; s++) k ^= ZobristPiece[pos->board[s]][mirror_square(s)];
    return k;
}

/* What move m (not yet made) changes in a key, on the board as it is or
 * reflected. */
static inline Key move_key(const Position *pos, Move m, bool mirrored) {
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from], cap = pos->board[to];
    if (mirrored) {
        from = mirror_square(from);
        to = mirror_square(to);
    }
    return ZobristSide ^ ZobristPiece[p][from] ^ ZobristPiece[p][to] ^ ZobristPiece[cap][to];
}

static inline Key table_key(Key key, Key mirror) { return key < mirror ? key : mirror; }

/* Start loading the buckets the children will probe while this node still
 * works: a probe is mostly a cache miss. */
static void prefetch_children(const Position *pos, Key mirror, const MoveList *list, const PerftTable *table) {
    if (!table->buckets) return;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        perft_table_prefetch(table, table_key(pos_key(pos) ^ move_key(pos, m, false), mirror ^ move_key(pos, m, true)));
    }
}

/* Leaves below pos at `depth`; `mirror` is the key of pos reflected. */
static uint64_t count_tree(Position *pos, Key mirror, int depth, PerftTable *table) {
    uint64_t nodes = 0;
    bool stored = depth >= PERFT_TABLE_MIN_DEPTH && table->buckets;
    Key key = stored ? table_key(pos_key(pos), mirror) : 0;
    if (stored && perft_table_probe(table, key, depth, &nodes)) return nodes;
    MoveList list;
    gen_legal(pos, &list);
    if (depth <= 1) return depth == 1 ? (uint64_t)list.count : 1;
    bool child_stored = depth - 1 >= PERFT_TABLE_MIN_DEPTH && table->buckets;
    if (child_stored) prefetch_children(pos, mirror, &list, table);
    for (int i = 0; i < list.count; i++) {
        Key child_mirror = child_stored ? mirror ^ move_key(pos, list.moves[i], true) : 0;
        pos_make_move(pos, list.moves[i]);
        nodes += count_tree(pos, child_mirror, depth - 1, table);
        pos_unmake_move(pos);
    }
    if (stored) perft_table_store(table, key, depth, nodes);
    return nodes;
}

uint64_t perft(Position *pos, int depth) { return count_tree(pos, 0, depth, &NoTable); }

/* ---- the threaded count ---------------------------------------------- */

/* One unit of work: a root move, or a root move and one reply. */
typedef struct {
    uint8_t root; /* index in the root list */
    Move reply;   /* MOVE_NONE: the whole subtree of the root move */
} Task;

typedef struct {
    const Position *pos;
    int depth;
    PerftTable *table;
    MoveList root;
    Task root_tasks[MAX_MOVES];
    Task *tasks; /* root_tasks, or a heap list of (root, reply) pairs */
    int task_count;
    atomic_int next_task;
    _Atomic uint64_t subtotal[MAX_MOVES]; /* per root move */
    atomic_int tasks_left[MAX_MOVES];     /* per root move */

    /* Divide output: root moves printed in list order, each once done. */
    pthread_mutex_t lock;
    bool done[MAX_MOVES];
    int printed;
    FILE *out; /* NULL: no divide lines */
    int rank_base;
} Job;

/* The position as a fresh root: perft needs no history, and a game record
 * near MAX_HISTORY would leave no room for the tree. */
static void copy_as_root(Position *dst, const Position *src) {
    memcpy(dst, src, offsetof(Position, history));
    dst->history[0] = src->history[src->game_ply];
    dst->game_ply = 0;
}

static void root_done(Job *job, int i) {
    pthread_mutex_lock(&job->lock);
    job->done[i] = true;
    while (job->printed < job->root.count && job->done[job->printed]) {
        int k = job->printed++;
        if (!job->out) continue;
        char text[MOVE_TEXT_MAX];
        fprintf(job->out, "%s: %" PRIu64 "\n", move_to_text(job->root.moves[k], job->rank_base, text),
                atomic_load(&job->subtotal[k]));
        fflush(job->out); /* a long count shows its progress through a pipe */
    }
    pthread_mutex_unlock(&job->lock);
}

/* Fill the task list: (root move, reply) pairs when the tree is deep enough
 * to need the finer split and the memory is there, else one task per root
 * move. A root move without replies is done at once (0 leaves). */
static void job_plan(Job *job, Position *pos) {
    gen_legal(pos, &job->root);
    bool pairs = job->depth >= PERFT_SPLIT_TWO_PLIES;
    job->tasks = pairs ? malloc(sizeof(Task) * (size_t)job->root.count * MAX_MOVES) : NULL;
    if (!job->tasks) {
        job->tasks = job->root_tasks;
        pairs = false;
    }
    job->task_count = 0;
    for (int i = 0; i < job->root.count; i++) {
        atomic_init(&job->subtotal[i], 0);
        if (!pairs) {
            job->tasks[job->task_count++] = (Task){(uint8_t)i, MOVE_NONE};
            atomic_init(&job->tasks_left[i], 1);
            continue;
        }
        MoveList replies;
        pos_make_move(pos, job->root.moves[i]);
        gen_legal(pos, &replies);
        pos_unmake_move(pos);
        for (int j = 0; j < replies.count; j++) job->tasks[job->task_count++] = (Task){(uint8_t)i, replies.moves[j]};
        atomic_init(&job->tasks_left[i], replies.count);
    }
    for (int i = 0; i < job->root.count; i++)
        if (atomic_load(&job->tasks_left[i]) == 0) root_done(job, i);
}

static uint64_t run_task(Job *job, Position *pos, Task t) {
    uint64_t n;
    Move m = job->root.moves[t.root];
    Key mirror = mirror_key(pos) ^ move_key(pos, m, true);
    pos_make_move(pos, m);
    if (t.reply != MOVE_NONE) {
        mirror ^= move_key(pos, t.reply, true);
        pos_make_move(pos, t.reply);
        n = count_tree(pos, mirror, job->depth - 2, job->table);
        pos_unmake_move(pos);
    } else {
        n = count_tree(pos, mirror, job->depth - 1, job->table);
    }
    pos_unmake_move(pos);
    return n;
}

static void *job_worker(void *arg) {
    Job *job = arg;
    Position pos; /* each thread moves on its own board */
    copy_as_root(&pos, job->pos);
    for (;;) {
        int k = atomic_fetch_add(&job->next_task, 1);
        if (k >= job->task_count) break;
        Task t = job->tasks[k];
        atomic_fetch_add(&job->subtotal[t.root], run_task(job, &pos, t));
        if (atomic_fetch_sub(&job->tasks_left[t.root], 1) == 1) root_done(job, t.root);
    }
    return NULL;
}

/* Count with opt's threads and table; divide lines to out when not NULL. */
static uint64_t job_run(const Position *root, int depth, int rank_base, const PerftOptions *opt, FILE *out) {
    Position plan;
    Job job = {.pos = root, .depth = depth, .table = opt->table ? opt->table : &NoTable};
    job.out = out;
    job.rank_base = rank_base;
    pthread_mutex_init(&job.lock, NULL);
    atomic_init(&job.next_task, 0);
    copy_as_root(&plan, root);
    job_plan(&job, &plan);

    int helpers = opt->threads > PERFT_THREADS_MAX ? PERFT_THREADS_MAX - 1 : opt->threads - 1;
    pthread_t ids[PERFT_THREADS_MAX];
    int started = 0;
    for (int i = 0; i < helpers; i++)
        if (pthread_create(&ids[started], NULL, job_worker, &job) == 0) started++;
    job_worker(&job); /* fewer helpers than asked only makes it slower */
    for (int i = 0; i < started; i++) pthread_join(ids[i], NULL);

    uint64_t total = 0;
    for (int i = 0; i < job.root.count; i++) total += atomic_load(&job.subtotal[i]);
    if (job.tasks != job.root_tasks) free(job.tasks);
    pthread_mutex_destroy(&job.lock);
    return total;
}

uint64_t perft_count(const Position *pos, int depth, const PerftOptions *opt) {
    return depth < 1 ? 1 : job_run(pos, depth, 0, opt, NULL);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

uint64_t perft_divide_with(const Position *pos, int depth, int rank_base, const PerftOptions *opt, FILE *out) {
    double start = now_seconds();
    uint64_t total = depth < 1 ? 1 : job_run(pos, depth, rank_base, opt, out);
    double secs = now_seconds() - start;
    long ms = (long)(secs * 1000);
    fprintf(out, "\nNodes searched: %" PRIu64 "\nTime (ms): %ld\nNodes/second: %" PRIu64 "\n", total, ms,
            (uint64_t)(total / (secs > 1e-9 ? secs : 1e-9)));
    fflush(out);
    return total;
}

uint64_t perft_divide(Position *pos, int depth, int rank_base, FILE *out) {
    PerftOptions one = {.threads = 1, .table = NULL};
    return perft_divide_with(pos, depth, rank_base, &one, out);
}
