// SPDX-License-Identifier: GPL-3.0-or-later
/* Shards (engine/shard.h) and sharded perft (engine/perft_shard.h): K/N
 * parsing, shares that cover every item once, the set check's refusals,
 * the perft result file's parser and its refusals, and perft merge equal
 * to the plain count. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "perft_shard.h"
#include "shard.h"

static void parses_k_of_n(void **state) {
    (void)state;
    ShardSpec s;
    assert_true(shard_parse("0/1", &s));
    assert_int_equal(s.index, 0);
    assert_int_equal(s.count, 1);
    assert_true(shard_parse("3/4", &s));
    assert_int_equal(s.index, 3);
    assert_int_equal(s.count, 4);
    const char *bad[] = {"",     "1",    "4/4",  "5/4", "-1/4", "1/0",       "1/-4",
                         " 1/4", "1/4 ", "1/4x", "a/b", "1//4", "1/1000001", NULL};
    for (int i = 0; bad[i]; i++)
        if (shard_parse(bad[i], &s)) fail_msg("'%s' parsed", bad[i]);
    assert_false(shard_parse(NULL, &s));
}

/* Every item lands in exactly one shard, both ways of dealing. */
static void shares_cover_every_item_once(void **state) {
    (void)state;
    const uint64_t totals[] = {1, 2, 7, 10, 100, 1001, UINT64_C(1) << 40};
    for (size_t t = 0; t < sizeof totals / sizeof *totals; t++)
        for (int n = 1; n <= 9; n++) {
            uint64_t next = 0;
            for (int k = 0; k < n; k++) {
                uint64_t first, end;
                shard_range(totals[t], (ShardSpec){k, n}, &first, &end);
                assert_true(first == next && end >= first);
                assert_true(end - first <= totals[t] / (uint64_t)n + 1); /* even shares */
                next = end;
            }
            assert_true(next == totals[t]);
        }
    for (uint64_t i = 0; i < 50; i++) {
        int owners = 0;
        for (int k = 0; k < 7; k++)
            owners += shard_deals(i, (ShardSpec){k, 7});
        assert_int_equal(owners, 1);
    }
    assert_true(shard_hash_str(SHARD_HASH_INIT, "ab") != shard_hash_str(SHARD_HASH_INIT, "ba"));
    assert_true(shard_hash_u64(SHARD_HASH_INIT, 1) != shard_hash_u64(SHARD_HASH_INIT, 2));
}

static void expect_refusal(const ShardInfo *files, int n, const char *want1, const char *want2) {
    int order[8];
    char err[400];
    assert_false(shard_check_set(files, n, order, err, sizeof err));
    if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
        fail_msg("'%s' lacks '%s' or '%s'", err, want1, want2 ? want2 : "");
}

static void set_check_refuses_bad_sets(void **state) {
    (void)state;
    ShardInfo f[5] = {{"c.out", {2, 3}, 9}, {"a.out", {0, 3}, 9}, {"b.out", {1, 3}, 9}};
    int order[8];
    char err[400];
    assert_true(shard_check_set(f, 3, order, err, sizeof err));
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 0);
    expect_refusal(f, 2, "shard 1/3 is missing", NULL); /* missing */
    f[3] = (ShardInfo){"again.out", {1, 3}, 9};
    expect_refusal(f, 4, "b.out and again.out are both shard 1/3", NULL); /* duplicate */
    f[2] = (ShardInfo){"other.out", {1, 3}, 8};
    expect_refusal(f, 3, "other.out is a shard of another run", "c.out"); /* foreign */
    f[2] = (ShardInfo){"four.out", {1, 4}, 9};
    expect_refusal(f, 3, "four.out is shard 1/4", "c.out is shard 2/3"); /* another split */
    expect_refusal(f, 0, "no shard files", NULL);
    ShardInfo one = {"only.out", {0, 1}, 1};
    assert_true(shard_check_set(&one, 1, order, err, sizeof err));
}

/* A prefix: shards 0..n-1 of a split into more, in any order; a gap, a
 * duplicate or a foreign shard is refused as in a whole set. */
static void prefix_check_takes_the_first_shards(void **state) {
    (void)state;
    ShardInfo f[3] = {{"b.out", {1, 5}, 9}, {"a.out", {0, 5}, 9}, {"d.out", {3, 5}, 9}};
    int order[8];
    char err[400];
    assert_true(shard_check_prefix(f, 2, order, err, sizeof err));
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 0);
    assert_false(shard_check_prefix(f, 3, order, err, sizeof err)); /* 0, 1, 3: shard 2 is the gap */
    assert_non_null(strstr(err, "shard 2/5 is missing: a prefix is shards 0 to 2/5 without a gap"));
    assert_false(shard_check_prefix(f + 2, 1, order, err, sizeof err)); /* 3 alone */
    assert_non_null(strstr(err, "shard 0/5 is missing"));
    f[2] = (ShardInfo){"again.out", {1, 5}, 9};
    assert_false(shard_check_prefix(f, 3, order, err, sizeof err));
    assert_non_null(strstr(err, "b.out and again.out are both shard 1/5"));
    f[2] = (ShardInfo){"c.out", {2, 5}, 8};
    assert_false(shard_check_prefix(f, 3, order, err, sizeof err));
    assert_non_null(strstr(err, "c.out is a shard of another run"));
    assert_false(shard_check_set(f, 2, order, err, sizeof err)); /* a prefix is not a whole set */
}

/* ---- perft result files ---------------------------------------------- */

static char Dir[512];

static const char *path_of(const char *name) {
    static char paths[8][1200];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", Dir, name);
    return p;
}

/* Run `tuong ARGS` with stdout to out_name; its exit status. */
static int tuong(const char *args, const char *out_name) {
    char cmd[8192], ignored[64];
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", TUONG_BINARY, args, path_of(out_name), path_of("stderr"));
    return run_command(cmd, ignored, sizeof ignored);
}

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static void write_text(const char *name, const char *text, size_t n) {
    FILE *f = fopen(path_of(name), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    fclose(f);
}

/* stderr's first line contains want; nothing follows unless `usage`
 * (a usage error prints the usage after its line). */
static void expect_line(const char *want, bool usage) {
    size_t n;
    char *text = slurp(path_of("stderr"), &n);
    char *nl = strchr(text, '\n');
    if (nl) *nl = '\0';
    if (!strstr(text, want) || !nl || (!usage && nl[1])) fail_msg("stderr '%s' is not one line with '%s'", text, want);
    if (usage) assert_non_null(strstr(nl + 1, "usage:"));
    free(text);
}

static void expect_error(const char *want) { expect_line(want, false); }

/* perft.epd's second position: 43,929 leaves at depth 3. */
static const char Middlegame[] = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w";

/* Three shards of perft 4 split 2, merged, print what tuong perft 4 does. */
static void perft_merge_equals_the_plain_count(void **state) {
    (void)state;
    char args[4096];
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "perft 4 --split 2 --shard %d/3 --out '%s/p%d.txt'", k, Dir, k);
        assert_int_equal(tuong(args, "ignored"), 0);
    }
    snprintf(args, sizeof args, "perft merge '%s/p2.txt' '%s/p0.txt' '%s/p1.txt'", Dir, Dir, Dir);
    assert_int_equal(tuong(args, "merged"), 0);
    assert_int_equal(tuong("perft 4", "plain"), 0);
    size_t nm, np;
    char *merged = slurp(path_of("merged"), &nm), *plain = slurp(path_of("plain"), &np);
    char *cut = strstr(plain, "Time (ms)"); /* the plain count's timing lines */
    assert_non_null(cut);
    *cut = '\0';
    assert_string_equal(merged, plain);
    assert_non_null(strstr(merged, "Nodes searched: 3290240\n"));
    free(merged);
    free(plain);

    /* split 1 of a FEN, one shard: the same as its plain count too */
    snprintf(args, sizeof args, "perft 3 %s --split 1 --out '%s/one.txt'", Middlegame, Dir);
    assert_int_equal(tuong(args, "ignored"), 0);
    snprintf(args, sizeof args, "perft merge '%s/one.txt'", Dir);
    assert_int_equal(tuong(args, "merged"), 0);
    merged = slurp(path_of("merged"), &nm);
    assert_non_null(strstr(merged, "Nodes searched: 43929\n"));
    free(merged);
}

/* Every bad set and every bad file is refused with one line naming it. */
static void perft_merge_refuses_bad_sets(void **state) {
    (void)state;
    char args[4096];
    snprintf(args, sizeof args, "perft merge '%s/p0.txt' '%s/p1.txt'", Dir, Dir);
    assert_int_equal(tuong(args, "out"), 1);
    expect_error("shard 2/3 is missing");
    snprintf(args, sizeof args, "perft merge '%s/p0.txt' '%s/p1.txt' '%s/p1.txt' '%s/p2.txt'", Dir, Dir, Dir, Dir);
    assert_int_equal(tuong(args, "out"), 1);
    expect_error("p1.txt are both shard 1/3");
    assert_int_equal(tuong("perft 3 --split 2 --shard 2/3 --out /dev/null/x", "out"), 1);
    expect_error("cannot write");
    snprintf(args, sizeof args, "perft 3 --split 2 --shard 2/3 --out '%s/foreign.txt'", Dir);
    assert_int_equal(tuong(args, "out"), 0);
    snprintf(args, sizeof args, "perft merge '%s/p0.txt' '%s/p1.txt' '%s/foreign.txt'", Dir, Dir, Dir);
    assert_int_equal(tuong(args, "out"), 1);
    expect_error("foreign.txt is a shard of another run");
    size_t n;
    char *text = slurp(path_of("p2.txt"), &n);
    write_text("cut.txt", text, n / 2);
    snprintf(args, sizeof args, "perft merge '%s/p0.txt' '%s/p1.txt' '%s/cut.txt'", Dir, Dir, Dir);
    assert_int_equal(tuong(args, "out"), 1);
    expect_error("cut.txt: truncated");
    free(text);
    assert_int_equal(tuong("perft 3 --shard 0/2", "out"), 2);
    expect_line("--split", true);
    assert_int_equal(tuong("perft 2 --split 3", "out"), 2);
    expect_line("--split", true);
    assert_int_equal(tuong("perft 4 --split 2 --shard 2/2", "out"), 2);
    expect_line("--shard", true);
}

static bool parses(const char *text, char *err, size_t errlen) {
    PerftShardFile f;
    bool ok = perft_shard_parse(text, strlen(text), &f, err, errlen);
    perft_shard_free(&f);
    return ok;
}

static void perft_parser_refuses_bad_files(void **state) {
    (void)state;
    const char *head = "tuong-perft-shard 1\nfen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n"
                       "depth 3 split 1 subtrees 5 shard 1/2 run 00000000000000ab\n";
    char text[1024], err[300];
    snprintf(text, sizeof text, "%ssub 1 e0e1 10\nsub 3 e0f0 12\nend 2 22\n", head);
    assert_true(parses(text, err, sizeof err));
    struct {
        const char *body, *why;
    } bad[] = {
        {"sub 1 e0e1 10\nsub 3 e0f0 12\n", "no end line"},
        {"sub 1 e0e1 10\nsub 3 e0f0 12\nend 2 23\n", "end line says"},
        {"sub 1 e0e1 10\nend 1 10\n", "holds 1 of the 2"},
        {"sub 3 e0f0 12\nsub 1 e0e1 10\nend 2 22\n", "out of order"},
        {"sub 1 e0e1 10\nsub 1 e0e1 10\nend 2 20\n", "out of order or twice"},
        {"sub 2 e0e1 10\nend 1 10\n", "not dealt to shard 1/2"},
        {"sub 7 e0e1 10\nend 1 10\n", "beyond"},
        {"sub 1 e0e1 ten\nend 1 10\n", "bad count"},
        {"sub 1 e0e1 10\nsub 3 e0f0 12\nend 2 22\nmore\n", "after the end line"},
        {"sub 1 e0e1 10\nsub 3 e0f0 12\nend 2 22", "no end line"},
        {"bogus\n", "neither"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s%s", head, bad[i].body);
        assert_false(parses(text, err, sizeof err));
        if (!strstr(err, bad[i].why)) fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].why);
    }
    char long_line[600];
    snprintf(long_line, sizeof long_line, "%ssub 1 e0e1 1%0300d\n", head, 0);
    assert_false(parses(long_line, err, sizeof err));
    assert_non_null(strstr(err, "too long"));
    assert_false(parses("tuong-perft-shard 2\n", err, sizeof err));
    assert_false(
        parses("tuong-perft-shard 1\nfen x\ndepth 3 split 5 subtrees 5 shard 0/1 run 1\nend 0 0\n", err, sizeof err));
    assert_false(parses("", err, sizeof err));
}

static int setup(void **state) {
    (void)state;
    snprintf(Dir, sizeof Dir, "%s/test_shard.d", TUONG_BUILD_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", Dir, Dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_k_of_n),
        cmocka_unit_test(shares_cover_every_item_once),
        cmocka_unit_test(set_check_refuses_bad_sets),
        cmocka_unit_test(prefix_check_takes_the_first_shards),
        cmocka_unit_test(perft_merge_equals_the_plain_count),
        cmocka_unit_test(perft_merge_refuses_bad_sets),
        cmocka_unit_test(perft_parser_refuses_bad_files),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
