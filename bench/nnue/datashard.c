// SPDX-License-Identifier: GPL-3.0-or-later
/* Shard files of tuong-datagen and their merge (datashard.h). */
#include "datashard.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datafile.h"
#include "datagen.h"
#include "nnue/nnue.h"
#include "version.h"

enum { COPY_CHUNK = 4096, PATH_MAX_LEN = 4096 };

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

void datashard_pack(const DataShardHeader *h, uint8_t out[DATASHARD_HEADER_SIZE]) {
    memset(out, 0, DATASHARD_HEADER_SIZE);
    memcpy(out, DATASHARD_MAGIC, 8);
    put_u32(out + 8, DATASHARD_HEADER_SIZE);
    put_u32(out + 12, DATAFILE_RECORD_SIZE);
    put_u32(out + 16, (uint32_t)h->spec.index);
    put_u32(out + 20, (uint32_t)h->spec.count);
    put_u64(out + 24, h->total_games);
    put_u64(out + 32, h->first_game);
    put_u64(out + 40, h->games);
    put_u64(out + 48, h->seed);
    put_u64(out + 56, h->run);
    put_u64(out + 64, h->records);
    put_u64(out + 72, h->checksum);
}

bool datashard_unpack(const uint8_t in[DATASHARD_HEADER_SIZE], DataShardHeader *h, char *err, size_t errlen) {
    if (memcmp(in, DATASHARD_MAGIC, 8) != 0)
        return shard_fail(err, errlen, "not a tuong-datagen shard file (it does not start with %s)", DATASHARD_MAGIC);
    if (get_u32(in + 8) != DATASHARD_HEADER_SIZE || get_u32(in + 12) != DATAFILE_RECORD_SIZE)
        return shard_fail(err, errlen, "header or record size %u/%u, this version reads %d/%d", get_u32(in + 8),
                          get_u32(in + 12), DATASHARD_HEADER_SIZE, DATAFILE_RECORD_SIZE);
    for (int i = 80; i < DATASHARD_HEADER_SIZE; i++)
        if (in[i]) return shard_fail(err, errlen, "reserved header bytes are not 0");
    uint32_t k = get_u32(in + 16), n = get_u32(in + 20);
    if (n < 1 || n > SHARD_COUNT_MAX || k >= n) return shard_fail(err, errlen, "shard %u/%u is not a shard", k, n);
    *h = (DataShardHeader){.spec = {(int)k, (int)n},
                           .total_games = get_u64(in + 24),
                           .first_game = get_u64(in + 32),
                           .games = get_u64(in + 40),
                           .seed = get_u64(in + 48),
                           .run = get_u64(in + 56),
                           .records = get_u64(in + 64),
                           .checksum = get_u64(in + 72)};
    uint64_t first, end;
    shard_range(h->total_games, h->spec, &first, &end);
    if (h->first_game != first || h->games != end - first)
        return shard_fail(err, errlen,
                          "shard %u/%u of %" PRIu64 " games should hold games %" PRIu64 "..%" PRIu64
                          ", the header says %" PRIu64 " games from %" PRIu64,
                          k, n, h->total_games, first, end - 1, h->games, h->first_game);
    return true;
}

uint64_t datashard_fingerprint(const PoolConfig *cfg, const OpeningBook *book) {
    const SelfplaySettings *s = &cfg->play;
    uint64_t h = shard_hash_str(SHARD_HASH_INIT, "tuong-datagen games");
    h = shard_hash_str(h, version_text());
    h = shard_hash_str(h, nnue_banner());
    const uint64_t numbers[] = {cfg->seed,
                                cfg->games,
                                s->nodes,
                                s->hard_nodes,
                                (uint64_t)s->hash_mb,
                                (uint64_t)s->random_plies,
                                (uint64_t)s->skip_plies,
                                (uint64_t)s->score_cap,
                                (uint64_t)s->resign_score,
                                (uint64_t)s->resign_moves,
                                (uint64_t)s->draw_score,
                                (uint64_t)s->draw_plies,
                                (uint64_t)s->draw_from,
                                (uint64_t)s->max_plies,
                                (uint64_t)book->count};
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        h = shard_hash_u64(h, numbers[i]);
    for (int i = 0; i < book->count; i++)
        h = shard_hash_str(h, book->fens[i]);
    return h;
}

/* Size of a file by path, or -1 (errno set). */
static int64_t path_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Open a shard file, read and check its header and its size; the stream
 * is left at the first record. NULL with the reason (naming the file). */
static FILE *open_shard(const char *path, DataShardHeader *h, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        shard_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t buf[DATASHARD_HEADER_SIZE];
    char why[300];
    size_t n = fread(buf, 1, sizeof buf, f);
    int64_t size = path_size(path);
    bool ok = false;
    if (n < 8 || memcmp(buf, DATASHARD_MAGIC, 8) != 0)
        shard_fail(err, errlen, "%s: not a tuong-datagen shard file (it does not start with %s)", path,
                   DATASHARD_MAGIC);
    else if (n < sizeof buf)
        shard_fail(err, errlen, "%s: truncated: %zu bytes, shorter than the %d-byte header", path, n,
                   DATASHARD_HEADER_SIZE);
    else if (!datashard_unpack(buf, h, why, sizeof why))
        shard_fail(err, errlen, "%s: %s", path, why);
    else if (h->records > (uint64_t)INT64_MAX / DATAFILE_RECORD_SIZE ||
             size != (int64_t)(DATASHARD_HEADER_SIZE + h->records * DATAFILE_RECORD_SIZE))
        shard_fail(err, errlen, "%s: truncated or damaged: %" PRId64 " bytes, its header promises %d + %d x %" PRIu64,
                   path, size, DATASHARD_HEADER_SIZE, DATAFILE_RECORD_SIZE, h->records);
    else
        ok = true;
    if (!ok) {
        fclose(f);
        return NULL;
    }
    return f;
}

/* Hash the records of a shard stream (at its first record), copying them
 * to out when out is not NULL; false on a read or write error. */
static bool hash_records(FILE *in, uint64_t records, FILE *out, uint64_t *hash) {
    DataRecord buf[COPY_CHUNK];
    uint64_t h = SHARD_HASH_INIT;
    while (records) {
        size_t want = records < COPY_CHUNK ? (size_t)records : COPY_CHUNK;
        if (datafile_read(in, buf, want) != want) return false;
        h = shard_hash(h, buf, want * sizeof *buf);
        if (out && !datafile_write(out, buf, want)) return false;
        records -= want;
    }
    *hash = h;
    return true;
}

/* Is path already the whole shard h? 1 yes, 0 no file, -1 something else
 * (reported). */
static int existing_shard(const char *path, const DataShardHeader *want) {
    if (path_size(path) < 0 && errno == ENOENT) return 0;
    char err[600];
    DataShardHeader h;
    FILE *f = open_shard(path, &h, err, sizeof err);
    if (!f) {
        datagen_error("%s; remove it to play the shard again", err);
        return -1;
    }
    uint64_t sum;
    bool same = h.run == want->run && h.spec.index == want->spec.index && h.spec.count == want->spec.count;
    bool whole = same && hash_records(f, h.records, NULL, &sum) && sum == h.checksum;
    fclose(f);
    if (whole) return 1;
    datagen_error("%s exists and is not shard %d/%d of this run%s; remove it to play the shard again", path,
                  want->spec.index, want->spec.count, same ? " (its records do not match its checksum)" : "");
    return -1;
}

/* Fill in the header of the finished shard in fd (records from byte 96 on),
 * flush it to disk and rename tmp to path. */
static bool seal_shard(int fd, DataShardHeader *h, const char *tmp, const char *path) {
    int64_t size = path_size(tmp);
    if (size < DATASHARD_HEADER_SIZE || (size - DATASHARD_HEADER_SIZE) % DATAFILE_RECORD_SIZE)
        return datagen_error("%s: unexpected size %" PRId64 " after the games", tmp, size);
    h->records = (uint64_t)(size - DATASHARD_HEADER_SIZE) / DATAFILE_RECORD_SIZE;
    FILE *f = fopen(tmp, "rb");
    bool ok = f && fseek(f, DATASHARD_HEADER_SIZE, SEEK_SET) == 0 && hash_records(f, h->records, NULL, &h->checksum);
    if (f) fclose(f);
    if (!ok) return datagen_error("%s: cannot read back: %s", tmp, strerror(errno));
    uint8_t buf[DATASHARD_HEADER_SIZE];
    datashard_pack(h, buf);
    if (pwrite(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf || fsync(fd) != 0)
        return datagen_error("%s: cannot write the header: %s", tmp, strerror(errno));
    if (rename(tmp, path) != 0) return datagen_error("cannot rename %s to %s: %s", tmp, path, strerror(errno));
    return true;
}

int datashard_generate(const PoolConfig *cfg, const OpeningBook *book, ShardSpec spec) {
    uint64_t first, end;
    shard_range(cfg->games, spec, &first, &end);
    if (first == end)
        return !datagen_error("shard %d/%d of %" PRIu64 " games holds no game: split into at most %" PRIu64 " shards",
                              spec.index, spec.count, cfg->games, cfg->games);
    DataShardHeader h = {.spec = spec,
                         .total_games = cfg->games,
                         .first_game = first,
                         .games = end - first,
                         .seed = cfg->seed,
                         .run = datashard_fingerprint(cfg, book)};
    int have = existing_shard(cfg->out_path, &h);
    if (have) {
        if (have > 0)
            fprintf(stderr, "datagen: %s is already shard %d/%d, whole\n", cfg->out_path, spec.index, spec.count);
        return have > 0 ? 0 : 1;
    }
    char tmp[PATH_MAX_LEN];
    if (snprintf(tmp, sizeof tmp, "%s.part", cfg->out_path) >= (int)sizeof tmp)
        return !datagen_error("%s: name too long", cfg->out_path);
    int fd = open(tmp, O_RDWR | O_CREAT, 0644);
    if (fd < 0) return !datagen_error("%s: cannot open: %s", tmp, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return !datagen_error("%s is being written by another process", tmp);
    }
    /* A left-over .part (a cancelled task) is started again from nothing.
     * The games go through a stream of its own: an append-mode stream on a
     * dup of fd would set O_APPEND on fd too, and pwrite() of the header
     * would then append (Linux). */
    uint8_t blank[DATASHARD_HEADER_SIZE] = {0};
    FILE *out = NULL;
    if (ftruncate(fd, 0) != 0 || pwrite(fd, blank, sizeof blank, 0) != (ssize_t)sizeof blank ||
        !(out = fopen(tmp, "ab"))) {
        close(fd);
        return !datagen_error("%s: cannot write: %s", tmp, strerror(errno));
    }
    fprintf(stderr, "datagen: shard %d/%d: games %" PRIu64 "..%" PRIu64 " of %" PRIu64 ", seed %" PRIu64 ", into %s\n",
            spec.index, spec.count, first, end - 1, cfg->games, cfg->seed, cfg->out_path);
    PoolConfig part = *cfg;
    part.first_game = first;
    part.games = end; /* games first..end-1 */
    part.out_path = tmp;
    int rc = pool_run(&part, book, out, 0); /* closes out; fd keeps the lock */
    if (rc == 0 && !seal_shard(fd, &h, tmp, cfg->out_path)) rc = 1;
    close(fd);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Merge                                                                   */

static const char MergeUsage[] = "usage: tuong-datagen merge OUT SHARD...\n"
                                 "Join the shard files 0..N-1 of one `--games G --shard K/N` run into the data\n"
                                 "file OUT (new): the file one unsharded run writes (docs/cluster.md).\n";

typedef struct {
    DataShardHeader h;
    FILE *f;
} OpenShard;

/* Copy the shards in order into tmp; false after one error line. */
static bool write_merged(const char *tmp, OpenShard *shards, const ShardInfo *info, const int *order, int count) {
    FILE *out = fopen(tmp, "wb");
    if (!out) return datagen_error("%s: cannot open for writing: %s", tmp, strerror(errno));
    uint8_t header[DATAFILE_HEADER_SIZE];
    datafile_header(header);
    bool ok = fwrite(header, 1, sizeof header, out) == sizeof header;
    for (int k = 0; k < count && ok; k++) {
        OpenShard *s = &shards[order[k]];
        uint64_t sum;
        if (!hash_records(s->f, s->h.records, out, &sum))
            ok = datagen_error("%s or %s: read or write failed: %s", info[order[k]].name, tmp, strerror(errno));
        else if (sum != s->h.checksum)
            ok = datagen_error("%s: damaged: its records do not match the checksum in its header", info[order[k]].name);
    }
    if (ok && (fflush(out) != 0 || fsync(fileno(out)) != 0))
        ok = datagen_error("%s: write failed: %s", tmp, strerror(errno));
    if (fclose(out) != 0 && ok) ok = datagen_error("%s: write failed: %s", tmp, strerror(errno));
    return ok;
}

int datagen_merge(int argc, char **argv) {
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(MergeUsage, stdout);
        return 0;
    }
    if (argc < 2) {
        datagen_error("merge needs OUT and at least one shard file");
        fputs(MergeUsage, stderr);
        return 2;
    }
    const char *path = argv[0];
    if (path_size(path) >= 0)
        return !datagen_error("%s exists: merge writes a new file (remove it or choose another name)", path);
    int n = argc - 1, rc = 1;
    OpenShard *shards = calloc((size_t)n, sizeof *shards);
    ShardInfo *info = calloc((size_t)n, sizeof *info);
    int *order = calloc((size_t)n, sizeof *order);
    char err[1200], tmp[PATH_MAX_LEN];
    if (!shards || !info || !order) {
        datagen_error("out of memory");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        shards[i].f = open_shard(argv[i + 1], &shards[i].h, err, sizeof err);
        if (!shards[i].f) {
            datagen_error("%s", err);
            goto done;
        }
        info[i] = (ShardInfo){.name = argv[i + 1], .spec = shards[i].h.spec, .run = shards[i].h.run};
    }
    if (!shard_check_set(info, n, order, err, sizeof err)) {
        datagen_error("%s", err);
        goto done;
    }
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp) {
        datagen_error("%s: name too long", path);
        goto done;
    }
    if (!write_merged(tmp, shards, info, order, n)) {
        unlink(tmp);
        goto done;
    }
    if (rename(tmp, path) != 0) {
        datagen_error("cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
        goto done;
    }
    uint64_t records = 0;
    for (int i = 0; i < n; i++)
        records += shards[i].h.records;
    fprintf(stderr, "datagen: merged %d shards, %" PRIu64 " games, %" PRIu64 " records (seed %" PRIu64 ") into %s\n", n,
            shards[0].h.total_games, records, shards[0].h.seed, path);
    rc = 0;
done:
    for (int i = 0; shards && i < n; i++)
        if (shards[i].f) fclose(shards[i].f);
    free(shards);
    free(info);
    free(order);
    return rc;
}
