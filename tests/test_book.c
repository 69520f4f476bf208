// SPDX-License-Identifier: GPL-3.0-or-later
/* Opening books (engine/book): ElephantEye's keys and BOOK.DAT, Tuong's
 * format, bad files, the weighted choice and the list behind bookfiles. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book.h"
#include "book/book_key.h"
#include "book/book_pick.h"
#include "book/book_set.h"
#include "book/book_write.h"
#include "fen.h"
#include "notation.h"

#define AFTER_H2E2 "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
#define AFTER_B2E2 "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1"

static char Dir[] = "/tmp/tuong_test_book_XXXXXX";
static Position Pos;

static const char *path_in_dir(const char *name) {
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", Dir, name);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The locks ElephantEye 3.31 computes for these positions (its own
 * PositionStruct::FromFen, run once to take them down). */
static void test_keys_match_elephanteye(void **state) {
    (void)state;
    static const struct {
        const char *fen;
        uint32_t lock0, lock1;
    } Known[] = {
        {START_FEN, 0x8f899c24, 0x052656d5},
        {AFTER_H2E2, 0xeabc90f8, 0xeb505d7d},
        {AFTER_B2E2, 0x607386e9, 0x5396644f},
        {"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 0x0c50ca13, 0x04390572},
    };
    for (size_t i = 0; i < sizeof Known / sizeof Known[0]; i++) {
        must_parse(&Pos, Known[i].fen);
        BookKeys k = book_keys(&Pos);
        assert_int_equal(k.key, (uint64_t)Known[i].lock1 << 32 | Known[i].lock0);
    }
    must_parse(&Pos, START_FEN);
    assert_int_equal(book_keys(&Pos).key, book_keys(&Pos).mirror); /* symmetric */
    must_parse(&Pos, AFTER_H2E2);
    BookKeys h = book_keys(&Pos);
    must_parse(&Pos, AFTER_B2E2);
    assert_int_equal(h.mirror, book_keys(&Pos).key);
    assert_int_equal(book_keys(&Pos).mirror, h.key);
}

static void test_move_codes(void **state) {
    (void)state;
    Move h2e2 = move_from_text("h2e2", 0);
    assert_int_equal(book_ee_move(h2e2), 0xa7aa); /* as in BOOK.DAT */
    assert_int_equal(book_from_ee_move(0xa7aa), h2e2);
    assert_int_equal(book_mirror_move(h2e2), move_from_text("b2e2", 0));
    assert_int_equal(book_from_ee_move(0x0000), MOVE_NONE); /* off the board */
    assert_int_equal(book_from_ee_move(0xa7a7), MOVE_NONE); /* from == to */
    assert_int_equal(book_from_file_move(book_file_move(h2e2)), h2e2);
    assert_int_equal(book_from_file_move(90 | 3 << 8), MOVE_NONE);
}

/* Twenty records of ElephantEye's own BOOK.DAT (LGPL-2.1-or-later, see
 * docs/book.md): the start position and, stored under its mirror image,
 * the position after h2e2. Filler records around them keep the binary
 * search honest. */
static const struct {
    uint32_t lock1;
    uint16_t move, weight;
} EeExcerpt[] = {
    {0x00000007, 0xa7aa, 3},    {0x052656d5, 0x8595, 546},  {0x052656d5, 0x8999, 546}, {0x052656d5, 0xa3c4, 18},
    {0x052656d5, 0xa5aa, 2},    {0x052656d5, 0xa5c4, 89},   {0x052656d5, 0xa6a4, 37},  {0x052656d5, 0xa6aa, 42},
    {0x052656d5, 0xa7a4, 1473}, {0x052656d5, 0xa7aa, 1473}, {0x052656d5, 0xa7c5, 311}, {0x052656d5, 0xa7c9, 311},
    {0x052656d5, 0xa8a4, 42},   {0x052656d5, 0xa8aa, 37},   {0x052656d5, 0xa9a4, 2},   {0x052656d5, 0xa9ca, 89},
    {0x052656d5, 0xabca, 18},   {0x30000000, 0xa7aa, 5},    {0x5396644f, 0x5534, 761}, {0x5396644f, 0x5754, 97},
    {0x5396644f, 0x575a, 1},    {0x5396644f, 0x593a, 172},  {0xfffffff0, 0xa7aa, 9},
};

static const char *write_ee_excerpt(void) {
    static uint8_t data[sizeof EeExcerpt / sizeof EeExcerpt[0] * BOOK_EE_RECORD_SIZE];
    for (size_t i = 0; i < sizeof EeExcerpt / sizeof EeExcerpt[0]; i++) {
        put_le(data + 8 * i, EeExcerpt[i].lock1, 4);
        put_le(data + 8 * i + 4, EeExcerpt[i].move, 2);
        put_le(data + 8 * i + 6, EeExcerpt[i].weight, 2);
    }
    const char *path = path_in_dir("BOOK.DAT");
    write_bytes(path, data, sizeof data);
    return path;
}

/* "m:w m:w ..." of a probe. */
static const char *listing(const Book *b, const char *fen) {
    static char out[2048];
    static BookMoves moves;
    must_parse(&Pos, fen);
    book_probe(b, &Pos, &moves);
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < moves.count; i++) {
        char text[MOVE_TEXT_MAX];
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s:%u", i ? " " : "",
                              move_to_text(moves.moves[i].move, 0, text), moves.moves[i].weight);
    }
    return out;
}

/* What ElephantEye 3.31 lists (`info depth 0 score <weight> pv <move>`)
 * with its BOOK.DAT, in its order. */
static const char EeStart[] = "b2e2:1473 h2e2:1473 c3c4:546 g3g4:546 c0e2:311 g0e2:311 b0c2:89 h0g2:89 h2d2:42 "
                              "b2f2:42 b2d2:37 h2f2:37 b0a2:18 h0i2:18 h2c2:2 b2g2:2";
static const char EeAfterH2e2[] = "h9g7:761 b9c7:172 h7e7:97 b7e7:1";
static const char EeAfterB2e2[] = "b9c7:761 h9g7:172 b7e7:97 h7e7:1";

static void check_eleeye_lines(const Book *b) {
    assert_int_equal(book_format(b), BOOK_FORMAT_ELEEYE);
    assert_string_equal(listing(b, START_FEN), EeStart);
    assert_string_equal(listing(b, AFTER_H2E2), EeAfterH2e2); /* found under its mirror image */
    assert_string_equal(listing(b, AFTER_B2E2), EeAfterB2e2);
    assert_string_equal(listing(b, "4k4/9/9/9/9/9/9/9/9/3K5 w"), "");
}

static void test_reads_elephanteye_excerpt(void **state) {
    (void)state;
    char err[512];
    const char *path = write_ee_excerpt();
    Book *b = book_open(path, err, sizeof err);
    if (!b) fail_msg("%s", err);
    assert_int_equal(book_entry_count(b), sizeof EeExcerpt / sizeof EeExcerpt[0]);
    check_eleeye_lines(b);
    book_close(b);
    unlink(path);
}

/* The real file, when TUONG_ELEEYE_BOOK names it (not shipped). */
static void test_reads_real_elephanteye_book(void **state) {
    (void)state;
    const char *path = getenv("TUONG_ELEEYE_BOOK");
    if (!path || !*path) skip();
    char err[512];
    Book *b = book_open(path, err, sizeof err);
    if (!b) fail_msg("%s", err);
    check_eleeye_lines(b);
    book_close(b);
}

static Move mv(const char *text) { return move_from_text(text, 0); }

static BookEntry entry(const char *fen, const char *move, uint32_t weight, uint32_t w, uint32_t d, uint32_t l) {
    must_parse(&Pos, fen);
    return (BookEntry){book_keys(&Pos).key, mv(move), weight, w, d, l};
}

static void test_tuong_round_trip(void **state) {
    (void)state;
    BookEntry e[] = {
        entry(START_FEN, "h2e2", 30, 10, 5, 2),
        entry(START_FEN, "b0c2", 70, 20, 30, 1),
        entry(AFTER_B2E2, "b9c7", 12, 4, 4, 4),
        entry("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0d1", 1, 1, 0, 0),
    };
    char err[512];
    const char *path = path_in_dir("round.tbk");
    assert_true(book_write(path, BOOK_FORMAT_TUONG, e, 4, err, sizeof err));
    Book *b = book_open(path, err, sizeof err);
    if (!b) fail_msg("%s", err);
    assert_int_equal(book_format(b), BOOK_FORMAT_TUONG);
    assert_int_equal(book_entry_count(b), 4);
    static BookMoves m;
    must_parse(&Pos, START_FEN);
    assert_int_equal(book_probe(b, &Pos, &m), 2);
    assert_int_equal(m.moves[0].move, mv("b0c2"));
    assert_int_equal(m.moves[0].weight, 70);
    assert_int_equal(m.moves[0].wins, 20);
    assert_int_equal(m.moves[0].draws, 30);
    assert_int_equal(m.moves[0].losses, 1);
    assert_int_equal(m.moves[1].move, mv("h2e2"));
    assert_string_equal(listing(b, AFTER_H2E2), "h9g7:12"); /* mirrored back */
    book_close(b);
    /* The same entries as BOOK.DAT: moves and weights survive, counts do not. */
    path = path_in_dir("round.dat");
    assert_true(book_write(path, BOOK_FORMAT_ELEEYE, e, 4, err, sizeof err));
    b = book_open(path, err, sizeof err);
    if (!b) fail_msg("%s", err);
    assert_int_equal(book_format(b), BOOK_FORMAT_ELEEYE);
    assert_string_equal(listing(b, START_FEN), "b0c2:70 h2e2:30");
    assert_string_equal(listing(b, AFTER_B2E2), "b9c7:12");
    book_close(b);
    unlink(path_in_dir("round.tbk"));
    unlink(path);
}

/* A corrupt or colliding entry is never offered: every move is checked. */
static void test_illegal_book_move_rejected(void **state) {
    (void)state;
    BookEntry e[] = {
        entry(START_FEN, "a0a5", 900, 0, 0, 0), /* the rook is blocked by its pawn */
        entry(START_FEN, "e0e2", 800, 0, 0, 0), /* a king leaving its palace */
        entry(START_FEN, "c3c4", 5, 0, 0, 0),
    };
    char err[512];
    const char *path = path_in_dir("illegal.tbk");
    assert_true(book_write(path, BOOK_FORMAT_TUONG, e, 3, err, sizeof err));
    Book *b = book_open(path, err, sizeof err);
    if (!b) fail_msg("%s", err);
    assert_string_equal(listing(b, START_FEN), "c3c4:5");
    book_close(b);
    unlink(path);
}

static void expect_refused(const char *path, const char *words) {
    char err[512] = "";
    Book *b = book_open(path, err, sizeof err);
    if (b) fail_msg("'%s' was accepted", path);
    if (!strstr(err, words)) fail_msg("'%s': message '%s' lacks '%s'", path, err, words);
    assert_null(strchr(err, '\n'));
}

static void test_bad_files(void **state) {
    (void)state;
    expect_refused(path_in_dir("missing.tbk"), "cannot open");
    expect_refused(Dir, "not a regular file");
    write_bytes(path_in_dir("empty"), "", 0);
    expect_refused(path_in_dir("empty"), "is empty");
    write_bytes(path_in_dir("text"), "[Event \"x\"]\n1. h2e2\n", 21);
    expect_refused(path_in_dir("text"), "neither a Tuong book");
    write_bytes(path_in_dir("text8"), "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2\n", 48);
    expect_refused(path_in_dir("text8"), "corrupt or no ElephantEye BOOK.DAT");
    /* A good Tuong book cut short, and one of a later version. */
    BookEntry e[] = {entry(START_FEN, "h2e2", 3, 1, 1, 1), entry(START_FEN, "b2e2", 3, 1, 1, 1)};
    char err[512];
    const char *good = path_in_dir("good.tbk");
    assert_true(book_write(good, BOOK_FORMAT_TUONG, e, 2, err, sizeof err));
    static uint8_t data[BOOK_HEADER_SIZE + 2 * BOOK_ENTRY_SIZE];
    FILE *f = fopen(good, "rb");
    assert_int_equal(fread(data, 1, sizeof data, f), sizeof data);
    fclose(f);
    write_bytes(path_in_dir("cut.tbk"), data, sizeof data - 5);
    expect_refused(path_in_dir("cut.tbk"), "truncated");
    write_bytes(path_in_dir("head.tbk"), data, 20);
    expect_refused(path_in_dir("head.tbk"), "truncated");
    put_le(data + 8, 2, 4);
    write_bytes(path_in_dir("v2.tbk"), data, sizeof data);
    expect_refused(path_in_dir("v2.tbk"), "version 2");
    put_le(data + 8, BOOK_VERSION, 4);
    memcpy(data + BOOK_HEADER_SIZE, data + BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE, 8); /* keys out of order */
    put_le(data + BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE, 1, 8);
    write_bytes(path_in_dir("order.tbk"), data, sizeof data);
    expect_refused(path_in_dir("order.tbk"), "out of key order");
    static const char *const Made[] = {"empty",   "text",     "text8",  "good.tbk",
                                       "cut.tbk", "head.tbk", "v2.tbk", "order.tbk"};
    for (size_t i = 0; i < sizeof Made / sizeof Made[0]; i++)
        unlink(path_in_dir(Made[i]));
}

static BookMoves weighted(const uint32_t *w, int n) {
    BookMoves m = {0};
    for (int i = 0; i < n; i++)
        m.moves[m.count++] = (BookMove){(Move)make_move(i, i + 9), w[i], 0, 0, 0};
    return m;
}

/* Each level's frequencies follow weight^exponent, with a fixed seed. */
static void test_pick_statistics(void **state) {
    (void)state;
    static const uint32_t W[] = {8, 4, 2, 1, 0};
    static const double Exponent[] = {0, BOOK_EXPONENT_SMALL, BOOK_EXPONENT_MEDIUM, BOOK_EXPONENT_LARGE};
    enum { DRAWS = 200000 };
    BookMoves m = weighted(W, 5);
    for (int level = BOOK_RANDOM_SMALL; level <= BOOK_RANDOM_LARGE; level++) {
        uint64_t rng = 12345;
        int count[5] = {0};
        for (int i = 0; i < DRAWS; i++)
            count[book_pick(&m, (BookRandomness)level, &rng)]++;
        double total = 0;
        for (int i = 0; i < 4; i++)
            total += pow(W[i], Exponent[level]);
        for (int i = 0; i < 4; i++) {
            double want = pow(W[i], Exponent[level]) / total, got = (double)count[i] / DRAWS;
            if (fabs(got - want) > 0.006) fail_msg("level %d move %d: %.4f, want %.4f", level, i, got, want);
        }
        assert_int_equal(count[4], 0); /* weight 0: never */
    }
    uint64_t rng = 1;
    for (int i = 0; i < 100; i++)
        assert_int_equal(book_pick(&m, BOOK_RANDOM_NONE, &rng), 0);
    static const uint32_t Tie[] = {1, 5, 5}, Zero[] = {0, 0};
    BookMoves tie = weighted(Tie, 3), zero = weighted(Zero, 2), none = {0};
    assert_int_equal(book_pick(&tie, BOOK_RANDOM_NONE, &rng), 1);
    assert_int_equal(book_pick(&zero, BOOK_RANDOM_NONE, &rng), -1);
    assert_int_equal(book_pick(&zero, BOOK_RANDOM_MEDIUM, &rng), -1);
    assert_int_equal(book_pick(&none, BOOK_RANDOM_LARGE, &rng), -1);
}

typedef struct {
    int errors, loaded;
    char last_error[600];
} Reports;

static void on_report(void *ctx, bool error, const char *text) {
    Reports *r = ctx;
    if (error) {
        r->errors++;
        snprintf(r->last_error, sizeof r->last_error, "%s", text);
    } else {
        r->loaded++;
    }
}

/* bookfiles: ';'-separated, bad files reported once and left out, the
 * first book that knows the position answers. */
static void test_book_set(void **state) {
    (void)state;
    char err[512], list[1024];
    BookEntry a[] = {entry(START_FEN, "h2e2", 3, 0, 0, 0)};
    BookEntry b[] = {entry(START_FEN, "c3c4", 9, 0, 0, 0), entry(AFTER_H2E2, "h9g7", 4, 0, 0, 0)};
    assert_true(book_write(path_in_dir("a.tbk"), BOOK_FORMAT_TUONG, a, 1, err, sizeof err));
    assert_true(book_write(path_in_dir("b.dat"), BOOK_FORMAT_ELEEYE, b, 2, err, sizeof err));
    snprintf(list, sizeof list, " %s ;%s;%s", path_in_dir("nothing.tbk"), path_in_dir("a.tbk"), path_in_dir("b.dat"));
    BookSet set = {0};
    Reports r = {0};
    book_set_load(&set, list, on_report, &r);
    assert_int_equal(r.errors, 1);
    assert_non_null(strstr(r.last_error, "nothing.tbk"));
    assert_int_equal(r.loaded, 2);
    assert_int_equal(set.count, 2);
    static BookMoves m;
    must_parse(&Pos, START_FEN);
    assert_int_equal(book_set_probe(&set, &Pos, &m), 1);
    assert_int_equal(m.moves[0].move, mv("h2e2")); /* the first book wins */
    must_parse(&Pos, AFTER_H2E2);
    assert_int_equal(book_set_probe(&set, &Pos, &m), 1);
    assert_int_equal(m.moves[0].move, mv("h9g7")); /* only the second knows it */
    r = (Reports){0};
    book_set_load(&set, "", on_report, &r);
    assert_int_equal(set.count, 0);
    assert_int_equal(r.errors + r.loaded, 0);
    /* More files than the set holds: the rest are reported. */
    list[0] = '\0';
    for (int i = 0; i < BOOK_SET_MAX + 2; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s;", path_in_dir("a.tbk"));
    book_set_load(&set, list, on_report, &r);
    assert_int_equal(set.count, BOOK_SET_MAX);
    assert_int_equal(r.errors, 2);
    book_set_clear(&set);
    assert_int_equal(set.count, 0);
    unlink(path_in_dir("a.tbk"));
    unlink(path_in_dir("b.dat"));
}

static int setup(void **state) {
    (void)state;
    engine_init();
    return mkdtemp(Dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return rmdir(Dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_match_elephanteye),
        cmocka_unit_test(test_move_codes),
        cmocka_unit_test(test_reads_elephanteye_excerpt),
        cmocka_unit_test(test_reads_real_elephanteye_book),
        cmocka_unit_test(test_tuong_round_trip),
        cmocka_unit_test(test_illegal_book_move_rejected),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_pick_statistics),
        cmocka_unit_test(test_book_set),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
