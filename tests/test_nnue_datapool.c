// SPDX-License-Identifier: GPL-3.0-or-later
/* The data pool (bench/nnue/datapool.h): SHA-256 against the standard's
 * vectors, the manifest written and read back and its parser refusing what
 * is not a manifest, the pool directory's default, and tuong-datagen's pool
 * commands end to end on tiny runs: a resumed run equals an uninterrupted
 * one byte for byte, verify finds a changed file, adopt registers an older
 * run, which then resumes, and rescore gives the same bytes for any
 * --threads and refuses foreign or damaged input. Every run here uses a
 * scratch pool under the build directory, never the user's. */
#include "test_support.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datafile.h"
#include "datapool.h"
#include "manifest.h"
#include "sha256.h"

static char Dir[1024];

static const char *path_of(const char *name) {
    static char paths[8][1200];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", Dir, name);
    return p;
}

/* Run `tuong-datagen args` (stderr to a file); its exit code. */
static int datagen(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s/stdout' 2>'%s/stderr'", TUONG_DATAGEN, args, Dir, Dir);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Exactly one line on stderr, containing `what`. */
static void expect_one_error(const char *what) {
    long n;
    char *text = test_slurp(path_of("stderr"), &n);
    if (!strstr(text, what)) fail_msg("stderr '%s' lacks '%s'", text, what);
    char *nl = strchr(text, '\n');
    if (!nl || nl[1]) fail_msg("stderr is not one line: '%s'", text);
    free(text);
}

static bool output_has(const char *what) {
    long n;
    char *text = test_slurp(path_of("stdout"), &n);
    bool has = strstr(text, what) != NULL;
    free(text);
    return has;
}

static void remove_tree(const char *path) {
    char cmd[1300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

/* The tail of a shell command that started a run in the background with
 * --pool "$POOL": once the pool's manifest exists (the run has set up; it
 * handles signals a moment later), stop it with SIGTERM, as `kill` does,
 * and exit with its status. (A background job of a non-interactive shell
 * ignores SIGINT until it sets its own handler, so SIGINT could be lost on
 * a slow sanitizer build.) */
static const char StopOnceListed[] = "p=$!; for i in $(seq 200); do [ -s \"$POOL/manifest.tsv\" ] && break; "
                                     "sleep 0.05; done; sleep 0.3; kill -TERM $p; wait $p; exit $?";

/* Tiny games, as in test_nnue_datagen. */
static const char Tiny[] = "--nodes 200 --max-plies 120 --hash 1 --progress 0";

/* `tuong-datagen pool run` into pool with the tiny settings. */
static int pool_run(const char *pool, int seed, int threads, const char *target) {
    char args[2048];
    snprintf(args, sizeof args,
             "pool run --pool '%s' %s --seed %d --threads %d %s --openings '%s/openings/xiangqi.epd'", pool, Tiny, seed,
             threads, target, TUONG_DATA_DIR);
    return datagen(args);
}

/* Is file in pool's manifest (a run stopped very early may not have got
 * as far as writing it)? */
static bool has_entry(const char *pool, const char *file) {
    Manifest m;
    char err[800];
    bool has = datapool_load(pool, &m, err, sizeof err) && manifest_find(&m, file);
    manifest_free(&m);
    return has;
}

static void load_entry(const char *pool, const char *file, ManifestEntry *out) {
    Manifest m;
    char err[800];
    if (!datapool_load(pool, &m, err, sizeof err)) fail_msg("%s", err);
    ManifestEntry *e = manifest_find(&m, file);
    if (!e) fail_msg("%s is not in the manifest of %s", file, pool);
    *out = *e;
    manifest_free(&m);
}

/* ---------------------------------------------------------------------- */
/* SHA-256                                                                 */

static void sha_of(const void *data, size_t n, char hex[SHA256_HEX_SIZE]) {
    Sha256 s;
    sha256_init(&s);
    sha256_update(&s, data, n);
    sha256_hex(&s, hex);
}

/* FIPS 180-4's examples (NIST's SHA256.pdf and SHA2_Additional.pdf). */
static void sha256_known_vectors(void **state) {
    (void)state;
    char hex[SHA256_HEX_SIZE];
    sha_of("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha_of("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha_of(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *four =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
        "mnopqrstnopqrstu";
    sha_of(four, strlen(four), hex);
    assert_string_equal(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    /* One million 'a', fed in uneven pieces. */
    static char a[1000000];
    memset(a, 'a', sizeof a);
    Sha256 s;
    sha256_init(&s);
    for (size_t at = 0, step = 1; at < sizeof a; at += step, step = step * 3 % 1000 + 1)
        sha256_update(&s, a + at, step < sizeof a - at ? step : sizeof a - at);
    sha256_hex(&s, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* A digest may be read and feeding go on: every prefix's digest along the
 * way equals the one-shot digest of that prefix (the 55/56/64-byte padding
 * edges included). */
static void sha256_running_digest(void **state) {
    (void)state;
    unsigned char data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 7 + 1);
    Sha256 s;
    sha256_init(&s);
    for (size_t n = 0; n <= sizeof data; n++) {
        char running[SHA256_HEX_SIZE], once[SHA256_HEX_SIZE];
        sha256_hex(&s, running);
        sha_of(data, n, once);
        assert_string_equal(running, once);
        if (n < sizeof data) sha256_update(&s, data + n, 1);
    }
}

/* ---------------------------------------------------------------------- */
/* The manifest                                                            */

static ManifestEntry sample_entry(const char *file, ManifestKind kind) {
    ManifestEntry e = {.kind = kind, .positions = 123456, .nodes = 5000};
    snprintf(e.file, sizeof e.file, "%s", file);
    e.games = e.next = kind == MANIFEST_SELFPLAY ? 2000 : MANIFEST_UNKNOWN;
    if (kind == MANIFEST_RESCORE) e.next = 4096;
    e.seed = kind == MANIFEST_SELFPLAY ? 501 : MANIFEST_UNKNOWN;
    memset(e.sha256, 'a', 64);
    snprintf(e.commit, sizeof e.commit, "1cdf86af,2b3c4d5e-dirty@1200");
    snprintf(e.net, sizeof e.net, kind == MANIFEST_SELFPLAY ? "1780afb0" : "none");
    snprintf(e.settings, sizeof e.settings, "hard=20000,random-plies=3,openings=xiangqi.epd@2e12b501");
    snprintf(e.source, sizeof e.source, kind == MANIFEST_SELFPLAY ? "-" : "run-s501-n5000.bin@0123abcd:4096");
    snprintf(e.created, sizeof e.created, "2026-12-02T16:16:05Z");
    snprintf(e.updated, sizeof e.updated, "2026-12-03T01:02:03Z");
    return e;
}

static void manifest_written_and_read_back(void **state) {
    (void)state;
    Manifest m = {0}, back = {0};
    ManifestEntry a = sample_entry("run-s501-n5000.bin", MANIFEST_SELFPLAY);
    ManifestEntry b = sample_entry("deep.bin", MANIFEST_RESCORE);
    assert_true(manifest_put(&m, &a));
    assert_true(manifest_put(&m, &b));
    a.positions = 7;
    assert_true(manifest_put(&m, &a)); /* replaces, does not add */
    assert_int_equal(m.count, 2);
    size_t len;
    char *text = manifest_format(&m, &len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    assert_non_null(strstr(text, "\nfile\tkind\tpositions\tgames\tnext\tsha256\t"));
    char err[300];
    if (!manifest_parse(&back, text, len, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(back.count, 2);
    assert_memory_equal(&back.entries[0], &m.entries[0], sizeof a);
    assert_memory_equal(&back.entries[1], &m.entries[1], sizeof b);
    assert_int_equal(back.entries[0].positions, 7);
    assert_int_equal(back.entries[1].games, MANIFEST_UNKNOWN);
    free(text);
    manifest_free(&m);
    manifest_free(&back);
}

/* Each damaged manifest is refused with the line and the reason. */
static void manifest_parser_refuses_damage(void **state) {
    (void)state;
    Manifest m = {0};
    ManifestEntry e = sample_entry("a.bin", MANIFEST_SELFPLAY);
    assert_true(manifest_put(&m, &e));
    size_t len;
    char *good = manifest_format(&m, &len);
    manifest_free(&m);
    char err[300];
    assert_true(manifest_parse(&m, good, len, err, sizeof err));
    manifest_free(&m);
    struct {
        const char *from, *to, *why;
    } cases[] = {
        {"file\tkind", "name\tkind", "column header"},
        {"\t1cdf86af", "\t1cdf 86af", "commit"},
        {"\t1780afb0", "\t1780AFB0", "net"},
        {"aaaa\t", "aaa\t", "sha256"},
        {"\t501\t", "\t-\t", "seed"},
        {"\t123456\t", "\t12x456\t", "positions"},
        {"\t123456\t", "\t0123456\t", "positions"},
        {"\t5000\t", "\t0\t", "nodes"},
        {"\tselfplay\t", "\tselfie\t", "kind"},
        {"2026-12-02T16:16:05Z", "2026-13-02T16:16:05Z", "created"},
        {"\t-\t2026", "\tx.bin@1\t2026", "source"},
        {"a.bin\t", "../a.bin\t", "file"},
        {"Z\n", "Z\r\n", "carriage return"},
        {"Z\n", "Z", "no newline"},
        {"Z\n", "Z\tmore\n", "fields"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[4096];
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %d: '%s' not in the manifest", (int)i, cases[i].from);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        bool ok = manifest_parse(&m, text, strlen(text), err, sizeof err);
        manifest_free(&m);
        if (ok) fail_msg("case %d (%s) was accepted", (int)i, cases[i].why);
        if (!strstr(err, cases[i].why)) fail_msg("case %d: '%s' does not say %s", (int)i, err, cases[i].why);
    }
    /* Listed twice; a NUL byte; empty text. */
    char twice[8192];
    const char *entry = strstr(good, "a.bin\t");
    snprintf(twice, sizeof twice, "%s%s", good, entry);
    assert_false(manifest_parse(&m, twice, strlen(twice), err, sizeof err));
    manifest_free(&m);
    assert_non_null(strstr(err, "listed twice"));
    assert_false(manifest_parse(&m, good, len + 1, err, sizeof err));
    manifest_free(&m);
    assert_false(manifest_parse(&m, "", 0, err, sizeof err));
    manifest_free(&m);
    free(good);
}

/* --pool, then TUONG_DATA_DIR, then XDG_DATA_HOME, then HOME. */
static void pool_directory_default(void **state) {
    (void)state;
    char dir[600], err[300], *saved = getenv("TUONG_DATA_DIR") ? strdup(getenv("TUONG_DATA_DIR")) : NULL;
    setenv("TUONG_DATA_DIR", "/x/tdd", 1);
    setenv("XDG_DATA_HOME", "/x/xdg", 1);
    setenv("HOME", "/x/home", 1);
    assert_true(datapool_dir("/x/flag", dir, sizeof dir, err, sizeof err));
    assert_string_equal(dir, "/x/flag");
    assert_true(datapool_dir(NULL, dir, sizeof dir, err, sizeof err));
    assert_string_equal(dir, "/x/tdd");
    unsetenv("TUONG_DATA_DIR");
    assert_true(datapool_dir(NULL, dir, sizeof dir, err, sizeof err));
    assert_string_equal(dir, "/x/xdg/tuong/data");
    setenv("XDG_DATA_HOME", "relative", 1); /* ignored, as the XDG spec says */
    assert_true(datapool_dir(NULL, dir, sizeof dir, err, sizeof err));
    assert_string_equal(dir, "/x/home/.local/share/tuong/data");
    unsetenv("XDG_DATA_HOME");
    assert_true(datapool_dir(NULL, dir, sizeof dir, err, sizeof err));
    assert_string_equal(dir, "/x/home/.local/share/tuong/data");
    unsetenv("HOME");
    assert_false(datapool_dir(NULL, dir, sizeof dir, err, sizeof err));
    setenv("TUONG_DATA_DIR", saved ? saved : path_of("default-pool"), 1); /* the tests' scratch pool */
    free(saved);
}

/* ---------------------------------------------------------------------- */
/* tuong-datagen pool                                                      */

/* Stopped after 3 games and resumed to 12, stopped by SIGINT and resumed:
 * the same file as one run of 12 games, and the manifest says so. */
static void resumed_run_equals_uninterrupted(void **state) {
    (void)state;
    char whole[1200], parts[1200], stopped[1200];
    snprintf(whole, sizeof whole, "%s", path_of("whole"));
    snprintf(parts, sizeof parts, "%s", path_of("parts"));
    snprintf(stopped, sizeof stopped, "%s", path_of("stopped"));
    remove_tree(whole);
    remove_tree(parts);
    remove_tree(stopped);
    assert_int_equal(pool_run(whole, 7, 2, "--games 12"), 0);
    assert_int_equal(pool_run(parts, 7, 2, "--games 3"), 0);
    assert_int_equal(pool_run(parts, 7, 1, "--games 12"), 0);
    char a[1300], b[1300];
    snprintf(a, sizeof a, "%s/run-s7-n200.bin", whole);
    snprintf(b, sizeof b, "%s/run-s7-n200.bin", parts);
    assert_true(test_same_bytes(a, b));
    ManifestEntry ea, eb;
    load_entry(whole, "run-s7-n200.bin", &ea);
    load_entry(parts, "run-s7-n200.bin", &eb);
    assert_int_equal(ea.games, 12);
    assert_int_equal(ea.next, 12);
    assert_int_equal(eb.positions, ea.positions);
    assert_string_equal(eb.sha256, ea.sha256);
    assert_string_equal(eb.settings, ea.settings);
    long size;
    free(test_slurp(a, &size));
    assert_int_equal((uint64_t)size, DATAFILE_HEADER_SIZE + ea.positions * DATAFILE_RECORD_SIZE);
    assert_int_equal(pool_run(parts, 7, 2, "--games 12"), 0); /* nothing left to do */
    assert_true(test_same_bytes(a, b));

    /* No target: runs until stopped; `kill` leaves whole games. */
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "POOL='%s'; '%s' pool run --pool \"$POOL\" %s --seed 7 --threads 2 --openings '%s/openings/xiangqi.epd' "
             "2>/dev/null & %s",
             stopped, TUONG_DATAGEN, Tiny, TUONG_DATA_DIR, StopOnceListed);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_true(WEXITSTATUS(status) == 130 || WEXITSTATUS(status) == 128 + SIGTERM);
    ManifestEntry es = {.games = 0};
    if (has_entry(stopped, "run-s7-n200.bin")) load_entry(stopped, "run-s7-n200.bin", &es);
    if (es.games < 12) { /* a slow (sanitizer) build may not have got that far: resume */
        assert_int_equal(pool_run(stopped, 7, 2, "--games 12"), 0);
        snprintf(b, sizeof b, "%s/run-s7-n200.bin", stopped);
        assert_true(test_same_bytes(a, b));
    }
    /* --positions in the pool: whole games until the file holds that many. */
    snprintf(b, sizeof b, "%s/run-s7-n200.bin", parts);
    assert_int_equal(pool_run(parts, 7, 2, "--positions 10"), 0); /* already more: nothing to do */
    assert_true(test_same_bytes(a, b));
    uint64_t want = ea.positions + 1;
    char target[64];
    snprintf(target, sizeof target, "--positions %llu", (unsigned long long)want);
    assert_int_equal(pool_run(parts, 7, 2, target), 0);
    load_entry(parts, "run-s7-n200.bin", &eb);
    assert_true(eb.positions >= want);
    assert_true(eb.games > 12);
    free(test_slurp(b, &size));
    assert_int_equal((uint64_t)size, DATAFILE_HEADER_SIZE + eb.positions * DATAFILE_RECORD_SIZE);
}

/* Settings that differ from the run file's are refused, never mixed in. */
static void resume_refuses_other_settings(void **state) {
    (void)state;
    char pool[1200];
    snprintf(pool, sizeof pool, "%s", path_of("other"));
    remove_tree(pool);
    assert_int_equal(pool_run(pool, 5, 1, "--games 1"), 0);
    char args[2048];
    snprintf(args, sizeof args,
             "pool run --pool '%s' %s --seed 5 --random-plies 2 --games 2 --openings '%s/openings/xiangqi.epd'", pool,
             Tiny, TUONG_DATA_DIR);
    assert_int_equal(datagen(args), 1);
    expect_one_error("random-plies=4");
    /* A file in the pool the manifest does not know is not appended to. */
    char bin[1300];
    snprintf(bin, sizeof bin, "%s/run-s6-n200.bin", pool);
    FILE *f = fopen(bin, "wb");
    fputs("someone else's file\n", f);
    fclose(f);
    assert_int_equal(pool_run(pool, 6, 1, "--games 1"), 1);
    expect_one_error("not in its manifest");
    long n;
    free(test_slurp(bin, &n));
    assert_int_equal(n, 20);
}

static void verify_finds_changes(void **state) {
    (void)state;
    char pool[1200];
    snprintf(pool, sizeof pool, "%s", path_of("verify"));
    remove_tree(pool);
    assert_int_equal(pool_run(pool, 3, 2, "--games 2"), 0);
    char args[1300], bin[1300];
    snprintf(args, sizeof args, "pool verify --pool '%s'", pool);
    assert_int_equal(datagen(args), 0);
    assert_true(output_has("ok run-s3-n200.bin"));
    snprintf(args, sizeof args, "pool list --pool '%s'", pool);
    assert_int_equal(datagen(args), 0);
    assert_true(output_has("run-s3-n200.bin"));
    /* One byte changed: the digest differs. */
    snprintf(bin, sizeof bin, "%s/run-s3-n200.bin", pool);
    FILE *f = fopen(bin, "r+b");
    fseek(f, DATAFILE_HEADER_SIZE + 28, SEEK_SET);
    int c = fgetc(f);
    fseek(f, DATAFILE_HEADER_SIZE + 28, SEEK_SET);
    fputc(c ^ 1, f);
    fclose(f);
    snprintf(args, sizeof args, "pool verify --pool '%s'", pool);
    assert_int_equal(datagen(args), 1);
    expect_one_error("do not match");
    assert_true(output_has("MISMATCH run-s3-n200.bin: sha256"));
    /* Resuming it is refused too. */
    assert_int_equal(pool_run(pool, 3, 2, "--games 3"), 1);
    expect_one_error("sha256 differs");
    /* Cut short: the datafile's own message. */
    long n;
    free(test_slurp(bin, &n));
    assert_int_equal(truncate(bin, n - 5), 0);
    assert_int_equal(datagen(args), 1);
    assert_true(output_has("truncated"));
    /* A damaged manifest is refused with its line. */
    char manifest[1300];
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", pool);
    f = fopen(manifest, "a");
    fputs("half a line\n", f);
    fclose(f);
    assert_int_equal(datagen(args), 1);
    expect_one_error("line 4");
    snprintf(args, sizeof args, "pool bogus --pool '%s'", pool);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("expected list");
}

/* A run made by plain `generate --out` (as an older tuong-datagen made it),
 * adopted with its metadata (its last game played again confirms the game
 * count), resumes like any pool run. */
static void adopt_then_resume(void **state) {
    (void)state;
    char whole[1200], pool[1200];
    snprintf(whole, sizeof whole, "%s", path_of("adopt-whole"));
    snprintf(pool, sizeof pool, "%s", path_of("adopt"));
    remove_tree(whole);
    remove_tree(pool);
    assert_int_equal(pool_run(whole, 11, 2, "--games 8"), 0);
    ManifestEntry ref;
    load_entry(whole, "run-s11-n200.bin", &ref);
    char args[3000], bin[1300];
    snprintf(args, sizeof args, "mkdir -p '%s'", pool);
    assert_int_equal(system(args), 0);
    snprintf(bin, sizeof bin, "%s/run-s11-n200.bin", pool);
    snprintf(args, sizeof args, "--out '%s' %s --seed 11 --threads 2 --games 5 --openings '%s/openings/xiangqi.epd'",
             bin, Tiny, TUONG_DATA_DIR);
    assert_int_equal(datagen(args), 0);

    /* Refusals: no --commit; a file outside the pool; too few games. */
    const char *common = "--nodes 200 --max-plies 120 --hash 1 --seed 11";
    snprintf(args, sizeof args, "pool adopt run-s11-n200.bin --pool '%s' %s --net %s", pool, common, ref.net);
    assert_int_equal(datagen(args), 2);
    expect_one_error("--commit");
    snprintf(args, sizeof args, "pool adopt '%s/stderr' --pool '%s' %s --commit %s --net %s", Dir, pool, common,
             ref.commit, ref.net);
    assert_int_equal(datagen(args), 1);
    expect_one_error("not a file in the pool");
    snprintf(args, sizeof args, "pool adopt run-s11-n200.bin --pool '%s' %s --commit %s --net %s --games 1", pool,
             common, ref.commit, ref.net);
    assert_int_equal(datagen(args), 1);
    expect_one_error("at least");

    /* A wrong count: game 5 played again does not end the file. */
    snprintf(args, sizeof args, "pool adopt run-s11-n200.bin --pool '%s' %s --commit %s --net %s --games 6", pool,
             common, ref.commit, ref.net);
    assert_int_equal(datagen(args), 1);
    expect_one_error("played again does not end the file");

    /* Without --games: registered, but not resumable until adopted again. */
    snprintf(args, sizeof args,
             "pool adopt run-s11-n200.bin --pool '%s' %s --commit %s --net %s --created 2026-12-02T16:16:05Z", pool,
             common, ref.commit, ref.net);
    assert_int_equal(datagen(args), 0);
    assert_true(output_has("games unknown"));
    assert_int_equal(pool_run(pool, 11, 2, "--games 8"), 1);
    expect_one_error("--games N");
    snprintf(args, sizeof args,
             "pool adopt '%s' --pool '%s' %s --commit %s --net %s --games 5 --created 2026-12-02T16:16:05Z", bin, pool,
             common, ref.commit, ref.net);
    assert_int_equal(datagen(args), 0);
    ManifestEntry e;
    load_entry(pool, "run-s11-n200.bin", &e);
    assert_int_equal(e.games, 5);
    assert_string_equal(e.created, "2026-12-02T16:16:05Z");
    assert_string_equal(e.settings, ref.settings);
    assert_int_equal(datagen(args), 1); /* adopted once is enough */
    expect_one_error("already");

    assert_int_equal(pool_run(pool, 11, 1, "--games 8"), 0);
    assert_true(test_same_bytes(bin, path_of("adopt-whole/run-s11-n200.bin")));
    load_entry(pool, "run-s11-n200.bin", &e);
    assert_string_equal(e.sha256, ref.sha256);
    assert_int_equal(e.games, 8);

    /* Another engine commit: refused unless --new-commit, which names both. */
    snprintf(args, sizeof args,
             "pool adopt run-s12-n200.bin --pool '%s' --nodes 200 --max-plies 120 --hash 1 --seed 12 --commit 0123abcd "
             "--net %s --games 1",
             pool, ref.net);
    snprintf(bin, sizeof bin, "%s/run-s12-n200.bin", pool);
    char gen[3000];
    snprintf(gen, sizeof gen, "--out '%s' %s --seed 12 --threads 1 --games 1 --openings '%s/openings/xiangqi.epd'", bin,
             Tiny, TUONG_DATA_DIR);
    assert_int_equal(datagen(gen), 0);
    assert_int_equal(datagen(args), 0);
    assert_int_equal(pool_run(pool, 12, 1, "--games 2"), 1);
    expect_one_error("--new-commit");
    assert_int_equal(pool_run(pool, 12, 1, "--games 2 --new-commit"), 0);
    load_entry(pool, "run-s12-n200.bin", &e);
    char want[300];
    snprintf(want, sizeof want, "0123abcd,%s@1", ref.commit);
    assert_string_equal(e.commit, want);
}

/* ---------------------------------------------------------------------- */
/* tuong-datagen rescore                                                   */

static const char RescoreFlags[] = "--nodes 300 --hash 1 --progress 0";

static void rescore_same_for_any_threads(void **state) {
    (void)state;
    char pool[1200];
    snprintf(pool, sizeof pool, "%s", path_of("rescore-in"));
    remove_tree(pool);
    assert_int_equal(pool_run(pool, 21, 2, "--games 12"), 0);
    char in[1300], args[4096];
    snprintf(in, sizeof in, "%s/run-s21-n200.bin", pool);
    char one[1200], two[1200], three[1200];
    snprintf(one, sizeof one, "%s", path_of("r1.bin"));
    snprintf(two, sizeof two, "%s", path_of("r2.bin"));
    snprintf(three, sizeof three, "%s", path_of("r3.bin"));
    remove(one);
    remove(two);
    remove(three);
    snprintf(args, sizeof args, "rescore '%s' '%s' %s --threads 1", in, one, RescoreFlags);
    assert_int_equal(datagen(args), 0);
    snprintf(args, sizeof args, "rescore '%s' '%s' %s --threads 2", in, two, RescoreFlags);
    assert_int_equal(datagen(args), 0);
    snprintf(args, sizeof args, "rescore '%s' '%s' %s --threads 3", in, three, RescoreFlags);
    assert_int_equal(datagen(args), 0);
    assert_true(test_same_bytes(one, two));
    assert_true(test_same_bytes(one, three));
    snprintf(args, sizeof args, "verify '%s'", one);
    assert_int_equal(datagen(args), 0);

    /* Same positions, results and plies, in order; scores changed; none
     * kept at or over the cap. */
    uint64_t n_in, n_out;
    char err[600];
    FILE *fi = datafile_open_read(in, &n_in, err, sizeof err), *fo = datafile_open_read(one, &n_out, err, sizeof err);
    assert_non_null(fi);
    assert_non_null(fo);
    assert_true(n_out > n_in / 2 && n_out <= n_in);
    int changed = 0;
    DataRecord a, b;
    for (uint64_t i = 0; i < n_out; i++) {
        assert_int_equal(datafile_read(fo, &b, 1), 1);
        do
            assert_int_equal(datafile_read(fi, &a, 1), 1);
        while (memcmp(a.b, b.b, DATAFILE_SCORE_OFFSET) || memcmp(a.b + 30, b.b + 30, 6));
        changed += memcmp(a.b + 28, b.b + 28, 2) != 0;
        int16_t score = (int16_t)(b.b[28] | b.b[29] << 8);
        assert_true(score > -2000 && score < 2000);
    }
    assert_true(changed > 0);
    fclose(fi);
    fclose(fo);
}

static void rescore_refuses_bad_input(void **state) {
    (void)state;
    char bad[1200], out[1200], good[1200]; /* path_of's buffers are reused */
    snprintf(bad, sizeof bad, "%s", path_of("foreign.bin"));
    snprintf(out, sizeof out, "%s", path_of("rescored.bin"));
    snprintf(good, sizeof good, "%s", path_of("r1.bin"));
    FILE *f = fopen(bad, "wb");
    fputs("this is not a data file, it is a note\n", f);
    fclose(f);
    remove(out);
    char args[3000];
    snprintf(args, sizeof args, "rescore '%s' '%s' %s", bad, out, RescoreFlags);
    assert_int_equal(datagen(args), 1);
    expect_one_error("not a Tuong training data file");
    /* A record that is not a position (two red kings). */
    uint8_t bytes[DATAFILE_HEADER_SIZE + DATAFILE_RECORD_SIZE];
    memset(bytes, 0, sizeof bytes);
    datafile_header(bytes);
    uint8_t *rec = bytes + DATAFILE_HEADER_SIZE;
    rec[0] = 0x30; /* points 4 and 5 */
    rec[DATAFILE_PIECE_OFFSET] = 0x11;
    f = fopen(bad, "wb");
    fwrite(bytes, 1, sizeof bytes, f);
    fclose(f);
    assert_int_equal(datagen(args), 1);
    expect_one_error("record 0");
    /* Truncated. */
    f = fopen(bad, "wb");
    fwrite(bytes, 1, sizeof bytes - 3, f);
    fclose(f);
    assert_int_equal(datagen(args), 1);
    expect_one_error("truncated");
    /* OUT exists (outside the pool nothing can go on). */
    snprintf(args, sizeof args, "rescore '%s' '%s' %s", good, good, RescoreFlags);
    assert_int_equal(datagen(args), 1);
    expect_one_error("same file");
    snprintf(args, sizeof args, "rescore '%s' '%s' %s", path_of("r2.bin"), good, RescoreFlags);
    assert_int_equal(datagen(args), 1);
    expect_one_error("exists");
    const char *flags[] = {"--nodes 0", "--threads x", "--bogus 1", "--nodes", "--hard-nodes 10"};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
        snprintf(args, sizeof args, "rescore '%s' '%s' %s", good, out, flags[i]);
        assert_int_not_equal(datagen(args), 0);
        expect_one_error("error");
    }
    snprintf(args, sizeof args, "rescore '%s'", good);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("usage");
    assert_true(access(out, F_OK) != 0); /* nothing written */
}

/* Into the pool: recorded in the manifest; stopped and run again, it goes
 * on and ends with the bytes of an uninterrupted rescore. */
static void rescore_in_pool_resumes(void **state) {
    (void)state;
    char pool[1200];
    snprintf(pool, sizeof pool, "%s", path_of("rescore-in"));
    char in[1300], out[1300], args[4096];
    snprintf(in, sizeof in, "%s/run-s21-n200.bin", pool);
    snprintf(out, sizeof out, "%s/deep.bin", pool);
    remove(out);
    snprintf(args, sizeof args, "POOL='%s'; '%s' rescore '%s' '%s' --pool \"$POOL\" %s --threads 2 2>/dev/null & %s",
             pool, TUONG_DATAGEN, in, out, RescoreFlags, StopOnceListed);
    int status = system(args);
    assert_true(WIFEXITED(status));
    int rc = WEXITSTATUS(status);
    assert_true(rc == 130 || rc == 0 || rc == 128 + SIGTERM);
    ManifestEntry e;
    if (has_entry(pool, "deep.bin")) { /* unless stopped while it still checked its input */
        load_entry(pool, "deep.bin", &e);
        assert_int_equal(e.kind, MANIFEST_RESCORE);
    }
    snprintf(args, sizeof args, "rescore '%s' '%s' --pool '%s' %s --threads 1", in, out, pool, RescoreFlags);
    assert_int_equal(datagen(args), 0);
    assert_true(test_same_bytes(out, path_of("r1.bin")));
    load_entry(pool, "deep.bin", &e);
    assert_non_null(strstr(e.source, "run-s21-n200.bin@"));
    assert_int_equal(e.nodes, 300);
    snprintf(args, sizeof args, "pool verify --pool '%s'", pool);
    assert_int_equal(datagen(args), 0);
    /* Other flags cannot go on with it. */
    snprintf(args, sizeof args, "rescore '%s' '%s' --pool '%s' --nodes 400 --hash 1 --progress 0", in, out, pool);
    assert_int_equal(datagen(args), 1);
    expect_one_error("other flags");
}

static int setup(void **state) {
    (void)state;
    snprintf(Dir, sizeof Dir, "%s/test_nnue_datapool.d", TUONG_BUILD_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", Dir);
    /* Whatever the environment says, a pool the tests did not name is theirs. */
    char pool[1200];
    snprintf(pool, sizeof pool, "%s/default-pool", Dir);
    setenv("TUONG_DATA_DIR", pool, 1);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sha256_known_vectors),
        cmocka_unit_test(sha256_running_digest),
        cmocka_unit_test(manifest_written_and_read_back),
        cmocka_unit_test(manifest_parser_refuses_damage),
        cmocka_unit_test(pool_directory_default),
        cmocka_unit_test(resumed_run_equals_uninterrupted),
        cmocka_unit_test(resume_refuses_other_settings),
        cmocka_unit_test(verify_finds_changes),
        cmocka_unit_test(adopt_then_resume),
        cmocka_unit_test(rescore_same_for_any_threads),
        cmocka_unit_test(rescore_refuses_bad_input),
        cmocka_unit_test(rescore_in_pool_resumes),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
