// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-pgn convert (bench/pgn): PGN in ICCS, WXF and Vietnamese notation
 * rewritten in each, random games there and back, the notation detected
 * per game or told, and bad input: one error naming the game and move,
 * exit 1, nothing on standard output. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"

#define TOOL TUONG_BUILD_DIR "/tuong-pgn"

static char Dir[] = "/tmp/tuong_test_pgn_tool_XXXXXX";
static char Out[1 << 18], Err[8192];

static const char *in_dir(const char *name) { return test_path_in(Dir, name); }
static void write_text(const char *name, const char *text) { test_write_text(Dir, name, text); }

/* Run tuong-pgn with args (relative file names resolve in Dir); its output lands
 * in Out and Err; returns the exit code. */
static int run(const char *args) { return test_run_tool(Dir, TOOL, args, Out, sizeof Out, Err, sizeof Err); }

static void expect_run(const char *args, int code) {
    int got = run(args);
    if (got != code) fail_msg("tuong-pgn %s: exit %d, not %d\nstdout: %s\nstderr: %s", args, got, code, Out, Err);
}

static void expect_out(const char *needle) {
    if (!strstr(Out, needle)) fail_msg("output lacks '%s':\n%s", needle, Out);
}

/* tuong-match's ICCS with engine comments, a database's ICCS with a
 * Format tag and a variation, WXF, and Vietnamese from a FEN with Black
 * to move (tandem chariots, a full-width digit). */
static const char Games[] =
    "[Event \"match\"]\n[Result \"1-0\"]\n\n1. h2e2 {+20/9 0.51s} h9g7 {-18/9 0.40s} 2. c3c4 $1 i9h9\n"
    "{Black resigns} 1-0\n\n"
    "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Result \"1/2-1/2\"]\n\n 1. H2-E2 H9-G7 (1... B9-C7)\n 2. C3-C4 "
    "B9-C7\n 1/2-1/2\n\n"
    "[Event \"wxf\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 2. P7+1 R9.8 1-0\n\n"
    "[Event \"vn\"]\n[FEN \"r3k4/9/9/9/r8/9/9/9/9/3K5 b - - 0 7\"]\n[Result \"0-1\"]\n\n"
    "7... Xt/1 8. Tg6.1 Xs.\xef\xbc\x91 0-1\n\n";

static void test_convert(void **state) {
    (void)state;
    write_text("games.pgn", Games);
    expect_run("convert --to vn games.pgn", 0);
    expect_out("[Event \"match\"]\n[Result \"1-0\"]\n\n1. P2-5 {+20/9 0.51s} M8.7 {-18/9 0.40s} 2. B7.1 $1 X9-8 "
               "{Black resigns} 1-0\n\n");
    expect_out("[Format \"Vietnamese\"]\n[Result \"1/2-1/2\"]\n\n1. P2-5 M8.7 2. B7.1 M2.3 1/2-1/2\n\n");
    expect_out("[Event \"wxf\"]\n[Result \"1-0\"]\n\n1. P2-5 M8.7 2. B7.1 X9-8 1-0\n\n");
    expect_out("7... Xt/1 8. Tg6.1 Xs.1 0-1\n");
    assert_non_null(strstr(Err, "1 variations or ';' comments left out"));
    expect_run("convert --to wxf games.pgn", 0);
    expect_out("1. C2.5 {+20/9 0.51s} H8+7 {-18/9 0.40s} 2. P7+1 $1 R9.8 {Black resigns} 1-0\n");
    expect_out("7... R+-1 8. K6+1 R-+1 0-1\n");
    expect_run("convert --to iccs games.pgn", 0);
    expect_out("[Format \"ICCS\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 h9g7 2. c3c4 b9c7 1/2-1/2\n\n");
    expect_out("[Event \"wxf\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. c3c4 i9h9 1-0\n\n");
    expect_out("7... a5a6 8. d0d1 a9a8 0-1\n");
    /* a long comment stays whole */
    static char long_game[4096], comment[2100];
    memset(comment, 'x', 2000);
    snprintf(long_game, sizeof long_game, "[Result \"*\"]\n\n1. h2e2 {%s end} h9g7 *\n", comment);
    write_text("long.pgn", long_game);
    expect_run("convert --to vn long.pgn", 0);
    snprintf(long_game, sizeof long_game, "1. P2-5\n{%s end}\nM8.7 *\n", comment);
    expect_out(long_game);
    /* standard input, and --from */
    expect_run("convert --to iccs - < games.pgn", 0);
    expect_out("7... a5a6 8. d0d1 a9a8 0-1\n");
    expect_run("convert --from wxf --to iccs games.pgn", 1);
    assert_non_null(strstr(Err, "games.pgn: game 1 (line 1): move 1 (Red): 'h2e2' is not WXF; nothing written"));
    assert_string_equal(Out, "");
}

static uint64_t Rng = 0x2545F4914F6CDD1Du;

static unsigned rnd(unsigned n) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return (unsigned)(Rng % n);
}

/* Random games as ICCS PGN into buf; returns the text length. */
static size_t random_games(char *buf, size_t cap, int games) {
    static Position pos;
    size_t n = 0;
    for (int g = 0; g < games; g++) {
        must_parse(&pos, START_FEN);
        n += (size_t)snprintf(buf + n, cap - n, "[Round \"%d\"]\n[Result \"*\"]\n\n", g + 1);
        for (int ply = 0; ply < 160; ply++) {
            MoveList legal;
            gen_legal(&pos, &legal);
            if (!legal.count) break;
            Move m = legal.moves[rnd((unsigned)legal.count)];
            char text[MOVE_TEXT_MAX];
            if (ply % 2 == 0) n += (size_t)snprintf(buf + n, cap - n, "%d. ", ply / 2 + 1);
            n += (size_t)snprintf(buf + n, cap - n, "%s ", move_to_text(m, 0, text));
            pos_make_move(&pos, m);
        }
        n += (size_t)snprintf(buf + n, cap - n, "*\n\n");
    }
    return n;
}

/* ICCS -> Vietnamese -> WXF -> ICCS gives the games back. */
static void test_random_games_round_trip(void **state) {
    (void)state;
    static char pgn[1 << 17], iccs[sizeof Out];
    random_games(pgn, sizeof pgn, running_slow() ? 4 : 16);
    write_text("random.pgn", pgn);
    expect_run("convert --to iccs random.pgn", 0);
    snprintf(iccs, sizeof iccs, "%s", Out);
    expect_run("convert --to vn random.pgn", 0);
    write_text("random_vn.pgn", Out);
    expect_run("convert --to wxf random_vn.pgn", 0);
    write_text("random_wxf.pgn", Out);
    expect_run("convert --from wxf --to iccs random_wxf.pgn", 0);
    assert_string_equal(Out, iccs);
    expect_run("convert --from vn --to iccs random_vn.pgn", 0);
    assert_string_equal(Out, iccs);
}

static void test_bad_input(void **state) {
    (void)state;
    /* the second game's Black move names both chariots */
    write_text("bad.pgn", "[Result \"1-0\"]\n\n1. P2-5 M8.7 1-0\n\n"
                          "[FEN \"r3k4/9/9/9/r8/9/9/9/9/3K5 w - - 0 1\"]\n[Result \"*\"]\n\n1. Tg6.1 X1.1 *\n");
    expect_run("convert --to iccs bad.pgn", 1);
    assert_string_equal(Out, "");
    assert_string_equal(Err, "tuong-pgn: error: bad.pgn: game 2 (line 5): move 1 (Black): 'X1.1': ambiguous, 2 legal "
                             "moves of Black fit (name the piece with t/s/g); nothing written\n");
    /* unknown letters, garbage, an illegal move */
    write_text("bad.pgn", "[Result \"*\"]\n\n1. P2-5 Q8.7 *\n");
    expect_run("convert --to wxf bad.pgn", 1);
    assert_non_null(strstr(Err, "game 1 (line 1): move 1 (Black): 'Q8.7' is not a move in ICCS, WXF or Vietnamese"));
    write_text("bad.pgn", "[Result \"*\"]\n\n1. P2-5 M8.7 2. X1.9 *\n");
    expect_run("convert --to wxf bad.pgn", 1);
    assert_non_null(strstr(Err, "game 1 (line 1): move 2 (Red): 'X1.9': illegal move for Red"));
    write_text("bad.pgn", "[Result \"*\"]\n\n1. P2-5 M8.7 2. #$%& *\n");
    expect_run("convert --to wxf bad.pgn", 1);
    assert_non_null(strstr(Err, "move 2 (Red): '#$%&' is not a move in ICCS, WXF or Vietnamese"));
    /* P2.3 is a WXF pawn move and a Vietnamese cannon move here: say which */
    write_text("bad.pgn", "[FEN \"3k5/9/7P1/9/9/9/9/7C1/9/4K4 w - - 0 1\"]\n\n1. P2.3 *\n");
    expect_run("convert --to iccs bad.pgn", 1);
    assert_non_null(strstr(Err, "the moves read both as WXF and as Vietnamese, differently: name the notation"));
    expect_run("convert --from vn --to iccs bad.pgn", 0);
    expect_out("1. h2h5 *");
    expect_run("convert --from wxf --to iccs bad.pgn", 0);
    expect_out("1. h7g7 *");
    /* the command line */
    expect_run("convert bad.pgn", 2);
    expect_run("convert --to xyz bad.pgn", 2);
    expect_run("convert --to vn", 2);
    expect_run("convert --to vn nothing.pgn", 1);
    assert_non_null(strstr(Err, "cannot open 'nothing.pgn'"));
    expect_run("frobnicate", 2);
    expect_run("--help", 0);
    expect_out("usage: tuong-pgn convert --to vn|wxf|iccs");
}

static int setup(void **state) {
    (void)state;
    engine_init();
    return mkdtemp(Dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    static const char *const Made[] = {"games.pgn", "random.pgn", "random_vn.pgn", "random_wxf.pgn",
                                       "bad.pgn",   "long.pgn",   "stdout.txt",    "stderr.txt"};
    for (size_t i = 0; i < sizeof Made / sizeof Made[0]; i++)
        unlink(in_dir(Made[i]));
    return rmdir(Dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_convert),
        cmocka_unit_test(test_random_games_round_trip),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
