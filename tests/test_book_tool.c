// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-book (bench/book): PGN in three notations to a book and back,
 * the build options, transpositions, and bad input. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book/book.h"
#include "fen.h"
#include "notation.h"

#define TOOL TUONG_BUILD_DIR "/tuong-book"

static char Dir[] = "/tmp/tuong_test_book_tool_XXXXXX";
static char Out[8192], Err[8192];

static const char *in_dir(const char *name) { return test_path_in(Dir, name); }
static void write_text(const char *name, const char *text) { test_write_text(Dir, name, text); }

/* Run tuong-book with args (relative file names resolve in Dir); its output lands
 * in Out and Err; returns the exit code. */
static int run(const char *args) { return test_run_tool(Dir, TOOL, args, Out, sizeof Out, Err, sizeof Err); }

/* One game as tuong-match writes it (ICCS, engine comments), one in the
 * ICCS of xiangqi databases, the same first game in WXF as tuong-match
 * writes with -notation wxf, a transposition into the first game's
 * position after three plies, and an unfinished game. */
/* run(), failing the test with the tool's messages on another exit code. */
static void expect_run(const char *args, int code) {
    int got = run(args);
    if (got != code) fail_msg("tuong-book %s: exit %d, not %d\nstdout: %s\nstderr: %s", args, got, code, Out, Err);
}

static const char Games[] = "[Event \"tuong-match\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
                            "[Variant \"xiangqi\"]\n\n"
                            "1. h2e2 {+20/9 0.51s} h9g7 {-18/9 0.40s} 2. c3c4 {+22/8 0.30s}\n"
                            "i9h9 {-20/9 0.29s} {Black resigns} 1-0\n\n"
                            "[Game \"Chinese Chess\"]\n[Result \"1/2-1/2\"]\n[Format \"ICCS\"]\n"
                            "  1. H2-E2 H9-G7\n  2. C3-C4 B9-C7\n 1/2-1/2\n"
                            "============================\nfooter text after the game\n\n"
                            "[Event \"wxf\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 2. P7+1 R9.8 1-0\n\n"
                            "[Event \"transposition\"]\n[Result \"0-1\"]\n\n"
                            "1. c3c4 h9g7 (1... b9c7 2. b0c2) 2. h2e2 $1 i9h9! ; a comment\n0-1\n\n"
                            "[Event \"unfinished\"]\n[Result \"*\"]\n\n1. c3c4 g6g5 *\n";

static const char *After[] = {
    START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", /* h2e2 */
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b",           /* h2e2 h9g7 c3c4 */
};

/* "move:weight:wins/draws/losses ..." for a position of a book file. */
static const char *listing(const char *book, const char *fen) {
    static char out[1024];
    static Position pos;
    static BookMoves moves;
    char err[600];
    Book *b = book_open(in_dir(book), err, sizeof err);
    if (!b) fail_msg("%s", err);
    must_parse(&pos, fen);
    book_probe(b, &pos, &moves);
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < moves.count; i++) {
        const BookMove *m = &moves.moves[i];
        char text[MOVE_TEXT_MAX];
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s:%u:%u/%u/%u", i ? " " : "", move_to_text(m->move, 0, text),
                              m->weight, m->wins, m->draws, m->losses);
    }
    book_close(b);
    return out;
}

static void test_round_trip(void **state) {
    (void)state;
    write_text("games.pgn", Games);
    expect_run("build -o a.tbk games.pgn", 0);
    assert_non_null(strstr(Out, "from 4 games (5 read, 1 unfinished, 0 skipped)"));
    /* Defaults: win 2, draw 1, loss 0 for the mover. The start position is
     * symmetric: each move counts for its mirror image too. Red's c3c4
     * only lost, so it has weight 0 and is left out. */
    assert_string_equal(listing("a.tbk", After[0]), "b2e2:5:2/1/0 h2e2:5:2/1/0");
    assert_string_equal(listing("a.tbk", After[1]), "h9g7:1:0/1/2");
    /* i9h9: two lost games and the won transposition, one position. */
    assert_string_equal(listing("a.tbk", After[2]), "i9h9:2:1/0/2 b9c7:1:0/1/0");
    /* The tool's own listing. */
    expect_run("probe a.tbk startpos moves h2e2 h9g7 c3c4", 0);
    assert_non_null(strstr(Out, "i9h9 weight 2 wins 1 draws 0 losses 2\nb9c7 weight 1 wins 0 draws 1 losses 0\n"));
    expect_run("probe a.tbk rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", 0);
    assert_non_null(strstr(Out, "h9g7 weight 1"));
}

static void test_build_options(void **state) {
    (void)state;
    write_text("games.pgn", Games);
    expect_run("build --min-games 2 -o b.tbk games.pgn", 0);
    assert_string_equal(listing("b.tbk", After[2]), "i9h9:2:1/0/2");
    expect_run("build --max-ply 2 -o b.tbk games.pgn", 0);
    assert_string_equal(listing("b.tbk", After[1]), "h9g7:1:0/1/2");
    assert_string_equal(listing("b.tbk", After[2]), "");
    expect_run("build --side red -o b.tbk games.pgn", 0);
    assert_string_equal(listing("b.tbk", After[0]), "b2e2:5:2/1/0 h2e2:5:2/1/0");
    assert_string_equal(listing("b.tbk", After[1]), "");
    expect_run("build --side black --win 3 --draw 2 --loss 1 -o b.tbk games.pgn", 0);
    assert_string_equal(listing("b.tbk", After[0]), "");
    assert_string_equal(listing("b.tbk", After[2]), "i9h9:5:1/0/2 b9c7:2:0/1/0");
    expect_run("build --format eleeye --loss 1 -o b.dat games.pgn", 0);
    assert_string_equal(listing("b.dat", After[0]), "b2e2:5:0/0/0 h2e2:5:0/0/0 c3c4:1:0/0/0 g3g4:1:0/0/0");
    unlink(in_dir("b.tbk"));
    unlink(in_dir("b.dat"));
}

/* A game that passes a position twice counts there once. */
static void test_once_per_game(void **state) {
    (void)state;
    write_text("loop.pgn", "[Result \"1/2-1/2\"]\n\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 1/2-1/2\n");
    expect_run("build -o loop.tbk loop.pgn", 0);
    assert_string_equal(listing("loop.tbk", START_FEN), "b0c2:1:0/1/0 h0g2:1:0/1/0");
    unlink(in_dir("loop.pgn"));
    unlink(in_dir("loop.tbk"));
}

/* A game from a FEN tag, Black to move first, as tuong-match writes it. */
static void test_fen_game(void **state) {
    (void)state;
    write_text("fen.pgn", "[Result \"0-1\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - "
                          "- 1 1\"]\n[SetUp \"1\"]\n\n1... h9g7 {+0/5 0.29s} 2. h0g2 {-23/4 0.21s} 0-1\n");
    expect_run("build -o fen.tbk fen.pgn", 0);
    assert_string_equal(listing("fen.tbk", After[1]), "h9g7:2:1/0/0");
    unlink(in_dir("fen.pgn"));
    unlink(in_dir("fen.tbk"));
}

static void test_bad_input(void **state) {
    (void)state;
    write_text("bad.pgn", "[Result \"1-0\"]\n\n1. h2e3 h9g7 1-0\n\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n"
                          "[Result \"0-1\"]\n\n1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 0-1\n");
    expect_run("build -o c.tbk bad.pgn", 1);
    assert_non_null(strstr(Err, "bad.pgn:1: game skipped: move 1 (Red): 'h2e3' is not a legal move"));
    assert_non_null(strstr(Err, "bad.pgn:9: game skipped: move 1 (Red): a move in Chinese or another notation"));
    assert_non_null(strstr(Out, "from 1 games (3 read, 0 unfinished, 2 skipped)")); /* the good game is kept */
    assert_string_equal(listing("c.tbk", START_FEN), "b2e2:2:1/0/0 h2e2:2:1/0/0");
    write_text("empty.pgn", "");
    expect_run("build -o d.tbk empty.pgn", 1);
    assert_non_null(strstr(Err, "no finished game"));
    assert_int_not_equal(access(in_dir("d.tbk"), F_OK), 0);
    expect_run("build -o d.tbk nothing.pgn", 1);
    assert_non_null(strstr(Err, "cannot open 'nothing.pgn'"));
    expect_run("build games.pgn", 2);
    assert_non_null(strstr(Err, "needs -o"));
    expect_run("build --min-games 0 -o d.tbk games.pgn", 2);
    expect_run("build --side white -o d.tbk games.pgn", 2);
    expect_run("frobnicate", 2);
    expect_run("probe bad.pgn", 1);
    assert_int_equal(strncmp(Err, "tuong-book: error: 'bad.pgn'", 28), 0);
    assert_ptr_equal(strchr(Err, '\n'), Err + strlen(Err) - 1); /* one line */
    expect_run("probe a.tbk startpos moves h2e3", 2);
    static const char *const Made[] = {"bad.pgn", "c.tbk", "empty.pgn"};
    for (size_t i = 0; i < sizeof Made / sizeof Made[0]; i++)
        unlink(in_dir(Made[i]));
}

/* One opening in ICCS, WXF and Vietnamese (with an en dash, a full-width
 * digit and C for the pawn): three games of one book; then a Vietnamese
 * game with a move that names no piece, and --notation told. */
static void test_notations(void **state) {
    (void)state;
    write_text("mixed.pgn", "[Result \"0-1\"]\n\n1. h2e2 h9g7 2. h0g2 b9c7 0-1\n\n"
                            "[Result \"0-1\"]\n\n1. C2.5 H8+7 2. H2+3 H2+3 0-1\n\n"
                            "[Result \"0-1\"]\n\n1. P2\xe2\x80\x93"
                            "5 M8.7 2. M2.\xef\xbc\x93 M2.3 3. C7.1 0-1\n\n");
    expect_run("build -o m.tbk mixed.pgn", 0);
    assert_non_null(strstr(Out, "from 3 games (3 read, 0 unfinished, 0 skipped)"));
    assert_string_equal(listing("m.tbk", After[1]), "h9g7:6:3/0/0");
    expect_run("build --notation vn -o m.tbk mixed.pgn", 1);
    assert_non_null(strstr(Err, "mixed.pgn:1: game skipped: move 1 (Red): 'h2e2': unknown piece letter 'h'"));
    assert_non_null(strstr(Err, "mixed.pgn:5: game skipped: move 1 (Red): 'C2.5': Red has no pawn (B)"));
    assert_non_null(strstr(Out, "from 1 games (3 read, 0 unfinished, 2 skipped)"));
    write_text("bad_vn.pgn", "[Result \"0-1\"]\n\n1. P2-5 M8.7 2. X1.1 Xt.1 0-1\n");
    expect_run("build -o m.tbk mixed.pgn bad_vn.pgn", 1);
    assert_non_null(strstr(Err, "bad_vn.pgn:1: game skipped: move 2 (Black): 'Xt.1': Black has no chariot (X)"));
    expect_run("build --notation xyz -o m.tbk mixed.pgn", 2);
    static const char *const Made[] = {"mixed.pgn", "bad_vn.pgn", "m.tbk"};
    for (size_t i = 0; i < sizeof Made / sizeof Made[0]; i++)
        unlink(in_dir(Made[i]));
}

static int setup(void **state) {
    (void)state;
    engine_init();
    return mkdtemp(Dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    static const char *const Made[] = {"games.pgn", "a.tbk", "stdout.txt", "stderr.txt"};
    for (size_t i = 0; i < sizeof Made / sizeof Made[0]; i++)
        unlink(in_dir(Made[i]));
    return rmdir(Dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_build_options), cmocka_unit_test(test_once_per_game),
        cmocka_unit_test(test_fen_game),   cmocka_unit_test(test_bad_input),     cmocka_unit_test(test_notations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
