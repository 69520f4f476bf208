// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-datagen generate`: the flags and their defaults, the output file
 * under a lock, then the worker pool (pool.h) does the playing. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "datafile.h"
#include "datagen.h"
#include "datashard.h"
#include "openings.h"
#include "pool.h"

#ifndef TUONG_DATAGEN_OPENINGS
#define TUONG_DATAGEN_OPENINGS "xiangqi.epd"
#endif

/* Defaults, each one a flag (docs/nnue.md, "Generating data"). Scores are
 * in engine units: a pawn about 20, a horse 100, a chariot 250. */
enum {
    DEFAULT_NODES = 5000,
    DEFAULT_HARD_FACTOR = 4,
    DEFAULT_HASH_MB = 16,
    DEFAULT_RANDOM_PLIES = 4,
    DEFAULT_SKIP_PLIES = 8,
    DEFAULT_SCORE_CAP = 2000,
    DEFAULT_RESIGN_SCORE = 1000,
    DEFAULT_RESIGN_MOVES = 3,
    DEFAULT_DRAW_SCORE = 4,
    DEFAULT_DRAW_PLIES = 16,
    DEFAULT_DRAW_FROM = 80,
    DEFAULT_MAX_PLIES = 400,
    DEFAULT_PROGRESS_S = 5,
    MAX_GAME_PLIES = 3000, /* well inside the Position history */
};

typedef struct {
    int64_t games, positions, threads, nodes, hard_nodes, hash_mb, random_plies, skip_plies, score_cap;
    int64_t resign_score, resign_moves, draw_score, draw_plies, draw_from, max_plies, progress_s;
    uint64_t seed;
    const char *out, *openings;
    const char *shard; /* --shard K/N, or NULL */
} Args;

static const char Usage[] =
    "usage: tuong-datagen [generate] --out FILE (--games N | --positions N) [options]\n"
    "       tuong-datagen stats FILE\n"
    "       tuong-datagen verify FILE\n"
    "       tuong-datagen merge OUT SHARD...\n"
    "Self-play of the engine's search from random opening lines; appends the quiet\n"
    "positions with score, result and ply to FILE (docs/nnue.md). Options:\n"
    "  --out FILE            data file, created with its header or appended to\n"
    "  --games N             play games 0..N-1 of the seed's sequence\n"
    "  --positions N         write the first N positions of the seed's sequence\n"
    "  --seed N              seed of the game sequence (default 1; use a new one per run)\n"
    "  --shard K/N           with --games: play shard K (0..N-1) of the run into the shard\n"
    "                        file --out; `merge` joins the shards (docs/cluster.md)\n"
    "  --threads N           worker processes (default: number of cores)\n"
    "  --openings FILE       EPD/FEN opening lines (default " TUONG_DATAGEN_OPENINGS ")\n"
    "  --random-plies N      random legal plies after the opening line, N+1 in odd games (default 4)\n"
    "  --nodes N             soft node limit per move (default 5000)\n"
    "  --hard-nodes N        hard node limit per move (default 4 x --nodes)\n"
    "  --hash MB             hash per worker (default 16)\n"
    "  --skip-plies N        record nothing in the first N plies after the opening line (default 8)\n"
    "  --score-cap S         record only |score| < S (default 2000)\n"
    "  --resign-score S      resign when both sides agree on a lead >= S ... (default 1000)\n"
    "  --resign-moves K      ... for K moves of each side in a row (default 3, 0 = off)\n"
    "  --draw-score S        adjudicate a draw when |score| <= S ... (default 4)\n"
    "  --draw-plies N        ... for N plies in a row (default 16, 0 = off) ...\n"
    "  --draw-from PLY       ... from this game ply on (default 80)\n"
    "  --max-plies N         draw after N plies past the opening line (default 400)\n"
    "  --progress SECONDS    progress line interval on stderr (default 5, 0 = none)\n";

typedef struct {
    const char *name;
    int64_t *value;
    int64_t min, max;
} IntFlag;

bool datagen_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tuong-datagen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

static bool parse_int64(const char *s, int64_t *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end) return false;
    *out = v;
    return true;
}

/* Parse the flags into a; false after printing one error line. */
static bool parse_args(int argc, char **argv, Args *a) {
    // clang-format off
    const IntFlag flags[] = {
        {"--games", &a->games, 1, INT64_C(1) << 40},
        {"--positions", &a->positions, 1, INT64_C(1) << 40},
        {"--threads", &a->threads, 1, POOL_MAX_WORKERS},
        {"--nodes", &a->nodes, 1, 1000000000},
        {"--hard-nodes", &a->hard_nodes, 1, 4000000000},
        {"--hash", &a->hash_mb, 1, 4096},
        {"--random-plies", &a->random_plies, 0, 100},
        {"--skip-plies", &a->skip_plies, 0, MAX_GAME_PLIES},
        {"--score-cap", &a->score_cap, 1, INT16_MAX},
        {"--resign-score", &a->resign_score, 1, 100000},
        {"--resign-moves", &a->resign_moves, 0, 1000},
        {"--draw-score", &a->draw_score, 0, 100000},
        {"--draw-plies", &a->draw_plies, 0, MAX_GAME_PLIES},
        {"--draw-from", &a->draw_from, 0, 65535},
        {"--max-plies", &a->max_plies, 1, MAX_GAME_PLIES},
        {"--progress", &a->progress_s, 0, 86400},
    };
    // clang-format on
    for (int i = 0; i < argc; i++) {
        const char *name = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
            fputs(Usage, stdout);
            exit(0);
        }
        if (!v) return datagen_error("%s needs a value (--help lists the options)", name);
        i++;
        if (!strcmp(name, "--out")) {
            a->out = v;
            continue;
        }
        if (!strcmp(name, "--shard")) {
            a->shard = v;
            continue;
        }
        if (!strcmp(name, "--openings")) {
            a->openings = v;
            continue;
        }
        if (!strcmp(name, "--seed")) {
            char *end;
            errno = 0;
            a->seed = strtoull(v, &end, 10);
            if (errno || end == v || *end || *v == '-') return datagen_error("--seed '%s' is not a number", v);
            continue;
        }
        const IntFlag *f = NULL;
        for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
            if (!strcmp(name, flags[k].name)) f = &flags[k];
        if (!f) return datagen_error("unknown option %s (--help lists them)", name);
        int64_t n;
        if (!parse_int64(v, &n) || n < f->min || n > f->max)
            return datagen_error("%s %s: expected a number in %" PRId64 "..%" PRId64, name, v, f->min, f->max);
        *f->value = n;
    }
    return true;
}

/* Defaults and the checks between flags; false after one error line. */
static bool finish_args(Args *a) {
    const char *why = NULL;
    if (!a->out)
        why = "--out FILE is required";
    else if (!a->games == !a->positions)
        why = "give exactly one of --games N and --positions N";
    else if (a->hard_nodes && a->hard_nodes < a->nodes)
        why = "--hard-nodes must be at least --nodes";
    else if (a->max_plies <= a->random_plies + 1)
        why = "--max-plies must exceed --random-plies + 1";
    else if (a->shard && !a->games)
        why = "--shard goes with --games N only (a --positions run cuts its last game short)";
    if (why) return datagen_error("%s", why);
    if (!a->hard_nodes) a->hard_nodes = a->nodes * DEFAULT_HARD_FACTOR;
    if (!a->threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        a->threads = n < 1 ? 1 : n > POOL_MAX_WORKERS ? POOL_MAX_WORKERS : n;
    }
    return true;
}

static SelfplaySettings settings_of(const Args *a) {
    return (SelfplaySettings){
        .nodes = (uint64_t)a->nodes,
        .hard_nodes = (uint64_t)a->hard_nodes,
        .hash_mb = (int)a->hash_mb,
        .random_plies = (int)a->random_plies,
        .skip_plies = (int)a->skip_plies,
        .score_cap = (int)a->score_cap,
        .resign_score = (int)a->resign_score,
        .resign_moves = (int)a->resign_moves,
        .draw_score = (int)a->draw_score,
        .draw_plies = (int)a->draw_plies,
        .draw_from = (int)a->draw_from,
        .max_plies = (int)a->max_plies,
    };
}

/* Open the output under an exclusive lock: two runs appending to one file
 * would interleave their records. */
static FILE *open_output(const char *path, uint64_t *count, int *lock_fd) {
    char err[600];
    *lock_fd = open(path, O_RDWR | O_CREAT, 0644);
    if (*lock_fd < 0) {
        datagen_error("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0) {
        datagen_error("%s is being written by another process", path);
        close(*lock_fd);
        *lock_fd = -1;
        return NULL;
    }
    FILE *f = datafile_open_append(path, count, err, sizeof err);
    if (!f) {
        datagen_error("%s", err);
        close(*lock_fd);
        *lock_fd = -1;
    }
    return f;
}

static PoolConfig pool_config_of(const Args *a) {
    return (PoolConfig){.play = settings_of(a),
                        .seed = a->seed,
                        .games = (uint64_t)a->games,
                        .positions = (uint64_t)a->positions,
                        .workers = (int)a->threads,
                        .progress_s = (int)a->progress_s,
                        .out_path = a->out};
}

int datagen_generate(int argc, char **argv) {
    Args a = {.nodes = DEFAULT_NODES,
              .hash_mb = DEFAULT_HASH_MB,
              .random_plies = DEFAULT_RANDOM_PLIES,
              .skip_plies = DEFAULT_SKIP_PLIES,
              .score_cap = DEFAULT_SCORE_CAP,
              .resign_score = DEFAULT_RESIGN_SCORE,
              .resign_moves = DEFAULT_RESIGN_MOVES,
              .draw_score = DEFAULT_DRAW_SCORE,
              .draw_plies = DEFAULT_DRAW_PLIES,
              .draw_from = DEFAULT_DRAW_FROM,
              .max_plies = DEFAULT_MAX_PLIES,
              .progress_s = DEFAULT_PROGRESS_S,
              .seed = 1,
              .openings = TUONG_DATAGEN_OPENINGS};
    if (!parse_args(argc, argv, &a) || !finish_args(&a)) return 2;
    ShardSpec shard;
    if (a.shard && !shard_parse(a.shard, &shard)) {
        datagen_error("--shard %s: expected K/N with 0 <= K < N", a.shard);
        return 2;
    }
    OpeningBook book;
    char err[600];
    if (!openings_load(&book, a.openings, err, sizeof err)) return !datagen_error("%s", err);
    int rc = 1, lock_fd = -1;
    uint64_t records;
    if (a.shard) {
        PoolConfig cfg = pool_config_of(&a);
        rc = datashard_generate(&cfg, &book, shard);
        openings_free(&book);
        return rc;
    }
    FILE *out = open_output(a.out, &records, &lock_fd);
    if (out) {
        fprintf(stderr,
                "datagen: %" PRId64 " workers, seed %" PRIu64 ", nodes %" PRId64 " (hard %" PRId64
                "), %d opening lines from %s, appending to %s (%" PRIu64 " records)\n",
                a.threads, a.seed, a.nodes, a.hard_nodes, book.count, a.openings, a.out, records);
        PoolConfig cfg = pool_config_of(&a);
        rc = pool_run(&cfg, &book, out, records);
    }
    if (lock_fd >= 0) close(lock_fd);
    openings_free(&book);
    return rc;
}
