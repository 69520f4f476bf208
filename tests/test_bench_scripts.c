// SPDX-License-Identifier: GPL-3.0-or-later
/* The analysis scripts of bench/scripts on inputs whose answers are known:
 * decided_at.awk on a small hand-made PGN (tests/data/scripts/decided.pgn:
 * four games, one without the engine, comments wrapped over lines, Black
 * to move first in one), time_curve.awk on a one-game PGN whose decided
 * moves search deep (tests/data/scripts/curve.pgn: a comment wrapped over
 * two lines, a book move), pgn_positions.awk on the same, depth_at.sh
 * against a scripted fake engine and the real one, levels_fit.awk on a
 * three-level ladder,
 * mates_at.sh against a scripted fake engine and the real one,
 * egtb_convert.sh on KRKA positions with the engine and tables built here
 * (and with the engines loading a directory without them, -p),
 * egtb_suite.sh's refusals of bad arguments (its tables take minutes),
 * egtb_pairs.awk on a hand-made match of the tables against none and its
 * baseline (tests/data/scripts/pairs*.{epd,pgn}: two positions, two pairs),
 * sprt_models.awk on a made-up match log (tests/data/scripts/sprt.log:
 * eight games, four pairs; the figures computed independently in Python),
 * pool_remake.sh on a three-game pool made here by tuong-datagen. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs cmd through the shell; its stdout (and stderr) into out. Returns the exit code. */
static int run(const char *cmd, char *out, size_t outlen) {
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* bench/scripts/SCRIPT.awk with args on tests/data/scripts/PGN (stderr too); its exit code. */
static int awk_on_pgn(const char *script, const char *pgn, const char *args, char *out, size_t outlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "awk -f '%s/bench/scripts/%s.awk' %s '%s/scripts/%s' 2>&1", TUONG_SOURCE_DIR, script,
             args, TUONG_DATA_DIR, pgn);
    return run(cmd, out, outlen);
}

static int decided_at(const char *args, char *out, size_t outlen) {
    return awk_on_pgn("decided_at", "decided.pgn", args, out, outlen);
}

static int time_curve(const char *args, char *out, size_t outlen) {
    return awk_on_pgn("time_curve", "curve.pgn", args, out, outlen);
}

/* levels_fit.awk with level 0 held at 1000 on ladder rows (no single quotes); its exit code. */
static int levels_fit(const char *rows, char *out, size_t outlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "printf '%%s' '%s' | awk -f '%s/bench/scripts/levels_fit.awk' -v anchor=0 -v elo=1000 2>&1", rows,
             TUONG_SOURCE_DIR);
    return run(cmd, out, outlen);
}

static void test_decided_at_finds_the_deciding_moves(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("-v engine=A -v band=5", out, sizeof out), 0);
    /* Game 1: A wins, its score stays >= 150 from its 4th move (the 3rd fell back to 100).
     * Game 2: A loses, <= -150 from its 6th move; it had led by 160 on its 2nd.
     * Game 3: a draw A had led by 200 (Black, A, moves first). Game 4: C vs D, not counted. */
    const char *want = "A: 3 games, 1 wins, 1 draws, 1 losses; decided at a margin of 150\n"
                       "moves       wins losses\n"
                       "1-5            1      0\n"
                       "6-10           0      1\n"
                       "never          0      0\n"
                       "led by 150 and did not win: 1 draws, 1 losses\n";
    assert_string_equal(out, want);
}

/* A larger margin: game 2's lead of 160 no longer counts, and game 1 is decided later. */
static void test_decided_at_margin(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("-v engine=A -v margin=250 -v band=5", out, sizeof out), 0);
    assert_non_null(strstr(out, "1-5            1      0\n")); /* game 1 from its 4th move (+300) */
    assert_non_null(strstr(out, "6-10           0      1\n")); /* game 2 from its 8th (-29990) */
    assert_non_null(strstr(out, "led by 250 and did not win: 0 draws, 0 losses\n"));
}

static void test_decided_at_needs_an_engine(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(decided_at("", out, sizeof out), 2);
    assert_string_equal(out, "decided_at: error: give -v engine=NAME\n");
}

/* B (Red) searches 8, 9, 11, 12 plies; A 10, 12, 30, 40, the last two once
 * the game is decided (+500, mate). B's fourth comment is wrapped over two
 * lines: read line by line it was lost and A's 40 counted as B's. */
static void test_time_curve_bands_and_medians(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(time_curve("-v band=3", out, sizeof out), 0);
    const char *want = "A: first 20 moves of each game: median depth 21, median time 0.20 s (4 moves)\n"
                       "  moves   1-3    mean time 0.30 s  mean depth 17.3  median depth 12  (3 moves)\n"
                       "  moves   4-6    mean time 0.10 s  mean depth 40.0  median depth 40  (1 moves)\n"
                       "B: first 20 moves of each game: median depth 10, median time 0.20 s (4 moves)\n"
                       "  moves   1-3    mean time 0.27 s  mean depth 9.3  median depth 9  (3 moves)\n"
                       "  moves   4-6    mean time 0.10 s  mean depth 12.0  median depth 12  (1 moves)\n";
    assert_string_equal(out, want);
}

/* -v balanced=100 keeps the moves scored within +-100: each side's first two. */
static void test_time_curve_balanced_positions_only(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(time_curve("-v band=3 -v balanced=100", out, sizeof out), 0);
    const char *want = "moves with a score within +-100 only\n"
                       "A: first 20 moves of each game: median depth 11, median time 0.40 s (2 moves)\n"
                       "  moves   1-3    mean time 0.40 s  mean depth 11.0  median depth 11  (2 moves)\n"
                       "B: first 20 moves of each game: median depth 8.5, median time 0.30 s (2 moves)\n"
                       "  moves   1-3    mean time 0.30 s  mean depth 8.5  median depth 8.5  (2 moves)\n";
    assert_string_equal(out, want);
    assert_int_equal(time_curve("-v balanced=wide", out, sizeof out), 2);
    assert_string_equal(out, "time_curve: error: balanced wants a score margin, not 'wide'\n");
}

static int pgn_positions(const char *args, char *out, size_t outlen) {
    return awk_on_pgn("pgn_positions", "curve.pgn", args, out, outlen);
}

/* The game has 9 moves (one from the book): a position after 3 of them, none
 * after 8 (the position must still be played on for two more plies). */
static void test_pgn_positions_cuts_the_games(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(pgn_positions("-v ply=3", out, sizeof out), 0);
    assert_string_equal(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2 h9g7 h0g2\n");
    assert_int_equal(pgn_positions("-v ply=7", out, sizeof out), 0);
    assert_non_null(strstr(out, "|h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6\n"));
    assert_int_equal(pgn_positions("-v ply=8", out, sizeof out), 0);
    assert_string_equal(out, "");
    /* from=1: the positions after 1, 2 and 3 moves, in order. */
    assert_int_equal(pgn_positions("-v from=1 -v ply=3", out, sizeof out), 0);
    assert_string_equal(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2\n"
                             "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2 h9g7\n"
                             "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2 h9g7 h0g2\n");
    assert_int_equal(pgn_positions("-v ply=x", out, sizeof out), 2);
    assert_string_equal(out, "pgn_positions: error: from, ply and count want whole numbers\n");
    assert_int_equal(pgn_positions("-v from=5 -v ply=3", out, sizeof out), 2);
    assert_string_equal(out, "pgn_positions: error: from 5 is past ply 3\n");
}

/* depth_at.sh with args (stderr too), from the source directory; its exit code. */
static int depth_at(const char *args, char *out, size_t outlen) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && bench/scripts/depth_at.sh %s 2>&1", TUONG_SOURCE_DIR, args);
    int rc = run(cmd, out, outlen);
    if (rc != 0 && rc != 2) print_message("%s\n-> %s", cmd, out);
    return rc;
}

/* A fake UCI engine whose exact depth is 6 + the number of `ucinewgame`
 * received; before it, a deeper exact line, after it a deeper bound and a
 * currmove report, neither of which counts. */
#define FAKE_DEPTH_ENGINE                                                                                          \
    "sh -c 'n=0; while read -r c rest; do case $c in uci) echo uciok;; isready) echo readyok;; "                   \
    "ucinewgame) n=$((n+1));; go) echo \"info depth 2 seldepth 2 score cp 1 pv a0a1\"; "                           \
    "echo \"info depth $((n+6)) seldepth 9 score cp 10 pv a0a1\"; "                                                 \
    "echo \"info depth $((n+9)) seldepth 12 score cp 5 lowerbound pv a0a1\"; "                                     \
    "echo \"info depth $((n+8)) currmove a0a1 currmovenumber 1\"; echo \"bestmove a0a1\";; quit) exit 0;; esac; done'"

static void test_depth_at_counts(void **state) {
    (void)state;
    char out[4096], file[256], args[1024];
    snprintf(file, sizeof file, "/tmp/tuong-depth-at-%d.txt", (int)getpid());
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\n"
          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2 h9g7\n",
          f);
    fclose(f);
    /* A new game for each position: depths 7 and 8. */
    snprintf(args, sizeof args, "-v -n 100 -f %s " FAKE_DEPTH_ENGINE, file);
    assert_int_equal(depth_at(args, out, sizeof out), 0);
    assert_string_equal(out, "1 depth 7 seldepth 9\n2 depth 8 seldepth 9\n"
                             "2 positions at 100 nodes: mean depth 7.50, median depth 7.5\n");
    /* -w: one new game at the start, the hash kept: depth 7 twice. */
    snprintf(args, sizeof args, "-w -n 100 -f %s " FAKE_DEPTH_ENGINE, file);
    assert_int_equal(depth_at(args, out, sizeof out), 0);
    assert_string_equal(out, "2 positions at 100 nodes: mean depth 7.00, median depth 7\n");
    /* The engine itself, on both lines (one with moves). */
    snprintf(args, sizeof args, "-n 3000 -f %s -o Threads=1 '%s'", file, TUONG_BINARY);
    assert_int_equal(depth_at(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "2 positions at 3000 nodes: mean depth "));
    assert_null(strstr(out, "mean depth 0.00"));
    /* Bad input: one error line, exit status 2. */
    assert_int_equal(depth_at("-n lots build/tuong", out, sizeof out), 2);
    assert_string_equal(out, "depth_at.sh: error: -n wants a node count, not 'lots'\n");
    assert_int_equal(depth_at("-f /nonexistent.txt build/tuong", out, sizeof out), 2);
    assert_string_equal(out, "depth_at.sh: error: cannot read '/nonexistent.txt'\n");
    snprintf(args, sizeof args, "-f %s /nonexistent/engine", file);
    assert_int_equal(depth_at(args, out, sizeof out), 2);
    assert_string_equal(out, "depth_at.sh: error: no engine '/nonexistent/engine'\n");
    assert_int_equal(depth_at("-f /dev/null " FAKE_DEPTH_ENGINE, out, sizeof out), 2);
    assert_string_equal(out, "depth_at.sh: error: no position in '/dev/null'\n");
    remove(file);
}

/* Three pairings of three levels with equal intervals: the least squares
 * with level 0 held at 1000 has the solution 1110 and 1220 (the steps 100
 * and 100 against 230 for the two together share the 30), each level
 * within 1.96 * sqrt(2/3) * 50 / 1.96 = 41. */
static void test_levels_fit_solves_the_least_squares(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(levels_fit("| 0 vs 1 | 200 | +1 =0 -1 | 100 \302\261 50 | L1 100 |\n"
                                "| 1 vs 2 | 200 | +1 =0 -1 | 100 \302\261 50 | L2 200 |\n"
                                "| 0 vs 2 | 200 | +1 =0 -1 | 230 \302\261 50 | L2 230 |\n",
                                out, sizeof out),
                     0);
    assert_string_equal(out, "0 1000 \302\261 0 (anchor)\n1 1110 \302\261 41\n2 1220 \302\261 41\n");
}

/* A level that no pairing links to the anchor has no Elo: an error, not a guess. */
static void test_levels_fit_refuses_an_unlinked_level(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(levels_fit("| 0 vs 1 | 200 | +1 =0 -1 | 100 \302\261 50 | L1 100 |\n"
                                "| 2 vs 3 | 200 | +1 =0 -1 | 100 \302\261 50 | L3 100 |\n",
                                out, sizeof out),
                     2);
    assert_non_null(strstr(out, "levels_fit: error: level "));
    assert_non_null(strstr(out, " is not linked to the anchor\n"));
}

/* Both models' variance and LLR; the pairs are games 1-2, 3-4, ...; the
 * engine named first in the running score is the one scored. */
static void test_sprt_models_on_a_log(void **state) {
    (void)state;
    char out[4096];
    assert_int_equal(awk_on_pgn("sprt_models", "sprt.log", "", out, sizeof out), 0);
    assert_string_equal(out, "8 games, mean score 0.6250; 4 pairs\n"
                             "variance of the mean: games 0.0215, pairs 0.00391, ratio 0.182\n"
                             "LLR [0, 10]: trinomial 0.08, pentanomial 0.43\n");
    assert_int_equal(awk_on_pgn("sprt_models", "sprt.log", "-v elo0=-5 -v elo1=50", out, sizeof out), 0);
    assert_non_null(strstr(out, "LLR [-5, 50]: trinomial 0.34, pentanomial 1.87\n"));
    assert_int_equal(awk_on_pgn("sprt_models", "decided.pgn", "", out, sizeof out), 1);
    assert_string_equal(out, "sprt_models.awk: no game lines\n");
}

/* mates_at.sh with args (stderr too); its exit code. */
static int mates_at(const char *args, char *out, size_t outlen) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && bench/scripts/mates_at.sh %s 2>&1", TUONG_SOURCE_DIR, args);
    int rc = run(cmd, out, outlen);
    if (rc != 0 && rc != 2) print_message("%s\n-> %s", cmd, out);
    return rc;
}

/* A fake UCI engine in sh: it answers every `go` with the score and move
 * given, whatever the position. */
#define FAKE_ENGINE(score, move)                                                                                   \
    "sh -c 'while read -r c rest; do case $c in uci) echo uciok;; isready) echo readyok;; "                         \
    "go) echo \"info depth 3 score " score " pv " move "\"; echo \"bestmove " move "\";; quit) exit 0;; esac; done'"

static void test_mates_at_counts(void **state) {
    (void)state;
    char out[4096], epd[256], args[1024];
    /* The first three problems of the suite: mates in 3, bm d1d0, g6g9, i1g0. */
    snprintf(epd, sizeof epd, "/tmp/tuong-mates-%d.epd", (int)getpid());
    snprintf(args, sizeof args, "head -n 3 '%s/tactics/mates.epd' > %s", TUONG_DATA_DIR, epd);
    assert_int_equal(system(args), 0);
    /* A mate of the problem's length and the first problem's move. */
    snprintf(args, sizeof args, "-t 10 -f %s " FAKE_ENGINE("mate 3", "d1d0"), epd);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 3 of 3 at 10 ms a move (3 of the problem's length, 1 with its bm)\n");
    /* A longer mate counts as found, not as of the problem's length. */
    snprintf(args, sizeof args, "-t 10 -f %s " FAKE_ENGINE("mate 5", "g6g9"), epd);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 3 of 3 at 10 ms a move (0 of the problem's length, 1 with its bm)\n");
    /* Being mated, or a centipawn score, is not a mate found. */
    snprintf(args, sizeof args, "-t 10 -f %s " FAKE_ENGINE("mate -2", "a0a1"), epd);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 0 of 3 at 10 ms a move (0 of the problem's length, 0 with its bm)\n");
    snprintf(args, sizeof args, "-t 10 -f %s " FAKE_ENGINE("cp 900", "i1g0"), epd);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 0 of 3 at 10 ms a move (0 of the problem's length, 1 with its bm)\n");
    /* The engine itself finds all three (mates in 3 at a second a move). */
    snprintf(args, sizeof args, "-t 1000 -f %s -o Threads=1 '%s'", epd, TUONG_BINARY);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 3 of 3 at 1000 ms a move (3 of the problem's length, 3 with its bm)\n");
    /* -n: `go nodes N` instead of `go movetime`. This fake engine finds the
     * mate only when asked for exactly 500 nodes. */
    snprintf(args, sizeof args,
             "-n 500 -f %s sh -c 'while read -r c rest; do case $c in uci) echo uciok;; isready) echo readyok;; "
             "go) if [ \"$rest\" = \"nodes 500\" ]; then echo \"info score mate 3\"; else echo \"info score cp 1\"; "
             "fi; echo \"bestmove d1d0\";; quit) exit 0;; esac; done'",
             epd);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 3 of 3 at 500 nodes a move (3 of the problem's length, 1 with its bm)\n");
    /* The engine itself at a node budget: mates in 3 at 200,000 nodes. */
    snprintf(args, sizeof args, "-n 200000 -f %s -o Threads=1 '%s'", epd, TUONG_BINARY);
    assert_int_equal(mates_at(args, out, sizeof out), 0);
    assert_string_equal(out, "found 3 of 3 at 200000 nodes a move (3 of the problem's length, 3 with its bm)\n");
    /* Bad input: one error line, exit status 2. */
    static const struct {
        const char *args, *error;
    } refused[] = {
        {"-n 0 build/tuong", "error: -n wants a node count"},
        {"-n 12x build/tuong", "error: -n wants a node count"},
        {"-t 50 -n 500 build/tuong", "error: -t and -n exclude each other"},
        {"-t abc build/tuong", "error: -t wants milliseconds"},
        {"-f /nonexistent.epd build/tuong", "error: cannot read"},
        {"/nonexistent/engine", "error: no engine"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(mates_at(refused[i].args, out, sizeof out), 2);
        assert_non_null(strstr(out, refused[i].error));
    }
    remove(epd);
}

/* egtb_convert.sh with args (stderr too), from the source directory; its exit code. */
static int egtb_convert(const char *args, char *out, size_t outlen) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && bench/scripts/egtb_convert.sh %s 2>&1", TUONG_SOURCE_DIR, args);
    int rc = run(cmd, out, outlen);
    if (rc != 0 && rc != 2) print_message("%s\n-> %s", cmd, out);
    return rc;
}

/* Two won KRKA positions and one drawn, each played twice with the tables
 * and twice without, at one node a move: with the tables every won game is
 * converted (the chariot's side wins: the root moves are ranked by DTC,
 * however small the search) and the drawn ones are kept. Without them the
 * one-node searches convert none of these. Then drawn KNKA positions with
 * the horse to move (-m strong). */
static void test_egtb_convert_counts(void **state) {
    (void)state;
    char dir[64], out[4096], args[1024], cmd[1024];
    snprintf(dir, sizeof dir, "/tmp/tuong-egtb-convert-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "'%s/tuong-egtb' build --out %s/tb KRKA >/dev/null", TUONG_BUILD_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "-w 2 -d 1 -n 1 -o %s/out '%s' %s/tb KRKA", dir, TUONG_BINARY, dir);
    assert_int_equal(egtb_convert(args, out, sizeof out), 0);
    assert_memory_equal(out, "table    tables     converted  mean plies  draws kept  over DTM\n", 63);
    assert_non_null(strstr(out, "\nKRKA     on          4 / 4 "));
    /* the drawn ones kept; no DTM file, so no count over DTM */
    assert_non_null(strstr(out, "     2 / 2            -\nKRKA     off         "));
    snprintf(cmd, sizeof cmd, "test $(wc -l < %s/out/games.tsv) -eq 12 && test $(grep -c '^on\tKRKA\twin\tw\t1-0\t' %s/out/games.tsv) -eq 4",
             dir, dir);
    assert_int_equal(system(cmd), 0);
    /* The same positions with the engines loading a directory without
     * KRKA's table (-p): nothing ranks the root, so "on" converts as few as
     * "off" (none at one node). */
    snprintf(cmd, sizeof cmd, "mkdir %s/none", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "-w 2 -d 1 -n 1 -p %s/none -o %s/away '%s' %s/tb KRKA", dir, dir, TUONG_BINARY, dir);
    assert_int_equal(egtb_convert(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nKRKA     on          0 / 4 "));
    /* With DTM files (build --dtm) the won games are also held to their
     * positions' DTM: at one node the root ranks by DTM, so none lasts
     * longer; games.tsv's last column is each start's DTM. */
    snprintf(cmd, sizeof cmd, "'%s/tuong-egtb' build --dtm --out %s/dtm KRKA >/dev/null", TUONG_BUILD_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "-w 3 -d 0 -n 1 -o %s/dtmout '%s' %s/dtm KRKA", dir, TUONG_BINARY, dir);
    assert_int_equal(egtb_convert(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nKRKA     on          6 / 6 "));
    assert_non_null(strstr(out, "     0 / 0            0\nKRKA     off  "));
    snprintf(cmd, sizeof cmd, "test $(awk -F'\t' '$1 == \"on\" && $8 ~ /^[0-9]+$/ && $6 + 0 <= $8 + 0' %s/dtmout/games.tsv | wc -l) -eq 6",
             dir);
    assert_int_equal(system(cmd), 0);
    /* Drawn KNKA positions with the horse to move: the tables keep the draw. */
    snprintf(cmd, sizeof cmd, "'%s/tuong-egtb' build --out %s/tb KNKA >/dev/null", TUONG_BUILD_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "-w 0 -d 2 -m strong -n 1 -o %s/draws '%s' %s/tb KNKA", dir, TUONG_BINARY, dir);
    assert_int_equal(egtb_convert(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nKNKA     on          0 / 0              -     4 / 4            -\n"));
    snprintf(cmd, sizeof cmd, "test $(grep -c '^on\tKNKA\tdraw\tw\t' %s/draws/games.tsv) -eq 4", dir);
    assert_int_equal(system(cmd), 0);
    /* Bad input: one error line, exit status 2. */
    assert_int_equal(egtb_convert("-m red build/tuong /tmp KRKA", out, sizeof out), 2);
    assert_string_equal(out, "egtb_convert.sh: error: -m wants strong, weak or any, not 'red'\n");
    assert_int_equal(egtb_convert("-n lots build/tuong /tmp KRKA", out, sizeof out), 2);
    assert_string_equal(out, "egtb_convert.sh: error: nodes wants a number, not 'lots'\n");
    assert_int_equal(egtb_convert("/nonexistent/tuong /tmp KRKA", out, sizeof out), 2);
    assert_string_equal(out, "egtb_convert.sh: error: no engine '/nonexistent/tuong'\n");
    snprintf(args, sizeof args, "'%s' /nonexistent-tables KRKA", TUONG_BINARY);
    assert_int_equal(egtb_convert(args, out, sizeof out), 2);
    assert_string_equal(out, "egtb_convert.sh: error: no table directory '/nonexistent-tables'\n");
    snprintf(args, sizeof args, "-p /nonexistent-tables '%s' /tmp KRKA", TUONG_BINARY);
    assert_int_equal(egtb_convert(args, out, sizeof out), 2);
    assert_string_equal(out, "egtb_convert.sh: error: no table directory '/nonexistent-tables'\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* egtb_suite.sh with args (stderr too), from the source directory; its exit code. */
static int egtb_suite(const char *args, char *out, size_t outlen) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && bench/scripts/egtb_suite.sh %s 2>&1", TUONG_SOURCE_DIR, args);
    return run(cmd, out, outlen);
}

/* Bad input: one error line (or the usage), exit status 2, nothing built. */
static void test_egtb_suite_refuses_bad_arguments(void **state) {
    (void)state;
    char out[4096], args[1024];
    snprintf(args, sizeof args, "-s abc '%s' /tmp/tuong-suite-tb /tmp/suite.epd", TUONG_BINARY);
    assert_int_equal(egtb_suite(args, out, sizeof out), 2);
    assert_string_equal(out, "egtb_suite.sh: error: seed wants a number, not 'abc'\n");
    snprintf(args, sizeof args, "-t 0 '%s' /tmp/tuong-suite-tb /tmp/suite.epd", TUONG_BINARY);
    assert_int_equal(egtb_suite(args, out, sizeof out), 2);
    assert_string_equal(out, "egtb_suite.sh: error: threads wants at least 1\n");
    assert_int_equal(egtb_suite("/nonexistent/tuong /tmp/tuong-suite-tb /tmp/suite.epd", out, sizeof out), 2);
    assert_string_equal(out, "egtb_suite.sh: error: no engine '/nonexistent/tuong'\n");
    snprintf(args, sizeof args, "'%s' '%s' /tmp/suite.epd", TUONG_BINARY, TUONG_BINARY);
    assert_int_equal(egtb_suite(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "egtb_suite.sh: error: '"));
    assert_non_null(strstr(out, "' is not a directory\n"));
    snprintf(args, sizeof args, "'%s' /tmp/tuong-suite-tb /nonexistent/suite.epd", TUONG_BINARY);
    assert_int_equal(egtb_suite(args, out, sizeof out), 2);
    assert_string_equal(out, "egtb_suite.sh: error: no directory for '/nonexistent/suite.epd'\n");
    snprintf(args, sizeof args, "'%s' /tmp/tuong-suite-tb", TUONG_BINARY);
    assert_int_equal(egtb_suite(args, out, sizeof out), 2);
    assert_non_null(strstr(out, "bench/scripts/egtb_suite.sh [-s SEED]"));
    assert_int_equal(access("/tmp/tuong-suite-tb", F_OK), -1);
}

/* Two positions: the drawn KRKAABB one where the tables, as the attacker,
 * only drew the baseline's win (changed against them) and as the defender
 * lost (a pair of 1/2 for the tables); the KRKN one won by Red in both
 * games, so an even pair, where the baseline drew (changed once for them,
 * as Red, and once against, as Black). Without the baseline, no changes. */
static void test_egtb_pairs_counts(void **state) {
    (void)state;
    char cmd[2048], out[4096];
    const char *head = "group            games    W    D    L pairs+ pairs= pairs-   vs base changed+ changed-\n";
    snprintf(cmd, sizeof cmd,
             "awk -f '%s/bench/scripts/egtb_pairs.awk' '%s/scripts/pairs.epd' base=1 '%s/scripts/pairs-base.pgn' "
             "base=0 '%s/scripts/pairs.pgn' 2>&1",
             TUONG_SOURCE_DIR, TUONG_DATA_DIR, TUONG_DATA_DIR, TUONG_DATA_DIR);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    char want[1024];
    snprintf(want, sizeof want, "%s%s%s%s", head,
             "KRKAABB draw         2    0    1    1      0      0      1         2        0        1\n",
             "KRKN win             2    1    0    1      0      1      0         2        1        1\n",
             "all                  4    1    1    2      0      1      1         4        1        2\n");
    assert_string_equal(out, want);
    snprintf(cmd, sizeof cmd, "awk -f '%s/bench/scripts/egtb_pairs.awk' '%s/scripts/pairs.epd' base=0 '%s/scripts/pairs.pgn' 2>&1",
             TUONG_SOURCE_DIR, TUONG_DATA_DIR, TUONG_DATA_DIR);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nall                  4    1    1    2      0      1      1         0        0        0\n"));
}

/* pool_remake.sh with args in the source directory (stderr too); its exit code. */
static int pool_remake(const char *args, char *out, size_t outlen) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && bench/scripts/pool_remake.sh %s 2>&1", TUONG_SOURCE_DIR, args);
    int rc = run(cmd, out, outlen);
    if (rc != 0 && rc != 1 && rc != 2) print_message("%s\n-> %s", cmd, out);
    return rc;
}

/* The manifest line of FILE in the pool DIR, without its created/updated columns. */
static void manifest_line(const char *dir, const char *file, char *out, size_t outlen) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "awk -F'\t' -v OFS='\t' '$1 == \"%s\" { NF = 12; print }' '%s/manifest.tsv'", file, dir);
    assert_int_equal(run(cmd, out, outlen), 0);
    assert_true(strlen(out) > 0);
}

/* A three-game pool run by tuong-datagen, its manifest as the committed
 * copy: the script remakes the file byte for byte in a new pool, with the
 * book in the pool's openings directory (no git needed); a manifest whose
 * sha256 differs fails; -r goes on in the background (here to game 4); bad
 * lines and arguments are refused with one error line. */
static void test_pool_remake(void **state) {
    (void)state;
    char dir[64], cmd[4096], out[8192], args[2048], want[1024], got[1024];
    snprintf(dir, sizeof dir, "/tmp/tuong-pool-remake-XXXXXX");
    assert_non_null(mkdtemp(dir));
    const char *file = "run-s7-n300.bin";
    snprintf(cmd, sizeof cmd,
             "'%s' pool run --pool %s/src --seed 7 --nodes 300 --games 3 --threads 1 --progress 0 "
             "--openings '%s/openings/xiangqi.epd' 2>&1 && mkdir -p %s/new/openings %s/bad/openings && "
             "cp '%s/openings/xiangqi.epd' %s/new/openings/ && cp '%s/openings/xiangqi.epd' %s/bad/openings/",
             TUONG_DATAGEN, dir, TUONG_DATA_DIR, dir, dir, TUONG_DATA_DIR, dir, TUONG_DATA_DIR, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    char srcdir[128], newdir[128];
    snprintf(srcdir, sizeof srcdir, "%s/src", dir);
    snprintf(newdir, sizeof newdir, "%s/new/data", dir);
    manifest_line(srcdir, file, want, sizeof want);

    snprintf(args, sizeof args, "-m %s/src/manifest.tsv -p %s/new/data -d '%s' -t 1 %s", dir, dir, TUONG_DATAGEN, file);
    assert_int_equal(pool_remake(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "remade run-s7-n300.bin: "));
    assert_non_null(strstr(out, " games, sha256 "));
    assert_non_null(strstr(out, ": same as the manifest\n"));
    snprintf(cmd, sizeof cmd, "cmp %s/src/%s %s/new/data/%s", dir, file, dir, file);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    manifest_line(newdir, file, got, sizeof got);
    assert_string_equal(got, want);

    /* The same games against a line whose sha256 is another: refused. */
    snprintf(cmd, sizeof cmd,
             "awk -F'\t' -v OFS='\t' '$1 == \"%s\" { $6 = \"%064d\" } 1' %s/src/manifest.tsv > %s/badsha.tsv", file, 0,
             dir, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    snprintf(args, sizeof args, "-m %s/badsha.tsv -p %s/bad/data -d '%s' -t 1 %s", dir, dir, TUONG_DATAGEN, file);
    assert_int_equal(pool_remake(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "pool_remake.sh: error: run-s7-n300.bin differs from the line"));

    /* -r: on in the background, here to game 4 (a flag after --), nice 19 only. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && pid=$(bench/scripts/pool_remake.sh -m %s/src/manifest.tsv -p %s/new/data -d '%s' -t 1 -r -N "
             "%s -- --games 4 | sed -n 's/.*process \\([0-9]*\\),.*/\\1/p') && [ -n \"$pid\" ] && "
             "while kill -0 $pid 2>/dev/null; do sleep 0.1; done && "
             "awk -F'\t' '$1 == \"%s\" { print $4 }' %s/new/data/manifest.tsv && grep -c 'pool run' "
             "%s/new/data/run-s7-n300.log",
             TUONG_SOURCE_DIR, dir, dir, TUONG_DATAGEN, file, file, dir, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    assert_string_equal(out, "4\n1\n");

    /* Bad lines and arguments: one error line, exit status 1 (2 for usage). */
    snprintf(cmd, sizeof cmd,
             "awk -F'\t' -v OFS='\t' '$1 == \"%s\" { print; $1 = \"rescored.bin\"; $2 = \"rescore\"; print; "
             "$1 = \"odd.bin\"; $2 = \"selfplay\"; $11 = $11 \",tempo=3\"; print; $1 = \"book.bin\"; "
             "$11 = \"hard=1200,openings=xiangqi.epd@deadbeef\"; print; next } 1' %s/src/manifest.tsv > %s/lines.tsv",
             file, dir, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    static const struct {
        const char *file, *error;
        int status;
    } refused[] = {
        {"missing.bin", "error: missing.bin is not in ", 1},
        {"rescored.bin", "error: rescored.bin is a rescore line", 1},
        {"odd.bin", "error: unknown setting 'tempo'", 1},
        {"book.bin", "does not have the sha256 deadbeef", 1},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(args, sizeof args, "-m %s/lines.tsv -p %s/bad/data -d '%s' -t 1 %s", dir, dir, TUONG_DATAGEN,
                 refused[i].file);
        assert_int_equal(pool_remake(args, out, sizeof out), refused[i].status);
        assert_non_null(strstr(out, refused[i].error));
    }
    /* Without -d the binary is built at the line's commit: not one git knows. */
    snprintf(cmd, sizeof cmd,
             "awk -F'\t' -v OFS='\t' '$1 == \"%s\" { $7 = \"0123abc-dirty\" } 1' %s/src/manifest.tsv > %s/dirty.tsv",
             file, dir, dir);
    assert_int_equal(run(cmd, out, sizeof out), 0);
    snprintf(args, sizeof args, "-m %s/dirty.tsv -p %s/bad/data -t 1 %s", dir, dir, file);
    assert_int_equal(pool_remake(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "error: run-s7-n300.bin's commit '0123abc-dirty' is not a git commit"));
    snprintf(args, sizeof args, "-m %s/lines.tsv -t 0 %s", dir, file);
    assert_int_equal(pool_remake(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "error: -t wants a number of worker processes"));
    snprintf(args, sizeof args, "-m %s/nonexistent.tsv %s", dir, file);
    assert_int_equal(pool_remake(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "error: cannot read the manifest"));
    assert_int_equal(pool_remake("", out, sizeof out), 2);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decided_at_finds_the_deciding_moves),
        cmocka_unit_test(test_decided_at_margin),
        cmocka_unit_test(test_decided_at_needs_an_engine),
        cmocka_unit_test(test_time_curve_bands_and_medians),
        cmocka_unit_test(test_time_curve_balanced_positions_only),
        cmocka_unit_test(test_pgn_positions_cuts_the_games),
        cmocka_unit_test(test_depth_at_counts),
        cmocka_unit_test(test_levels_fit_solves_the_least_squares),
        cmocka_unit_test(test_levels_fit_refuses_an_unlinked_level),
        cmocka_unit_test(test_mates_at_counts),
        cmocka_unit_test(test_egtb_convert_counts),
        cmocka_unit_test(test_egtb_suite_refuses_bad_arguments),
        cmocka_unit_test(test_egtb_pairs_counts),
        cmocka_unit_test(test_sprt_models_on_a_log),
        cmocka_unit_test(test_pool_remake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
