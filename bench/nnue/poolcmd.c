// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-datagen pool list|verify|run|adopt`: the data pool from the
 * command line (docs/nnue.md, "The data pool"). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "datafile.h"
#include "datagen.h"
#include "datapool.h"

static const char PoolUsage[] =
    "usage: tuong-datagen pool list|verify [--pool DIR]\n"
    "       tuong-datagen pool run [--pool DIR] [generate's options but --out]\n"
    "       tuong-datagen pool adopt FILE --commit C --net H [--games G] [--created DATE]\n"
    "                                [--no-replay] [--pool DIR] [generate's options that made FILE]\n"
    "(docs/nnue.md, \"The data pool\")\n";

/* The pool directory from `[--pool DIR]`; false after one error line. */
static bool dir_of_args(int argc, char **argv, char *dir, size_t cap) {
    const char *flag = NULL;
    char err[600];
    if (argc == 2 && !strcmp(argv[0], "--pool"))
        flag = argv[1];
    else if (argc != 0)
        return datagen_error("pool list and pool verify take only --pool DIR");
    return datapool_dir(flag, dir, cap, err, sizeof err) || datagen_error("%s", err);
}

static void number_text(uint64_t v, char *buf, size_t cap) {
    if (v == MANIFEST_UNKNOWN)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%" PRIu64, v);
}

static int list(const char *dir) {
    Manifest m;
    char err[800];
    if (!datapool_load(dir, &m, err, sizeof err)) return !datagen_error("%s", err);
    uint64_t total = 0;
    printf("%-28s %-8s %11s %8s %7s %6s %-8s %-17s %s\n", "file", "kind", "positions", "games", "nodes", "seed", "net",
           "commit", "updated");
    for (int i = 0; i < m.count; i++) {
        const ManifestEntry *e = &m.entries[i];
        char games[24], seed[24];
        number_text(e->games, games, sizeof games);
        number_text(e->seed, seed, sizeof seed);
        printf("%-28s %-8s %11" PRIu64 " %8s %7" PRIu64 " %6s %-8s %-17s %s\n", e->file, manifest_kind_name(e->kind),
               e->positions, games, e->nodes, seed, e->net, e->commit, e->updated);
        total += e->positions;
    }
    printf("%d files, %" PRIu64 " positions in %s (%s/%s lists every field)\n", m.count, total, dir, dir,
           MANIFEST_NAME);
    manifest_free(&m);
    return 0;
}

/* Check one entry against its file; prints one line; false on a mismatch.
 * Only the records the entry covers must be whole and match: a run may be
 * appending to the file right now (even half-way through a write). */
static bool verify_entry(const char *dir, const ManifestEntry *e) {
    char path[DATAPOOL_PATH_MAX], err[800], hex[SHA256_HEX_SIZE];
    uint8_t header[DATAFILE_HEADER_SIZE];
    datapool_path(dir, e->file, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("MISMATCH %s: cannot open: %s\n", e->file, strerror(errno));
        return false;
    }
    size_t n = fread(header, 1, sizeof header, f);
    bool ok = fseeko(f, 0, SEEK_END) == 0;
    uint64_t size = ok ? (uint64_t)ftello(f) : 0;
    fclose(f);
    if (!datafile_check_header(header, n, err, sizeof err)) {
        printf("MISMATCH %s: %s\n", e->file, err);
        return false;
    }
    uint64_t bytes = DATAFILE_HEADER_SIZE + e->positions * DATAFILE_RECORD_SIZE, hashed;
    if (!ok || size < bytes) {
        printf("MISMATCH %s: truncated: %" PRIu64 " bytes, %" PRIu64 " records need %" PRIu64 "\n", e->file, size,
               e->positions, bytes);
        return false;
    }
    Sha256 s;
    if (!datapool_hash_file(path, bytes, &s, &hashed, err, sizeof err) || hashed != bytes) {
        printf("MISMATCH %s: cannot read it: %s\n", e->file, err);
        return false;
    }
    sha256_hex(&s, hex);
    if (strcmp(hex, e->sha256)) {
        printf("MISMATCH %s: sha256 %s, the manifest says %s\n", e->file, hex, e->sha256);
        return false;
    }
    printf("ok %s: %" PRIu64 " positions, sha256 %.16s...", e->file, e->positions, hex);
    if (size > bytes)
        printf(" (and %" PRIu64 " bytes after them: a run still writing, or one killed before it recorded them)",
               size - bytes);
    printf("\n");
    return true;
}

static int verify(const char *dir) {
    Manifest m;
    char err[800];
    if (!datapool_load(dir, &m, err, sizeof err)) return !datagen_error("%s", err);
    int bad = 0;
    for (int i = 0; i < m.count; i++)
        bad += !verify_entry(dir, &m.entries[i]);
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t n = strlen(de->d_name);
        if (n > 4 && !strcmp(de->d_name + n - 4, ".bin") && !manifest_find(&m, de->d_name))
            printf("note %s: not in the manifest (tuong-datagen pool adopt registers it)\n", de->d_name);
    }
    if (d) closedir(d);
    int count = m.count;
    manifest_free(&m);
    if (bad) return !datagen_error("%d of %d files in %s do not match the manifest", bad, count, dir);
    printf("%d files match the manifest of %s\n", count, dir);
    return 0;
}

int datagen_pool(int argc, char **argv) {
    const char *cmd = argc > 0 ? argv[0] : "";
    char dir[DATAPOOL_PATH_MAX];
    if (!strcmp(cmd, "run")) return datagen_pool_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "adopt")) return datagen_adopt(argc - 1, argv + 1);
    if (!strcmp(cmd, "list")) return dir_of_args(argc - 1, argv + 1, dir, sizeof dir) ? list(dir) : 2;
    if (!strcmp(cmd, "verify")) return dir_of_args(argc - 1, argv + 1, dir, sizeof dir) ? verify(dir) : 2;
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(PoolUsage, stdout);
        return 0;
    }
    datagen_error("pool %s: expected list, verify, run or adopt (pool --help)", cmd);
    return 2;
}
