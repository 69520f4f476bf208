// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end, UCI xiangqi dialect: the built tuong binary on pipes. */
#include "test_support.h"

#include "engine_proc.h"

#define CHECKMATED "3k5/9/9/9/9/9/9/9/4R4/3RK4 b" /* Black to move has no legal move */

static int T5s;

static void test_handshake(void **state) {
    (void)state;
    Engine e;
    eng_start(&e);
    eng_send(&e, "uci");
    eng_expect(&e, "id name Tuong", T5s, NULL, 0);
    eng_expect(&e, "id author ", T5s, NULL, 0);
    static const char *const Wanted[] = {
        "option name Hash type spin",
        "option name Threads type spin",
        "option name Ponder type check",
        "option name MultiPV type spin",
        "option name Clear Hash type button",
        "option name Move Overhead type spin",
        "option name UCI_Variant type combo var xiangqi default xiangqi",
    };
    bool seen[sizeof Wanted / sizeof Wanted[0]] = {0};
    char line[ENG_LINE];
    for (;;) {
        if (!eng_read_line(&e, line, sizeof line, T5s)) fail_msg("no uciok");
        if (!strcmp(line, "uciok")) break;
        for (size_t i = 0; i < sizeof Wanted / sizeof Wanted[0]; i++)
            if (!strncmp(line, Wanted[i], strlen(Wanted[i]))) seen[i] = true;
    }
    for (size_t i = 0; i < sizeof Wanted / sizeof Wanted[0]; i++)
        if (!seen[i]) fail_msg("missing '%s'", Wanted[i]);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_go_depth_info_fields(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Hash value 16");
    eng_send(&e, "ucinewgame");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "info depth 3 ", eng_slow(20000), line, sizeof line);
    static const char *const Fields[] = {" seldepth ", " multipv 1 ", " score ", " nodes ",
                                         " nps ",      " hashfull ",  " time ",  " pv "};
    for (size_t i = 0; i < sizeof Fields / sizeof Fields[0]; i++)
        if (!strstr(line, Fields[i])) fail_msg("'%s' lacks '%s'", line, Fields[i]);
    assert_true(strstr(line, " score cp ") || strstr(line, " score mate "));
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_clock_and_searchmoves(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position startpos");
    eng_send(&e, "go wtime 2000 btime 2000 winc 10 binc 10");
    eng_expect(&e, "bestmove ", eng_slow(5000), NULL, 0);
    eng_send(&e, "go movetime 200");
    eng_expect(&e, "bestmove ", eng_slow(5000), NULL, 0);
    eng_send(&e, "go nodes 5000");
    eng_expect(&e, "bestmove ", eng_slow(10000), NULL, 0);
    eng_send(&e, "go depth 3 searchmoves a3a4");
    eng_expect(&e, "bestmove ", eng_slow(20000), line, sizeof line);
    assert_true(!strncmp(line, "bestmove a3a4", 13));
    eng_send(&e, "go depth 2 searchmoves e0e2");
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "go mate 2 movetime 300");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_finish(&e);
}

static void test_no_legal_move(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position fen " CHECKMATED);
    eng_send(&e, "go depth 4");
    eng_expect(&e, "info depth 0 score mate 0", T5s, NULL, 0);
    eng_expect(&e, "bestmove (none)", T5s, NULL, 0);
    eng_finish(&e);
}

/* Red has checked with every move since the game history began; h9h8 checks
 * once more and repeats the position after Red's second move: Red loses at
 * the first ply. That prints as `mate -1` (it printed `mate 0` once). */
static void test_repetition_loss_prints_mate_minus_one(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position fen 4k4/7R1/9/9/9/9/9/9/9/3K5 w - - 0 1 moves h8h9 e9e8 h9h8 e8e9 h8h9 e9e8");
    eng_send(&e, "go depth 4 searchmoves h9h8");
    int infos = 0;
    for (;;) {
        if (!eng_read_line(&e, line, sizeof line, eng_slow(20000))) {
            eng_dump(&e);
            fail_msg("no bestmove");
        }
        if (!strncmp(line, "bestmove ", 9)) break;
        if (strncmp(line, "info depth ", 11) || !strstr(line, " score ")) continue;
        infos++;
        if (!strstr(line, " score mate -1 ")) fail_msg("'%s': want score mate -1", line);
    }
    assert_int_equal(infos, 4);
    assert_string_equal(line, "bestmove h9h8");
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The last info line's score before bestmove; the bestmove line in `best`. */
static void search_score(Engine *e, char *score, size_t size, char *best, size_t best_size) {
    char line[ENG_LINE];
    score[0] = '\0';
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        if (!strncmp(line, "bestmove ", 9)) break;
        const char *s = strstr(line, " score ");
        if (!strncmp(line, "info depth ", 11) && s) {
            int n = 0;
            sscanf(s + 1, "score %*s %*d%n", &n); /* "score cp 12" / "score mate -1" */
            snprintf(score, size, "%.*s", n, s + 1);
        }
    }
    snprintf(best, best_size, "%s", line);
}

/* Repetition judged from the moves of `position ... moves`: the cannon chase
 * of test_search (Red shoots at Black's lone, unprotected chariot from e2 and
 * g2). Given as history, g2e2 completes Red's perpetual chase and loses at
 * once; the same board without the history makes g2e2 an ordinary move. */
static void test_position_moves_count_for_perpetual_chase(void **state) {
    (void)state;
    Engine e;
    char score[64], best[ENG_LINE];
    static const char Fen[] = "5k3/9/9/4r4/9/4P1P2/9/6C2/9/3K5 w - - 0 1";
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position fen %s moves g2e2 e6g6 e2g2 g6e6", Fen);
    eng_send(&e, "go depth 6 searchmoves g2e2");
    search_score(&e, score, sizeof score, best, sizeof best);
    assert_string_equal(score, "score mate -1");
    eng_send(&e, "go depth 6");
    search_score(&e, score, sizeof score, best, sizeof best);
    if (!strncmp(best, "bestmove g2e2", 13) || strncmp(score, "score cp ", 9))
        fail_msg("chose '%s' with '%s': want another move, not lost", best, score);
    /* Without the history g2e2 repeats nothing (yet). */
    eng_send(&e, "position fen %s", Fen);
    eng_send(&e, "go depth 6 searchmoves g2e2");
    search_score(&e, score, sizeof score, best, sizeof best);
    if (strncmp(score, "score cp ", 9)) fail_msg("g2e2 without history: '%s', want a cp score", score);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_fairy_notation(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    /* UCI_Variant alone keeps ICCS ranks (uci2wb sets it and sends 0..9). */
    eng_send(&e, "setoption name UCI_Variant value xiangqi");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "go perft 1");
    eng_expect(&e, "a9a8: 1", T5s, NULL, 0);
    eng_sync(&e);
    /* Notation fairy: ranks 1..10 in and out. */
    eng_send(&e, "setoption name Notation value fairy");
    eng_send(&e, "position startpos moves h3e3 h10g8");
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    eng_send(&e, "go perft 1");
    eng_expect(&e, "a1a2: 1", T5s, NULL, 0);
    eng_sync(&e);
    eng_send(&e, "go depth 2 searchmoves a4a5");
    eng_expect(&e, "bestmove a4a5", eng_slow(20000), NULL, 0);
    /* ICCS ranks can be forced back. */
    eng_send(&e, "setoption name Notation value iccs");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "go perft 1");
    eng_expect(&e, "a9a8: 1", T5s, NULL, 0);
    eng_send(&e, "setoption name UCI_Variant value shogi");
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_finish(&e);
}

static void test_absurd_options_uci(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Hash value 999999999");
    eng_expect(&e, "info string ", T5s, NULL, 0);
    eng_sync(&e);
    eng_send(&e, "setoption name Threads value -3");
    eng_expect(&e, "info string ", T5s, NULL, 0);
    eng_send(&e, "setoption name Threads value many");
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_send(&e, "setoption name Ponder value maybe");
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_send(&e, "setoption name NoSuchOption value 1");
    eng_expect(&e, "info string ", T5s, NULL, 0);
    eng_send(&e, "setoption name Clear Hash");
    eng_send(&e, "setoption name MultiPV value 0");
    eng_expect(&e, "info string ", T5s, NULL, 0);
    eng_send(&e, "setoption name Hash value 8");
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_extras(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "setoption name Clear Hash"); /* clears the table, keeps the position */
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    eng_send(&e, "position startpos");
    eng_send(&e, "go perft 2");
    eng_expect(&e, "Nodes searched: 1920", T5s, NULL, 0);
    eng_send(&e, "perft 1");
    eng_expect(&e, "Nodes searched: 44", T5s, NULL, 0);
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    eng_expect(&e, "Key: ", T5s, NULL, 0);
    eng_expect(&e, "Checkers:", T5s, NULL, 0);
    eng_send(&e, "eval");
    eng_expect(&e, "info string ", T5s, NULL, 0);
    eng_sync(&e);
    eng_send(&e, "help");
    eng_expect(&e, "Tuong speaks", T5s, NULL, 0);
    eng_send(&e, "bench 2");
    eng_expect(&e, "Nodes searched: ", eng_slow(60000), NULL, 0);
    eng_expect(&e, "Nodes/second: ", T5s, NULL, 0);
    eng_sync(&e);
    eng_finish(&e);
}

int main(void) {
    T5s = eng_slow(5000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_go_depth_info_fields),
        cmocka_unit_test(test_clock_and_searchmoves),
        cmocka_unit_test(test_no_legal_move),
        cmocka_unit_test(test_repetition_loss_prints_mate_minus_one),
        cmocka_unit_test(test_position_moves_count_for_perpetual_chase),
        cmocka_unit_test(test_fairy_notation),
        cmocka_unit_test(test_absurd_options_uci),
        cmocka_unit_test(test_extras),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
