// SPDX-License-Identifier: GPL-3.0-or-later
/* The worker pool of tuong-datagen (pool.h): worker processes, the pipe
 * protocol, the ordered writer, progress and summary lines. */
#include "pool.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "datagen.h"

enum {
    MAX_WORKERS = POOL_MAX_WORKERS,
    POLL_MS = 200,
    READ_CHUNK = 1 << 16,
    WINDOW_START = 64,
};

/* ---------------------------------------------------------------------- */
/* Workers                                                                 */

/* Memory shared by the parent and every worker. */
typedef struct {
    atomic_int stop;                /* set by the parent: finish now */
    atomic_uint_fast64_t next_game; /* the next game number to play */
} Shared;

/* What a worker sends per finished game, followed by `count` records. */
typedef struct {
    uint64_t game, nodes;
    uint32_t count;
    uint16_t plies, searches;
    uint8_t red_result, end;
} GameMsg;

static bool write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static _Noreturn void worker_main(int fd, Shared *sh, const PoolConfig *c, const OpeningBook *book) {
    signal(SIGINT, SIG_IGN); /* a Ctrl-C reaches the parent, which stops us cleanly */
    signal(SIGPIPE, SIG_IGN);
    SelfplaySettings s = c->play;
    selfplay_init(&s);
    SelfplayGame game = {.records = malloc(sizeof(DataRecord) * (size_t)(s.max_plies + 1))};
    if (!game.records) _exit(1);
    for (;;) {
        if (atomic_load(&sh->stop)) break;
        uint64_t g = atomic_fetch_add(&sh->next_game, 1);
        if (c->games && g >= c->games) break;
        if (!selfplay_game(book, &s, c->seed, g, &game, &sh->stop)) break;
        GameMsg m = {.game = g,
                     .nodes = game.nodes,
                     .count = (uint32_t)game.count,
                     .plies = (uint16_t)game.plies,
                     .searches = (uint16_t)game.searches,
                     .red_result = (uint8_t)game.red_result,
                     .end = (uint8_t)game.end};
        if (!write_all(fd, &m, sizeof m) || !write_all(fd, game.records, sizeof(DataRecord) * (size_t)game.count))
            break;
    }
    _exit(0);
}

/* ---------------------------------------------------------------------- */
/* The parent: collect, order, write                                       */

typedef struct {
    bool done;
    GameMsg msg;
    DataRecord *records;
} Finished;

/* Finished games not yet written, indexed by game number in a ring. */
typedef struct {
    Finished *slot;
    uint64_t cap;  /* a power of two */
    uint64_t base; /* the next game to write */
} Window;

static Finished *window_at(Window *w, uint64_t g) { return &w->slot[g & (w->cap - 1)]; }

static bool window_put(Window *w, const GameMsg *m, DataRecord *records) {
    while (m->game - w->base >= w->cap) {
        Finished *bigger = calloc(w->cap * 2, sizeof *bigger);
        if (!bigger) return false;
        for (uint64_t g = w->base; g < w->base + w->cap; g++)
            bigger[g & (w->cap * 2 - 1)] = *window_at(w, g);
        free(w->slot);
        w->slot = bigger;
        w->cap *= 2;
    }
    *window_at(w, m->game) = (Finished){.done = true, .msg = *m, .records = records};
    return true;
}

typedef struct {
    int fd;
    pid_t pid;
    char *buf;
    size_t len, cap;
} Worker;

typedef struct {
    const PoolConfig *cfg;
    FILE *out;
    uint64_t records_before; /* in the file when we started */
    Window window;
    Worker workers[MAX_WORKERS];
    int live;                                          /* workers whose pipe is still open */
    uint64_t games, positions, plies, searches, nodes; /* written */
    uint64_t red_results[DATA_RESULT_NB], ends[END_NB];
    double start_s, last_progress_s;
    bool target_reached, failed;
} Run;

static volatile sig_atomic_t Interrupted;

static void on_signal(int sig) {
    (void)sig;
    Interrupted = 1;
}

static void format_duration(double s, char *buf, size_t len) {
    long t = s < 0 ? 0 : (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

static void print_progress(Run *r) {
    double elapsed = datagen_now_s() - r->start_s;
    double rate = elapsed > 0 ? (double)r->positions / elapsed : 0;
    const PoolConfig *c = r->cfg;
    double done = c->games       ? (double)r->games / (double)(c->games - c->first_game)
                  : c->positions ? (double)r->positions / (double)c->positions
                                 : 0;
    char eta[32] = "?";
    if (!c->games && !c->positions)
        snprintf(eta, sizeof eta, "none (no target)");
    else if (done > 0)
        format_duration(elapsed * (1 - done) / done, eta, sizeof eta);
    fprintf(stderr, "datagen: %" PRIu64 " games, %" PRIu64 " positions, %.0f positions/s, ETA %s\n", r->games,
            r->positions, rate, eta);
}

/* Write game w->base and every finished game after it, in order. */
static bool write_ready_games(Run *r) {
    Window *w = &r->window;
    while (!r->target_reached && window_at(w, w->base)->done) {
        Finished *f = window_at(w, w->base);
        uint64_t take = f->msg.count;
        if (r->cfg->positions && !r->cfg->whole_games && r->positions + take > (uint64_t)r->cfg->positions)
            take = (uint64_t)r->cfg->positions - r->positions;
        bool ok = datafile_write(r->out, f->records, take) && fflush(r->out) == 0;
        if (!ok) return datagen_error("%s: write failed: %s", r->cfg->out_path, strerror(errno));
        if (r->cfg->after_game && !r->cfg->after_game(r->cfg->ctx, w->base, f->records, take)) return false;
        r->positions += take;
        r->games++;
        r->plies += f->msg.plies;
        r->searches += f->msg.searches;
        r->nodes += f->msg.nodes;
        r->red_results[f->msg.red_result % DATA_RESULT_NB]++;
        r->ends[f->msg.end % END_NB]++;
        free(f->records);
        *f = (Finished){0};
        w->base++;
        r->target_reached = r->cfg->games       ? w->base >= r->cfg->games
                            : r->cfg->positions ? r->positions >= r->cfg->positions
                                                : false;
    }
    return true;
}

/* Take every whole message out of a worker's buffer. */
static bool take_messages(Run *r, Worker *wk) {
    size_t at = 0;
    for (;;) {
        GameMsg m;
        if (wk->len - at < sizeof m) break;
        memcpy(&m, wk->buf + at, sizeof m);
        size_t bytes = sizeof(DataRecord) * m.count;
        if (wk->len - at - sizeof m < bytes) break;
        DataRecord *recs = malloc(bytes ? bytes : 1);
        if (!recs) return datagen_error("out of memory");
        memcpy(recs, wk->buf + at + sizeof m, bytes);
        at += sizeof m + bytes;
        if (m.game < r->window.base) { /* cannot happen: every game is played once */
            free(recs);
            continue;
        }
        if (!window_put(&r->window, &m, recs)) {
            free(recs);
            return datagen_error("out of memory");
        }
    }
    memmove(wk->buf, wk->buf + at, wk->len - at);
    wk->len -= at;
    return true;
}

/* Read what a worker has sent (and drop it unless `keep`: after a failure
 * the workers are only being wound down); at end of pipe, reap it. */
static bool drain_worker(Run *r, Worker *wk, bool keep) {
    if (!keep) wk->len = 0;
    if (wk->cap - wk->len < READ_CHUNK) {
        char *p = realloc(wk->buf, wk->cap + READ_CHUNK);
        if (!p) return datagen_error("out of memory");
        wk->buf = p;
        wk->cap += READ_CHUNK;
    }
    ssize_t n = read(wk->fd, wk->buf + wk->len, wk->cap - wk->len);
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    if (n > 0) {
        wk->len += (size_t)n;
        return !keep || take_messages(r, wk);
    }
    close(wk->fd);
    wk->fd = -1;
    r->live--;
    int status = 0;
    waitpid(wk->pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFSIGNALED(status))
            datagen_error("worker %d died of signal %d", (int)wk->pid, WTERMSIG(status));
        else
            datagen_error("worker %d failed (exit %d)", (int)wk->pid, WEXITSTATUS(status));
        r->failed = true;
    }
    return true;
}

static bool start_workers(Run *r, Shared *sh, const OpeningBook *book) {
    fflush(NULL);
    for (int i = 0; i < r->cfg->workers; i++)
        r->workers[i].fd = -1;
    for (int i = 0; i < r->cfg->workers; i++) {
        int p[2];
        if (pipe(p) != 0) return datagen_error("pipe: %s", strerror(errno));
        pid_t pid = fork();
        if (pid < 0) {
            close(p[0]);
            close(p[1]);
            return datagen_error("fork: %s", strerror(errno));
        }
        if (pid == 0) {
            close(p[0]);
            for (int k = 0; k < i; k++)
                close(r->workers[k].fd);
            worker_main(p[1], sh, r->cfg, book);
        }
        close(p[1]);
        r->workers[i] = (Worker){.fd = p[0], .pid = pid};
        r->live++;
    }
    return true;
}

/* Collect until every worker has ended; false on a failure (already
 * reported). On a failure, an interrupt or the target reached, the workers
 * are told to stop and drained to the end. */
static bool collect(Run *r, Shared *sh) {
    struct pollfd fds[MAX_WORKERS];
    bool ok = true;
    while (r->live > 0) {
        if (Interrupted || r->target_reached || r->failed || !ok) atomic_store(&sh->stop, 1);
        int n = 0;
        for (int i = 0; i < r->cfg->workers; i++)
            if (r->workers[i].fd >= 0) fds[n++] = (struct pollfd){.fd = r->workers[i].fd, .events = POLLIN};
        if (poll(fds, (nfds_t)n, POLL_MS) > 0)
            for (int i = 0, k = 0; i < r->cfg->workers; i++) {
                Worker *wk = &r->workers[i];
                if (wk->fd < 0) continue;
                if (fds[k++].revents && !drain_worker(r, wk, ok)) ok = false;
            }
        if (ok && !write_ready_games(r)) ok = false;
        double t = datagen_now_s();
        if (r->cfg->progress_s && t - r->last_progress_s >= (double)r->cfg->progress_s) {
            print_progress(r);
            r->last_progress_s = t;
        }
    }
    return ok && !r->failed;
}

static void print_summary(const Run *r) {
    double elapsed = datagen_now_s() - r->start_s;
    double g = r->games ? (double)r->games : 1;
    fprintf(stderr,
            "datagen: wrote %" PRIu64 " positions of %" PRIu64 " games to %s (%" PRIu64 " records in all), %.1f s, "
            "%.0f positions/hour\n",
            r->positions, r->games, r->cfg->out_path, r->records_before + r->positions, elapsed,
            elapsed > 0 ? (double)r->positions * 3600 / elapsed : 0);
    fprintf(stderr,
            "datagen: Red wins %.1f%%, draws %.1f%%, Black wins %.1f%%; ended by the rules %.1f%%, resignation %.1f%%, "
            "draw score %.1f%%; %.1f plies a game, %.0f nodes a move\n",
            100.0 * (double)r->red_results[DATA_WIN] / g, 100.0 * (double)r->red_results[DATA_DRAW] / g,
            100.0 * (double)r->red_results[DATA_LOSS] / g, 100.0 * (double)r->ends[END_RULES] / g,
            100.0 * (double)r->ends[END_RESIGN] / g, 100.0 * (double)r->ends[END_DRAW_SCORE] / g, (double)r->plies / g,
            r->searches ? (double)r->nodes / (double)r->searches : 0);
}

static void run_free(Run *r) {
    for (uint64_t i = 0; i < r->window.cap; i++)
        free(r->window.slot[i].records);
    free(r->window.slot);
    for (int i = 0; i < MAX_WORKERS; i++)
        free(r->workers[i].buf);
    free(r);
}

int pool_run(const PoolConfig *cfg, const OpeningBook *book, FILE *out, uint64_t records_before) {
    Run *r = calloc(1, sizeof *r);
    Finished *slots = calloc(WINDOW_START, sizeof *slots);
    Shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!r || !slots || sh == MAP_FAILED) {
        free(r);
        free(slots);
        if (sh != MAP_FAILED) munmap(sh, sizeof *sh);
        fclose(out);
        return !datagen_error("out of memory");
    }
    r->cfg = cfg;
    r->out = out;
    r->records_before = records_before;
    r->window = (Window){.slot = slots, .cap = WINDOW_START, .base = cfg->first_game};
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->next_game, cfg->first_game);
    r->start_s = r->last_progress_s = datagen_now_s();
    if (!start_workers(r, sh, book)) r->failed = true; /* collect() stops the ones started */
    struct sigaction act = {.sa_handler = on_signal};
    sigaction(SIGINT, &act, NULL);
    sigaction(SIGTERM, &act, NULL);
    bool ok = collect(r, sh);
    munmap(sh, sizeof *sh);
    if (fclose(r->out) != 0 && ok) ok = datagen_error("%s: write failed: %s", cfg->out_path, strerror(errno));
    print_summary(r);
    int rc = 0;
    if (!ok) {
        rc = 1;
    } else if (!r->target_reached) {
        fprintf(stderr,
                "tuong-datagen: interrupted: the file holds whole games, %" PRIu64 " of them from this run; "
                "the next game is %" PRIu64 "\n",
                r->games, r->window.base);
        rc = 130;
    }
    run_free(r);
    return rc;
}
