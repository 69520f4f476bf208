// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-datagen generate` and `pool run`: the flags and their defaults,
 * the output file under a lock (in the data pool: its manifest entry, and
 * where a resumed run goes on), then the worker pool (pool.h) does the
 * playing. `pool adopt` is here too: it takes the same flags. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "datafile.h"
#include "datagen.h"
#include "datapool.h"
#include "datashard.h"
#include "openings.h"
#include "pool.h"
#include "version.h"

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

typedef enum { MODE_GENERATE, MODE_POOL_RUN, MODE_ADOPT } Mode;

typedef struct {
    int64_t games, positions, threads, nodes, hard_nodes, hash_mb, random_plies, skip_plies, score_cap;
    int64_t resign_score, resign_moves, draw_score, draw_plies, draw_from, max_plies, progress_s;
    uint64_t seed;
    const char *out, *openings, *evalfile;
    const char *shard; /* --shard K/N, or NULL */
    Mode mode;
    const char *pool;                          /* --pool DIR */
    bool pool_given;                           /* --pool, or the pool run / pool adopt subcommands */
    bool new_commit;                           /* --new-commit */
    bool no_replay;                            /* pool adopt --no-replay */
    const char *commit, *net, *created, *file; /* pool adopt */
} Args;

static const char Usage[] =
    "usage: tuong-datagen [generate] --out FILE (--games N | --positions N) [options]\n"
    "       tuong-datagen [generate] --pool DIR [--games N | --positions N] [options]\n"
    "       tuong-datagen pool run [--pool DIR] [--games N | --positions N] [options]\n"
    "       tuong-datagen pool list|verify [--pool DIR]\n"
    "       tuong-datagen pool adopt FILE --commit C --net H [--games G] [--created DATE] [options]\n"
    "       tuong-datagen rescore IN OUT [--nodes N] [--threads N] [--evalfile NET] ...\n"
    "       tuong-datagen from-pgn --out FILE [--skip-plies N] [--every K] GAMES.pgn...\n"
    "       tuong-datagen stats FILE\n"
    "       tuong-datagen verify FILE\n"
    "       tuong-datagen merge OUT SHARD...\n"
    "Self-play of the engine's search from random opening lines; appends the quiet\n"
    "positions with score, result and ply to FILE (docs/nnue.md). Options:\n"
    "  --out FILE            data file, created with its header or appended to\n"
    "  --pool DIR            append to the run file run-s<seed>-n<nodes>.bin of the data pool\n"
    "                        instead, resuming it where it stopped (`pool run`: the default\n"
    "                        pool, $TUONG_DATA_DIR or ${XDG_DATA_HOME:-~/.local/share}/tuong/data)\n"
    "  --games N             play games 0..N-1 of the seed's sequence (in the pool: in all)\n"
    "  --positions N         write the first N positions of the seed's sequence (in the pool:\n"
    "                        whole games until the file holds N; no target: until stopped)\n"
    "  --seed N              seed of the game sequence (default 1; use a new one per run)\n"
    "  --shard K/N           with --games: play shard K (0..N-1) of the run into the shard\n"
    "                        file --out; `merge` joins the shards (docs/cluster.md)\n"
    "  --threads N           worker processes (default: number of cores)\n"
    "  --evalfile NET        search with this net (default: the embedded one)\n"
    "  --new-commit          go on with a pool run that another engine commit began\n"
    "  --no-replay           pool adopt: do not play game G-1 again to check --games G\n"
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

double datagen_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void datagen_help_if_asked(const char *arg, const char *usage) {
    if (strcmp(arg, "--help") && strcmp(arg, "-h")) return;
    fputs(usage, stdout);
    exit(0);
}

bool datagen_int_flag(const char *name, const char *value, int64_t min, int64_t max, int64_t *out) {
    char *end;
    errno = 0;
    long long n = strtoll(value, &end, 10);
    if (errno || end == value || *end || n < min || n > max)
        return datagen_error("%s %s: expected a number in %" PRId64 "..%" PRId64, name, value, min, max);
    *out = n;
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
        datagen_help_if_asked(name, Usage);
        if (!strcmp(name, "--new-commit") && a->mode != MODE_ADOPT) {
            a->new_commit = true;
            continue;
        }
        if (!strcmp(name, "--no-replay") && a->mode == MODE_ADOPT) {
            a->no_replay = true;
            continue;
        }
        if (a->mode == MODE_ADOPT && name[0] != '-' && !a->file) {
            a->file = name;
            continue;
        }
        if (!v) return datagen_error("%s needs a value (--help lists the options)", name);
        i++;
        // clang-format off
        struct { const char *name, **value; bool ok; } strings[] = {
            {"--out", &a->out, a->mode == MODE_GENERATE},
            {"--shard", &a->shard, a->mode == MODE_GENERATE},
            {"--openings", &a->openings, true},
            {"--evalfile", &a->evalfile, true},
            {"--pool", &a->pool, true},
            {"--commit", &a->commit, a->mode == MODE_ADOPT},
            {"--net", &a->net, a->mode == MODE_ADOPT},
            {"--created", &a->created, a->mode == MODE_ADOPT},
        };
        // clang-format on
        bool taken = false;
        for (size_t k = 0; k < sizeof strings / sizeof *strings && !taken; k++)
            if (!strcmp(name, strings[k].name) && strings[k].ok) {
                *strings[k].value = v;
                taken = true;
            }
        if (taken) continue;
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
        if (!datagen_int_flag(name, v, f->min, f->max, f->value)) return false;
    }
    return true;
}

/* Defaults and the checks between flags; false after one error line. */
static bool finish_args(Args *a) {
    const char *why = NULL;
    a->pool_given = a->pool_given || a->pool;
    if (a->mode == MODE_ADOPT && !a->file)
        why = "pool adopt: which FILE?";
    else if (a->mode == MODE_ADOPT && (!a->commit || !a->net))
        why = "pool adopt: --commit and --net are required (the engine commit and net that made the file)";
    else if (a->mode != MODE_ADOPT && !a->out && !a->pool_given)
        why = "--out FILE or --pool DIR is required";
    else if (a->out && a->pool_given)
        why = "give --out FILE or --pool DIR, not both";
    else if (a->games && a->positions)
        why = "give exactly one of --games N and --positions N";
    else if (a->mode == MODE_ADOPT && a->positions)
        why = "pool adopt: --positions is counted from the file; --games N gives its games";
    else if (a->mode != MODE_ADOPT && !a->pool_given && !a->games && !a->positions)
        why = "give exactly one of --games N and --positions N";
    else if (a->hard_nodes && a->hard_nodes < a->nodes)
        why = "--hard-nodes must be at least --nodes";
    else if (a->max_plies <= a->random_plies + 1)
        why = "--max-plies must exceed --random-plies + 1";
    else if (a->shard && !a->games)
        why = "--shard goes with --games N only (a --positions run cuts its last game short)";
    else if (a->shard && a->pool_given)
        why = "--shard writes a shard file (--out) for `merge`, not into the pool";
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

/* Take the output's exclusive lock (creating the file when missing): two
 * runs appending to one file would interleave their records. */
static bool lock_output(const char *path, int *lock_fd) {
    *lock_fd = open(path, O_RDWR | O_CREAT, 0644);
    if (*lock_fd < 0) return datagen_error("%s: cannot open: %s", path, strerror(errno));
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) == 0) return true;
    close(*lock_fd);
    *lock_fd = -1;
    return datagen_error("%s is being written by another process", path);
}

/* Open the output under its lock (lock_output first when *lock_fd < 0). */
static FILE *open_output(const char *path, uint64_t *count, int *lock_fd) {
    char err[600];
    if (*lock_fd < 0 && !lock_output(path, lock_fd)) return NULL;
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

/* ---------------------------------------------------------------------- */
/* A run file of the data pool                                             */

/* The flags besides seed and nodes that change the games, as the
 * manifest's settings column spells them; false with one error line. */
static bool settings_text(const Args *a, char *out, size_t cap) {
    char tag[MANIFEST_TOKEN_MAX], err[600];
    if (!datapool_file_tag(a->openings, tag, sizeof tag, err, sizeof err)) return datagen_error("%s", err);
    int n = snprintf(out, cap,
                     "hard=%" PRId64 ",random-plies=%" PRId64 ",skip-plies=%" PRId64 ",score-cap=%" PRId64
                     ",resign=%" PRId64 "x%" PRId64 ",draw=%" PRId64 "x%" PRId64 "from%" PRId64 ",max-plies=%" PRId64
                     ",hash=%" PRId64 ",openings=%s",
                     a->hard_nodes, a->random_plies, a->skip_plies, a->score_cap, a->resign_score, a->resign_moves,
                     a->draw_score, a->draw_plies, a->draw_from, a->max_plies, a->hash_mb, tag);
    return (n > 0 && (size_t)n < cap) || datagen_error("the settings are too long for the manifest");
}

/* The manifest entry a run with these flags describes (no data yet). */
static bool entry_of(const Args *a, const char *file, ManifestEntry *e) {
    memset(e, 0, sizeof *e);
    snprintf(e->file, sizeof e->file, "%s", file);
    e->kind = MANIFEST_SELFPLAY;
    e->nodes = (uint64_t)a->nodes;
    e->seed = a->seed;
    snprintf(e->source, sizeof e->source, "-");
    snprintf(e->commit, sizeof e->commit, "%s", version_commit());
    datapool_net_name(e->net);
    datapool_now(e->created);
    memcpy(e->updated, e->created, sizeof e->updated);
    return settings_text(a, e->settings, sizeof e->settings);
}

/* A pool run in progress: its entry is brought up to date after every
 * game, the digest carried along as the file grows. */
typedef struct {
    char dir[DATAPOOL_PATH_MAX];
    ManifestEntry entry;
    Sha256 digest;
} PoolRun;

static bool after_game(void *ctx, uint64_t game, const DataRecord *records, size_t n) {
    PoolRun *p = ctx;
    char err[800];
    sha256_update(&p->digest, records, n * sizeof *records);
    sha256_hex(&p->digest, p->entry.sha256);
    p->entry.positions += n;
    p->entry.games = p->entry.next = game + 1;
    datapool_now(p->entry.updated);
    return datapool_record(p->dir, &p->entry, err, sizeof err) || datagen_error("%s", err);
}

/* The last engine commit of a commit column ("a" or "a,b@1200" -> "b"). */
static void last_commit(const char *commits, char *out, size_t cap) {
    const char *last = strrchr(commits, ',');
    last = last ? last + 1 : commits;
    snprintf(out, cap, "%.*s", (int)strcspn(last, "@"), last);
}

/* May this run go on with the pool's entry old? One error line if not. */
static bool can_resume(const ManifestEntry *old, const ManifestEntry *want, bool new_commit) {
    const char *f = old->file;
    if (old->kind != MANIFEST_SELFPLAY) return datagen_error("%s is a rescored file in the pool, not a run", f);
    if (old->seed != want->seed || old->nodes != want->nodes)
        return datagen_error("%s is listed with another seed or node limit", f);
    if (strcmp(old->settings, want->settings))
        return datagen_error("%s was made with settings %s; this run's are %s: give the same flags, or another --seed",
                             f, old->settings, want->settings);
    if (strcmp(old->net, want->net))
        return datagen_error("%s was made with net %s; this run has %s (--evalfile): use another --seed", f, old->net,
                             want->net);
    char last[MANIFEST_TOKEN_MAX];
    last_commit(old->commit, last, sizeof last);
    if (strcmp(last, want->commit) && !new_commit)
        return datagen_error("%s was made by engine %s, this is %s: its games may differ; --new-commit goes on "
                             "with this build (the manifest then names both), or use another --seed",
                             f, last, want->commit);
    if (old->next == MANIFEST_UNKNOWN)
        return datagen_error("the manifest does not say how many games %s holds: adopt it again with --games N", f);
    return true;
}

/* The file on disk against its entry: the same records and digest. */
static bool file_matches(const char *path, const ManifestEntry *old, uint64_t records, const Sha256 *digest) {
    if (records > old->positions) {
        uint64_t bytes = DATAFILE_HEADER_SIZE + old->positions * DATAFILE_RECORD_SIZE;
        return datagen_error("%s holds %" PRIu64 " records, %" PRIu64 " more than the manifest says (a run killed "
                             "before it could record them?): truncate -s %" PRIu64 " %s drops them, and the run "
                             "then plays those games again",
                             path, records, records - old->positions, bytes, path);
    }
    if (records < old->positions)
        return datagen_error("%s holds %" PRIu64 " records, the manifest says %" PRIu64 ": it was changed outside "
                             "tuong-datagen (pool verify)",
                             path, records, old->positions);
    char hex[SHA256_HEX_SIZE];
    sha256_hex(digest, hex);
    if (strcmp(hex, old->sha256))
        return datagen_error("%s: its sha256 differs from the manifest's: it was changed outside tuong-datagen "
                             "(pool verify)",
                             path);
    return true;
}

/* Open the pool's run file for this seed and settings under its lock, and
 * set the entry and the start game; false after one error line. */
static bool open_pool_run(const Args *a, PoolRun *p, char *path, size_t cap, FILE **out, uint64_t *records,
                          int *lock_fd) {
    char err[800], name[MANIFEST_FILE_MAX];
    if (!datapool_dir(a->pool, p->dir, sizeof p->dir, err, sizeof err) || !datapool_make_dir(p->dir, err, sizeof err))
        return datagen_error("%s", err);
    snprintf(name, sizeof name, "run-s%" PRIu64 "-n%" PRId64 ".bin", a->seed, a->nodes);
    if (!datapool_path(p->dir, name, path, cap)) return datagen_error("%s: path too long", p->dir);
    ManifestEntry want;
    Manifest m;
    if (!entry_of(a, name, &want)) return false;
    /* The file's lock before its entry: a run of it that is just ending has
     * recorded its last game by the time we hold the lock. */
    if (!lock_output(path, lock_fd)) return false;
    if (!datapool_load(p->dir, &m, err, sizeof err)) return datagen_error("%s", err);
    const ManifestEntry *found = manifest_find(&m, name);
    ManifestEntry copy = found ? *found : want;
    const ManifestEntry *old = found ? &copy : NULL;
    manifest_free(&m);
    if (old && !can_resume(old, &want, a->new_commit)) return false;
    p->entry = copy;
    struct stat st;
    if (!old && stat(path, &st) == 0 && st.st_size > DATAFILE_HEADER_SIZE) /* a header alone holds nothing */
        return datagen_error("%s is in the pool but not in its manifest: tuong-datagen pool adopt it first, or "
                             "use another --seed",
                             path);
    if (!(*out = open_output(path, records, lock_fd))) return false;
    uint64_t size;
    if (!datapool_hash_file(path, UINT64_MAX, &p->digest, &size, err, sizeof err)) return datagen_error("%s", err);
    if (old && !file_matches(path, old, *records, &p->digest)) return false;
    char last[MANIFEST_TOKEN_MAX];
    if (old) last_commit(old->commit, last, sizeof last);
    if (old && strcmp(last, want.commit)) { /* --new-commit: this build, from the next game on */
        char *c = p->entry.commit;
        size_t used = strlen(c);
        int n = snprintf(c + used, sizeof p->entry.commit - used, ",%s@%" PRIu64, want.commit, old->next);
        if (n < 0 || (size_t)n >= sizeof p->entry.commit - used)
            return datagen_error("%s: too many engine commits for the manifest: use another --seed", path);
    }
    sha256_hex(&p->digest, p->entry.sha256);
    return old || datapool_record(p->dir, &p->entry, err, sizeof err) || datagen_error("%s", err);
}

/* Play a pool run; returns the exit code. */
static int run_in_pool(Args *a, const OpeningBook *book) {
    static PoolRun p;
    char path[DATAPOOL_PATH_MAX];
    int lock_fd = -1, rc = 1;
    uint64_t records;
    FILE *out = NULL;
    if (open_pool_run(a, &p, path, sizeof path, &out, &records, &lock_fd)) {
        PoolConfig cfg = pool_config_of(a);
        cfg.out_path = path;
        cfg.first_game = p.entry.next;
        cfg.whole_games = true;
        cfg.after_game = after_game;
        cfg.ctx = &p;
        if (a->positions) cfg.positions = (uint64_t)a->positions > records ? (uint64_t)a->positions - records : 0;
        if ((a->games && p.entry.next >= (uint64_t)a->games) || (a->positions && !cfg.positions)) {
            fprintf(stderr, "datagen: %s already holds %" PRIu64 " games, %" PRIu64 " positions: nothing to do\n", path,
                    p.entry.next, records);
            fclose(out);
            rc = 0;
        } else {
            fprintf(stderr,
                    "datagen: %" PRId64 " workers, seed %" PRIu64 ", nodes %" PRId64 " (hard %" PRId64
                    "), net %s, %d opening lines, pool run %s from game %" PRIu64 " (%" PRIu64 " records)\n",
                    a->threads, a->seed, a->nodes, a->hard_nodes, p.entry.net, book->count, path, p.entry.next,
                    records);
            rc = pool_run(&cfg, book, out, records);
        }
    } else if (out) {
        fclose(out);
    }
    if (lock_fd >= 0) close(lock_fd);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* pool adopt                                                              */

/* Read every record (each must unpack) and count the games by their plies:
 * a new game starts where the ply does not increase. A game that recorded
 * nothing, or one whose first ply follows the last one's, is not seen, so
 * this is at least the number of games, not always all of them. */
static bool count_games(const char *path, uint64_t *count, uint64_t *games) {
    char err[600], why[200];
    FILE *f = datafile_open_read(path, count, err, sizeof err);
    if (!f) return datagen_error("%s", err);
    int prev = -1;
    *games = 0;
    bool ok = true;
    for (uint64_t i = 0; ok && i < *count; i++) {
        DataRecord rec;
        DataEntry e;
        if (datafile_read(f, &rec, 1) != 1)
            ok = datagen_error("%s: read failed at record %" PRIu64, path, i);
        else if (!datafile_unpack(&rec, &e, why, sizeof why))
            ok = datagen_error("%s: record %" PRIu64 " (byte %" PRIu64 "): %s", path, i,
                               (uint64_t)DATAFILE_HEADER_SIZE + i * DATAFILE_RECORD_SIZE, why);
        else if (e.ply <= prev || i == 0)
            ++*games;
        prev = ok ? e.ply : prev;
    }
    fclose(f);
    return ok;
}

/* Does game games-1 of the flags' sequence, played again here, give the
 * file's last records? It confirms --games (a run stopped by Ctrl-C ends
 * with whole games) and that this build plays as the one that made the
 * file, so a pool run that resumes it continues the same sequence. */
static bool last_game_replays(const Args *a, const char *path, uint64_t count) {
    OpeningBook book;
    char err[600];
    if (!openings_load(&book, a->openings, err, sizeof err)) return datagen_error("%s", err);
    SelfplaySettings s = settings_of(a);
    selfplay_init(&s);
    SelfplayGame game = {.records = malloc(sizeof(DataRecord) * (size_t)(s.max_plies + 1))};
    DataRecord *tail = malloc(sizeof(DataRecord) * (size_t)(s.max_plies + 1));
    atomic_int stop = 0;
    bool ok = game.records && tail && selfplay_game(&book, &s, a->seed, (uint64_t)a->games - 1, &game, &stop);
    openings_free(&book);
    uint64_t n;
    FILE *f = ok ? datafile_open_read(path, &n, err, sizeof err) : NULL;
    ok = f && (uint64_t)game.count <= count &&
         fseeko(f, (off_t)(DATAFILE_HEADER_SIZE + (count - (uint64_t)game.count) * DATAFILE_RECORD_SIZE), SEEK_SET) ==
             0 &&
         datafile_read(f, tail, (size_t)game.count) == (size_t)game.count &&
         !memcmp(tail, game.records, sizeof *tail * (size_t)game.count);
    if (f) fclose(f);
    free(game.records);
    free(tail);
    if (ok) return true;
    return datagen_error("game %" PRId64 " of seed %" PRIu64 " played again does not end the file: --games or another "
                         "flag is wrong, or this build plays otherwise than the one that made it (then --no-replay "
                         "registers it anyway, but a resumed run would not continue its games)",
                         a->games - 1, a->seed);
}

/* Register a data file that a tuong-datagen without the pool wrote: its
 * settings from the flags, counted and hashed here. */
static int adopt(const Args *a) {
    char err[800], dir[DATAPOOL_PATH_MAX], path[DATAPOOL_PATH_MAX], name[MANIFEST_FILE_MAX];
    if (!datapool_dir(a->pool, dir, sizeof dir, err, sizeof err)) return !datagen_error("%s", err);
    if (snprintf(path, sizeof path, strchr(a->file, '/') ? "%s" : "%s/%s", strchr(a->file, '/') ? a->file : dir,
                 a->file) >= (int)sizeof path)
        return !datagen_error("%s: path too long", a->file);
    if (!datapool_holds(dir, path, name, sizeof name))
        return !datagen_error("%s is not a file in the pool %s: move it there first, or give --pool DIR", path, dir);
    char run_name[MANIFEST_FILE_MAX];
    snprintf(run_name, sizeof run_name, "run-s%" PRIu64 "-n%" PRId64 ".bin", a->seed, a->nodes);
    if (!strncmp(name, "run-s", 5) && strcmp(name, run_name))
        return !datagen_error("%s: a pool run of --seed %" PRIu64 " --nodes %" PRId64 " is named %s", name, a->seed,
                              a->nodes, run_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return !datagen_error("%s: cannot open: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return !datagen_error("%s is being written by another process: adopt it once that run has stopped", path);
    }
    ManifestEntry e;
    Manifest m;
    Sha256 digest;
    uint64_t count = 0, games = 0, size;
    bool ok = count_games(path, &count, &games) && entry_of(a, name, &e);
    if (ok && a->games && (uint64_t)a->games < games)
        ok = datagen_error("%s holds at least %" PRIu64 " games (a new one starts where the ply drops), more than "
                           "--games %" PRId64,
                           path, games, a->games);
    char net[MANIFEST_TOKEN_MAX];
    datapool_net_name(net);
    if (ok && a->games && !a->no_replay && strcmp(net, a->net))
        ok = datagen_error("cannot play game %" PRId64 " again to check --games: this build's net is %s, not %s "
                           "(--evalfile NET, or --no-replay)",
                           a->games - 1, net, a->net);
    else if (ok && a->games && !a->no_replay)
        ok = last_game_replays(a, path, count);
    if (ok && !datapool_load(dir, &m, err, sizeof err)) ok = datagen_error("%s", err);
    if (ok) {
        const ManifestEntry *old = manifest_find(&m, name); /* adopting again may only add the games */
        if (old && (old->games != MANIFEST_UNKNOWN || !a->games))
            ok = datagen_error("%s is already in the pool's manifest", name);
        manifest_free(&m);
    }
    if (ok && !datapool_hash_file(path, UINT64_MAX, &digest, &size, err, sizeof err)) ok = datagen_error("%s", err);
    if (ok) {
        e.positions = count;
        e.games = e.next = a->games ? (uint64_t)a->games : MANIFEST_UNKNOWN;
        snprintf(e.commit, sizeof e.commit, "%s", a->commit);
        snprintf(e.net, sizeof e.net, "%s", a->net);
        for (char *p = e.net; *p; p++)
            *p = *p >= 'A' && *p <= 'F' ? (char)(*p - 'A' + 'a') : *p;
        if (a->created) snprintf(e.created, sizeof e.created, "%.20s", a->created);
        if (a->created && strlen(a->created) != MANIFEST_DATE_SIZE - 1) e.created[0] = '\0';
        sha256_hex(&digest, e.sha256);
        ok = datapool_record(dir, &e, err, sizeof err) || datagen_error("pool adopt: %s", err);
    }
    close(fd);
    if (!ok) return 1;
    printf("adopted %s: %" PRIu64 " positions, ", name, count);
    if (a->games)
        printf("%" PRId64 " games\n", a->games);
    else
        printf("games unknown (at least %" PRIu64
               "): pool run cannot resume it until it is adopted again with --games N\n",
               games);
    if (strncmp(name, "run-s", 5))
        printf("(pool run names its files run-s<seed>-n<nodes>.bin: rename it to that before adopting to resume it)\n");
    return 0;
}

static int generate(Mode mode, int argc, char **argv) {
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
              .openings = TUONG_DATAGEN_OPENINGS,
              .mode = mode,
              .pool_given = mode == MODE_POOL_RUN};
    if (!parse_args(argc, argv, &a) || !finish_args(&a)) return 2;
    ShardSpec shard;
    if (a.shard && !shard_parse(a.shard, &shard)) {
        datagen_error("--shard %s: expected K/N with 0 <= K < N", a.shard);
        return 2;
    }
    OpeningBook book;
    char err[600];
    if (a.evalfile && !datapool_use_net(a.evalfile, err, sizeof err)) return !datagen_error("%s", err);
    if (mode == MODE_ADOPT) return adopt(&a);
    if (!openings_load(&book, a.openings, err, sizeof err)) return !datagen_error("%s", err);
    if (a.pool_given) {
        int rc = run_in_pool(&a, &book);
        openings_free(&book);
        return rc;
    }
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

int datagen_generate(int argc, char **argv) { return generate(MODE_GENERATE, argc, argv); }

int datagen_pool_run(int argc, char **argv) { return generate(MODE_POOL_RUN, argc, argv); }

int datagen_adopt(int argc, char **argv) { return generate(MODE_ADOPT, argc, argv); }
