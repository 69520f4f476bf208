// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * `tuong-datagen rescore IN OUT`: label the positions of a data file again
 * with a deeper search (docs/nnue.md, "Rescoring"). Result and ply stay;
 * the score is the new search's. A position the new search finds not quiet
 * (its best move a capture), mated or mating, or at or above --score-cap is
 * dropped, so OUT keeps what tuong-datagen records.
 *
 * The input is cut into chunks of CHUNK records, counted from its start.
 * Each chunk is scored by one worker process, in order, from a cleared
 * search (hash, histories), so a position's new score depends only on its
 * chunk and the settings: the same for any --threads, and for a run that
 * resumes at a chunk. Worker w takes chunks w, w + T, w + 2T, ...; the
 * parent reads them back in chunk order (the pipes hold a few chunks each,
 * so the workers run ahead) and writes and flushes each chunk whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "datafile.h"
#include "datagen.h"
#include "datapool.h"
#include "pool.h"
#include "score.h"
#include "search.h"
#include "selfplay.h"
#include "version.h"

enum {
    CHUNK = 256, /* records scored from one cleared search; part of the data's definition */
    DEFAULT_NODES = 10000,
    DEFAULT_HARD_FACTOR = 4,
    DEFAULT_HASH_MB = 16,
    DEFAULT_SCORE_CAP = 2000,
    DEFAULT_PROGRESS_S = 10,
};

typedef enum { DROP_CAPTURE, DROP_MATE, DROP_CAP, DROP_NB } DropReason;

typedef struct {
    int64_t nodes, hard_nodes, threads, hash_mb, score_cap, progress_s;
    const char *in, *out, *evalfile, *pool;
} Args;

/* What a worker sends per chunk, followed by `kept` records. */
typedef struct {
    uint64_t chunk, nodes, abs_change;
    uint32_t kept, dropped[DROP_NB];
} ChunkMsg;

static const char Usage[] = "usage: tuong-datagen rescore IN OUT [options]\n"
                            "Searches every position of the data file IN again and writes it to OUT with the new\n"
                            "score (result and ply kept); drops the positions the new search finds not quiet\n"
                            "(best move a capture), mate scores and |score| >= --score-cap. The same bytes for any\n"
                            "--threads. OUT must be new, or an unfinished rescore of IN in the pool, which goes on.\n"
                            "  --nodes N          soft node limit per position (default 10000)\n"
                            "  --hard-nodes N     hard node limit (default 4 x --nodes)\n"
                            "  --threads N        worker processes (default: number of cores)\n"
                            "  --evalfile NET     search with this net (default: the embedded one)\n"
                            "  --hash MB          hash per worker (default 16), cleared every 256 positions\n"
                            "  --score-cap S      keep only |score| < S (default 2000)\n"
                            "  --pool DIR         the data pool (default $TUONG_DATA_DIR or\n"
                            "                     ${XDG_DATA_HOME:-~/.local/share}/tuong/data): when OUT is in it,\n"
                            "                     the manifest records the rescore\n"
                            "  --progress SECONDS progress line interval on stderr (default 10, 0 = none)\n";

/* ---------------------------------------------------------------------- */
/* Flags                                                                   */

static bool parse_args(int argc, char **argv, Args *a) {
    // clang-format off
    struct { const char *name; int64_t *value; int64_t min, max; } ints[] = {
        {"--nodes", &a->nodes, 1, 1000000000},
        {"--hard-nodes", &a->hard_nodes, 1, 4000000000},
        {"--threads", &a->threads, 1, POOL_MAX_WORKERS},
        {"--hash", &a->hash_mb, 1, 4096},
        {"--score-cap", &a->score_cap, 1, INT16_MAX},
        {"--progress", &a->progress_s, 0, 86400},
    };
    // clang-format on
    for (int i = 0; i < argc; i++) {
        const char *name = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        datagen_help_if_asked(name, Usage);
        if (name[0] != '-' || !name[1]) {
            if (!a->in)
                a->in = name;
            else if (!a->out)
                a->out = name;
            else
                return datagen_error("rescore takes two files, IN and OUT (rescore --help)");
            continue;
        }
        if (!v) return datagen_error("%s needs a value (rescore --help lists the options)", name);
        i++;
        if (!strcmp(name, "--evalfile") || !strcmp(name, "--pool")) {
            *(name[2] == 'e' ? &a->evalfile : &a->pool) = v;
            continue;
        }
        bool found = false;
        for (size_t k = 0; k < sizeof ints / sizeof *ints && !found; k++) {
            if (strcmp(name, ints[k].name)) continue;
            if (!datagen_int_flag(name, v, ints[k].min, ints[k].max, ints[k].value)) return false;
            found = true;
        }
        if (!found) return datagen_error("unknown option %s (rescore --help lists them)", name);
    }
    if (!a->in || !a->out) return datagen_error("usage: tuong-datagen rescore IN OUT [options] (rescore --help)");
    if (a->hard_nodes && a->hard_nodes < a->nodes) return datagen_error("--hard-nodes must be at least --nodes");
    if (!a->hard_nodes) a->hard_nodes = a->nodes * DEFAULT_HARD_FACTOR;
    if (!a->threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        a->threads = n < 1 ? 1 : n > POOL_MAX_WORKERS ? POOL_MAX_WORKERS : n;
    }
    return true;
}

static SelfplaySettings settings_of(const Args *a) {
    return (SelfplaySettings){.nodes = (uint64_t)a->nodes,
                              .hard_nodes = (uint64_t)a->hard_nodes,
                              .hash_mb = (int)a->hash_mb,
                              .score_cap = (int)a->score_cap};
}

/* ---------------------------------------------------------------------- */
/* The input                                                               */

/* Every record a legal quiet position with a label datagen would write, as
 * `tuong-datagen verify` checks; false after one error line. */
static bool check_input(const char *path, uint64_t count) {
    char err[600], why[200];
    uint64_t n;
    FILE *f = datafile_open_read(path, &n, err, sizeof err);
    if (!f) return datagen_error("%s", err);
    static Position pos;
    bool ok = true;
    for (uint64_t i = 0; ok && i < count; i++) {
        DataRecord rec;
        DataEntry e;
        ok = datafile_read(f, &rec, 1) == 1;
        if (!ok) {
            snprintf(why, sizeof why, "cannot read it");
        } else if (!datafile_unpack(&rec, &e, why, sizeof why) || !datafile_to_position(&e, &pos, why, sizeof why)) {
            ok = false;
        } else if (pos_in_check(&pos) || score_is_mate(e.score)) {
            snprintf(why, sizeof why, "not a position tuong-datagen records (in check or a mate score)");
            ok = false;
        }
        if (!ok)
            datagen_error("%s: record %" PRIu64 " (byte %" PRIu64 "): %s", path, i,
                          (uint64_t)DATAFILE_HEADER_SIZE + i * DATAFILE_RECORD_SIZE, why);
    }
    fclose(f);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* Workers                                                                 */

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

static bool read_all(int fd, void *buf, size_t n) {
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r <= 0) return false; /* EINTR too: the parent checks for an interrupt */
        p += r;
        n -= (size_t)r;
    }
    return true;
}

/* Score one chunk (records in[0..n-1]) into out; fills the message. */
static void score_chunk(const SelfplaySettings *s, const DataRecord *in, size_t n, DataRecord *out, ChunkMsg *m) {
    static Position pos;
    char why[200];
    search_clear();
    for (size_t i = 0; i < n; i++) {
        DataEntry e;
        datafile_unpack(&in[i], &e, why, sizeof why); /* checked before the workers started */
        datafile_to_position(&e, &pos, why, sizeof why);
        Move best;
        Score score;
        m->nodes += selfplay_search(&pos, s, &best, &score);
        if (score_is_mate(score))
            m->dropped[DROP_MATE]++;
        else if (abs(score) >= s->score_cap)
            m->dropped[DROP_CAP]++;
        else if (best == MOVE_NONE || pos_piece_on(&pos, move_to(best)) != NO_PIECE)
            m->dropped[DROP_CAPTURE]++;
        else {
            out[m->kept] = in[i];
            datafile_set_score(&out[m->kept++], score);
            m->abs_change += (uint64_t)abs(score - e.score);
        }
    }
}

/* Score chunks first_chunk, first_chunk + step, ... of the first `count`
 * records of the input (it may have grown since). */
static _Noreturn void worker_main(int fd, const char *in_path, const SelfplaySettings *s, uint64_t count,
                                  uint64_t first_chunk, int step) {
    signal(SIGINT, SIG_IGN); /* the parent stops us */
    signal(SIGPIPE, SIG_IGN);
    SelfplaySettings settings = *s;
    selfplay_init(&settings);
    DataRecord *in = malloc(sizeof *in * CHUNK), *out = malloc(sizeof *out * CHUNK);
    uint64_t now;
    char err[600];
    FILE *f = datafile_open_read(in_path, &now, err, sizeof err);
    if (!in || !out || !f || now < count) _exit(1);
    for (uint64_t c = first_chunk; c * CHUNK < count; c += (uint64_t)step) {
        if (fseeko(f, (off_t)(DATAFILE_HEADER_SIZE + c * CHUNK * DATAFILE_RECORD_SIZE), SEEK_SET) != 0) _exit(1);
        uint64_t left = count - c * CHUNK;
        size_t n = datafile_read(f, in, left < CHUNK ? (size_t)left : CHUNK);
        ChunkMsg m = {.chunk = c};
        score_chunk(&settings, in, n, out, &m);
        if (!write_all(fd, &m, sizeof m) || !write_all(fd, out, sizeof *out * m.kept)) break;
    }
    _exit(0);
}

/* ---------------------------------------------------------------------- */
/* The parent                                                              */

typedef struct {
    const Args *args;
    uint64_t count;        /* input records rescored in all (the input may have grown since) */
    uint64_t first_record; /* where this run starts (a chunk boundary) */
    FILE *out;
    const char *out_path;
    bool in_pool;
    char dir[DATAPOOL_PATH_MAX];
    ManifestEntry entry;
    Sha256 digest;
    uint64_t done, kept, nodes, abs_change, dropped[DROP_NB]; /* this run */
    int fds[POOL_MAX_WORKERS];
    pid_t pids[POOL_MAX_WORKERS];
    int workers;
} Rescore;

static volatile sig_atomic_t Interrupted;

static void on_signal(int sig) {
    (void)sig;
    Interrupted = 1;
}

static bool start_workers(Rescore *r, const SelfplaySettings *s) {
    uint64_t first = r->first_record / CHUNK;
    fflush(NULL);
    for (int i = 0; i < r->workers; i++) {
        int p[2];
        if (pipe(p) != 0) return datagen_error("pipe: %s", strerror(errno));
        pid_t pid = fork();
        if (pid < 0) return datagen_error("fork: %s", strerror(errno));
        if (pid == 0) {
            close(p[0]);
            for (int k = 0; k < i; k++)
                close(r->fds[k]);
            worker_main(p[1], r->args->in, s, r->count, first + (uint64_t)i, r->workers);
        }
        close(p[1]);
        r->fds[i] = p[0];
        r->pids[i] = pid;
    }
    return true;
}

/* Write one chunk's records and bring the manifest entry up to date. */
static bool write_chunk(Rescore *r, const ChunkMsg *m, const DataRecord *recs) {
    char err[800];
    if (!datafile_write(r->out, recs, m->kept) || fflush(r->out) != 0)
        return datagen_error("%s: write failed: %s", r->out_path, strerror(errno));
    sha256_update(&r->digest, recs, sizeof *recs * m->kept);
    uint64_t end = (m->chunk + 1) * CHUNK < r->count ? (m->chunk + 1) * CHUNK : r->count;
    r->done = end - r->first_record;
    r->kept += m->kept;
    r->nodes += m->nodes;
    r->abs_change += m->abs_change;
    for (int k = 0; k < DROP_NB; k++)
        r->dropped[k] += m->dropped[k];
    if (!r->in_pool) return true;
    r->entry.positions += m->kept;
    r->entry.next = end;
    sha256_hex(&r->digest, r->entry.sha256);
    datapool_now(r->entry.updated);
    return datapool_record(r->dir, &r->entry, err, sizeof err) || datagen_error("%s", err);
}

/* Read the chunks in order and write them; false on a failure or an
 * interrupt (Interrupted tells which). */
static bool collect(Rescore *r) {
    uint64_t first = r->first_record / CHUNK, chunks = (r->count + CHUNK - 1) / CHUNK;
    DataRecord *recs = malloc(sizeof *recs * CHUNK);
    if (!recs) return datagen_error("out of memory");
    double start = datagen_now_s(), last = start;
    bool ok = true;
    for (uint64_t c = first; ok && c < chunks && !Interrupted; c++) {
        int fd = r->fds[(c - first) % (uint64_t)r->workers];
        ChunkMsg m;
        ok = read_all(fd, &m, sizeof m) && m.chunk == c && m.kept <= CHUNK && read_all(fd, recs, sizeof *recs * m.kept);
        if (!ok && !Interrupted) ok = datagen_error("a worker stopped before scoring chunk %" PRIu64, c);
        if (ok) ok = write_chunk(r, &m, recs);
        double t = datagen_now_s();
        if (ok && r->args->progress_s && t - last >= (double)r->args->progress_s) {
            fprintf(stderr, "rescore: %" PRIu64 " of %" PRIu64 " positions, %.0f positions/s\n",
                    r->first_record + r->done, r->count, (double)r->done / (t - start));
            last = t;
        }
    }
    free(recs);
    return ok && !Interrupted;
}

static void stop_workers(Rescore *r) {
    for (int i = 0; i < r->workers; i++) {
        if (r->fds[i] >= 0) close(r->fds[i]); /* a worker still writing gets EPIPE and ends */
        r->fds[i] = -1;
        if (Interrupted && r->pids[i] > 0) kill(r->pids[i], SIGTERM);
    }
    for (int i = 0; i < r->workers; i++)
        if (r->pids[i] > 0) waitpid(r->pids[i], NULL, 0);
}

static void print_summary(const Rescore *r, double seconds) {
    uint64_t dropped = r->dropped[DROP_CAPTURE] + r->dropped[DROP_MATE] + r->dropped[DROP_CAP];
    fprintf(
        stderr,
        "rescore: %" PRIu64 " positions searched (%" PRIu64 "..%" PRIu64 " of %s), %" PRIu64 " kept, %" PRIu64
        " dropped (best move a capture %" PRIu64 ", mate %" PRIu64 ", over the cap %" PRIu64 "); mean |change| %.1f; "
        "%.0f nodes a position; %.1f s, %.0f positions/hour\n",
        r->done, r->first_record, r->first_record + r->done, r->args->in, r->kept, dropped, r->dropped[DROP_CAPTURE],
        r->dropped[DROP_MATE], r->dropped[DROP_CAP], r->kept ? (double)r->abs_change / (double)r->kept : 0,
        r->done ? (double)r->nodes / (double)r->done : 0, seconds, seconds > 0 ? (double)r->done * 3600 / seconds : 0);
}

/* ---------------------------------------------------------------------- */
/* Setting up: input, output, manifest                                     */

/* The settings column of a rescore entry. */
static void settings_text(const Args *a, char *out, size_t cap) {
    snprintf(out, cap, "hard=%" PRId64 ",hash=%" PRId64 ",score-cap=%" PRId64 ",chunk=%d,drop=capture+mate+cap",
             a->hard_nodes, a->hash_mb, a->score_cap, CHUNK);
}

/* "NAME@1a2b3c4d:N": the input's name, the sha256 of its first N records. */
static bool source_tag(const char *path, uint64_t count, char *tag, size_t cap) {
    Sha256 s;
    uint64_t size;
    char err[600], hex[SHA256_HEX_SIZE];
    if (!datapool_hash_file(path, DATAFILE_HEADER_SIZE + count * DATAFILE_RECORD_SIZE, &s, &size, err, sizeof err))
        return datagen_error("%s", err);
    sha256_hex(&s, hex);
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    int n = snprintf(tag, cap, "%s@%.8s:%" PRIu64, base, hex, count);
    for (char *p = tag; *p; p++)
        if (*p < 0x21 || *p > 0x7e) *p = '_';
    return (n > 0 && (size_t)n < cap) || datagen_error("%s: the name is too long for the manifest", path);
}

/* The input's record count the entry was made for ("...:N"), or 0. */
static uint64_t source_count(const char *tag) {
    const char *colon = strrchr(tag, ':');
    return colon ? strtoull(colon + 1, NULL, 10) : 0;
}

/* May this rescore go on with the pool's entry old? */
static bool can_resume(const ManifestEntry *old, const ManifestEntry *want) {
    const char *f = old->file;
    if (old->kind != MANIFEST_RESCORE)
        return datagen_error("%s is in the pool, and not a rescore: choose another OUT", f);
    if (strcmp(old->source, want->source))
        return datagen_error("%s is a rescore of %s, not of %s: choose another OUT", f, old->source, want->source);
    if (strcmp(old->settings, want->settings) || old->nodes != want->nodes || strcmp(old->net, want->net) ||
        strcmp(old->commit, want->commit))
        return datagen_error("%s was rescored with other flags, net or engine (nodes %" PRIu64 ", %s, net %s, "
                             "engine %s): give the same, or choose another OUT",
                             f, old->nodes, old->settings, old->net, old->commit);
    if (old->next % CHUNK && old->next != source_count(old->source))
        return datagen_error("%s: the manifest's next record %" PRIu64 " is not where a chunk starts", f, old->next);
    return true;
}

/* Prepare OUT: a new file, or the pool's unfinished rescore of the same
 * input, which goes on. Locks it; false after one error line. */
static bool open_out(Rescore *r, uint64_t in_count, int *lock_fd) {
    const Args *a = r->args;
    char err[800], name[MANIFEST_FILE_MAX];
    struct stat in_st, out_st;
    bool found = stat(a->out, &out_st) == 0;
    if (found && stat(a->in, &in_st) == 0 && in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
        return datagen_error("IN and OUT are the same file");
    bool exists = found && out_st.st_size > DATAFILE_HEADER_SIZE; /* a header alone holds nothing */
    if (!datapool_dir(a->pool, r->dir, sizeof r->dir, err, sizeof err)) return datagen_error("%s", err);
    /* OUT's lock before its entry: a rescore of it that is just ending has
     * recorded its last chunk by the time we hold the lock. */
    *lock_fd = open(a->out, O_RDWR | O_CREAT, 0644);
    if (*lock_fd < 0) return datagen_error("%s: cannot open: %s", a->out, strerror(errno));
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0) return datagen_error("%s is being written by another process", a->out);
    r->in_pool = datapool_holds(r->dir, a->out, name, sizeof name);
    r->count = in_count;
    ManifestEntry *e = &r->entry, old;
    bool have_old = false;
    if (r->in_pool) {
        memset(e, 0, sizeof *e);
        snprintf(e->file, sizeof e->file, "%s", name);
        e->kind = MANIFEST_RESCORE;
        e->games = MANIFEST_UNKNOWN;
        e->seed = MANIFEST_UNKNOWN;
        e->nodes = (uint64_t)a->nodes;
        snprintf(e->commit, sizeof e->commit, "%s", version_commit());
        datapool_net_name(e->net);
        settings_text(a, e->settings, sizeof e->settings);
        datapool_now(e->created);
        memcpy(e->updated, e->created, sizeof e->updated);
        Manifest m;
        if (!datapool_load(r->dir, &m, err, sizeof err)) return datagen_error("%s", err);
        const ManifestEntry *listed = manifest_find(&m, name);
        if (listed) old = *listed;
        have_old = listed != NULL;
        manifest_free(&m);
        if (have_old) r->count = source_count(old.source);
        if (have_old && r->count > in_count)
            return datagen_error("%s: the manifest's rescore of it covers %" PRIu64 " records, it has %" PRIu64, a->in,
                                 r->count, in_count);
        if (!source_tag(a->in, r->count, e->source, sizeof e->source)) return false;
        if (have_old && !can_resume(&old, e)) return false;
    }
    if (exists && !have_old)
        return datagen_error("%s exists: rescore writes a new file (an unfinished rescore in the pool goes on)",
                             a->out);
    uint64_t records, size;
    r->out = datafile_open_append(a->out, &records, err, sizeof err);
    if (!r->out) return datagen_error("%s", err);
    if (!datapool_hash_file(a->out, UINT64_MAX, &r->digest, &size, err, sizeof err)) return datagen_error("%s", err);
    if (have_old && records > old.positions)
        return datagen_error("%s holds %" PRIu64 " records, %" PRIu64 " more than the manifest says (a rescore killed "
                             "before it could record them?): truncate -s %" PRIu64 " %s drops them, and the rescore "
                             "then scores those chunks again",
                             a->out, records, records - old.positions,
                             (uint64_t)DATAFILE_HEADER_SIZE + old.positions * DATAFILE_RECORD_SIZE, a->out);
    if (have_old) {
        char hex[SHA256_HEX_SIZE];
        sha256_hex(&r->digest, hex);
        if (records != old.positions || strcmp(hex, old.sha256))
            return datagen_error("%s does not match the manifest (%" PRIu64 " records, the manifest says %" PRIu64
                                 "; pool verify): remove it to rescore again",
                                 a->out, records, old.positions);
        *e = old;
        r->first_record = old.next;
        return true;
    }
    if (!r->in_pool) return true;
    e->positions = 0;
    e->next = 0;
    sha256_hex(&r->digest, e->sha256);
    return datapool_record(r->dir, e, err, sizeof err) || datagen_error("%s", err);
}

int datagen_rescore(int argc, char **argv) {
    Args a = {.nodes = DEFAULT_NODES,
              .hash_mb = DEFAULT_HASH_MB,
              .score_cap = DEFAULT_SCORE_CAP,
              .progress_s = DEFAULT_PROGRESS_S};
    if (!parse_args(argc, argv, &a)) return 2;
    char err[600];
    if (a.evalfile && !datapool_use_net(a.evalfile, err, sizeof err)) return !datagen_error("%s", err);
    uint64_t in_count;
    FILE *in = datafile_open_read(a.in, &in_count, err, sizeof err);
    if (!in) return !datagen_error("%s", err);
    fclose(in);
    static Rescore r;
    r = (Rescore){.args = &a, .out_path = a.out, .workers = (int)a.threads};
    int lock_fd = -1, rc = 1;
    if (check_input(a.in, in_count) && open_out(&r, in_count, &lock_fd)) {
        char net[MANIFEST_TOKEN_MAX];
        datapool_net_name(net);
        fprintf(stderr,
                "rescore: %s (%" PRIu64 " positions, from %" PRIu64 ") to %s, nodes %" PRId64 " (hard %" PRId64
                "), net %s, %d workers%s\n",
                a.in, r.count, r.first_record, a.out, a.nodes, a.hard_nodes, net, r.workers,
                r.in_pool ? ", recorded in the pool's manifest" : "");
        SelfplaySettings s = settings_of(&a);
        for (int i = 0; i < r.workers; i++)
            r.fds[i] = -1;
        struct sigaction act = {.sa_handler = on_signal}; /* no SA_RESTART: a blocked read returns */
        sigaction(SIGINT, &act, NULL);
        sigaction(SIGTERM, &act, NULL);
        double start = datagen_now_s();
        bool ok = r.first_record >= r.count || (start_workers(&r, &s) && collect(&r));
        stop_workers(&r);
        if (fclose(r.out) != 0 && ok) ok = datagen_error("%s: write failed: %s", a.out, strerror(errno));
        r.out = NULL;
        print_summary(&r, datagen_now_s() - start);
        rc = ok ? 0 : 1;
        if (Interrupted) {
            fprintf(stderr, "tuong-datagen: interrupted: %s holds whole chunks, up to input record %" PRIu64 "%s\n",
                    a.out, r.first_record + r.done,
                    r.in_pool ? "; the same command goes on from there" : " (outside the pool it cannot go on)");
            rc = 130;
        }
    }
    if (r.out) fclose(r.out);
    if (lock_fd >= 0) close(lock_fd);
    return rc;
}
