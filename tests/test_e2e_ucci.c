// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end, UCCI dialect: the built tuong binary on pipes. */
#include "test_support.h"

#include <stdlib.h>

#include "engine_proc.h"

/* Red to move, Red's rooks and king against a lone black king. */
#define MATED_BLACK "4k4/R8/8R/9/9/9/9/9/9/3K5 b"    /* Black must play e9f9 and is mated next move */
#define CHECKMATED "3k5/9/9/9/9/9/9/9/4R4/3RK4 b"    /* Black to move has no legal move */
#define HORSE_VS_ROOK "4k4/9/9/9/5r3/9/9/9/N8/3K5 w" /* Red is worse, little material */

static int T5s;

static void test_handshake_and_options(void **state) {
    (void)state;
    Engine e;
    eng_start(&e);
    eng_send(&e, "ucci");
    eng_expect(&e, "id name Tuong", T5s, NULL, 0);
    static const char *const Wanted[] = {
        "option usemillisec type check", "option batch type check",      "option debug type check",
        "option ponder type check",      "option usebook type check",    "option useegtb type check",
        "option bookfiles type string",  "option egtbpaths type string", "option evalapi type string",
        "option hashsize type spin",     "option threads type spin",     "option newgame type button",
        "option idle type combo",        "option pruning type combo",    "option knowledge type combo",
        "option randomness type combo",  "option style type combo",      "option promotion type check",
        "option moveoverhead type spin min 0 max 5000 default 30",
    };
    bool seen[sizeof Wanted / sizeof Wanted[0]] = {0};
    char line[ENG_LINE];
    for (;;) {
        if (!eng_read_line(&e, line, sizeof line, T5s)) fail_msg("no ucciok");
        if (!strcmp(line, "ucciok")) break;
        for (size_t i = 0; i < sizeof Wanted / sizeof Wanted[0]; i++)
            if (!strncmp(line, Wanted[i], strlen(Wanted[i]))) seen[i] = true;
    }
    for (size_t i = 0; i < sizeof Wanted / sizeof Wanted[0]; i++)
        if (!seen[i]) fail_msg("missing '%s'", Wanted[i]);
    eng_send(&e, "isready");
    eng_expect(&e, "readyok", T5s, NULL, 0);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_go_depth_and_infos(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "position startpos moves h2e2 h9g7");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "info depth 1 score ", T5s, line, sizeof line);
    /* time, nodes and nps on the depth line (GUIs show them with its pv),
     * the pv last; then the spec's own `info time ms nodes n` line. */
    const char *pv = strstr(line, " pv "), *time = strstr(line, " time "), *nodes = strstr(line, " nodes ");
    assert_non_null(pv);
    assert_true(time && time < pv && nodes && nodes < pv && strstr(line, " nps ") < pv);
    long depth_nodes = atol(nodes + 7);
    assert_true(depth_nodes >= 1);
    eng_expect(&e, "info time ", T5s, line, sizeof line);
    nodes = strstr(line, " nodes ");
    assert_non_null(nodes);
    assert_int_equal(atol(nodes + 7), depth_nodes);
    eng_expect(&e, "bestmove ", eng_slow(20000), line, sizeof line);
    assert_int_equal(strlen(line) >= 13, 1);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_depth0_mate_and_idle_stop(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "go depth 0");
    eng_expect(&e, "info depth 0 score ", T5s, NULL, 0);
    eng_expect(&e, "nobestmove", T5s, NULL, 0);
    eng_send(&e, "position fen " CHECKMATED);
    eng_send(&e, "go depth 3");
    eng_expect(&e, "nobestmove", T5s, line, sizeof line);
    eng_settle(&e); /* a stop racing the end of a search is absorbed by it */
    eng_send(&e, "stop");
    eng_expect(&e, "nobestmove", T5s, NULL, 0);
    eng_sync(&e);
    eng_finish(&e);
}

static void test_rejected_position_keeps_old(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE], before[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "position startpos moves h2e2 h9g7");
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, before, sizeof before);
    /* Illegal second move, malformed move, bad FEN: each rejected whole. */
    static const char *const Bad[] = {
        "position startpos moves b0c2 b0c2",
        "position startpos moves h2e2 h9g7 xx11",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w moves e0e1",
        "position",
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        eng_send(&e, "%s", Bad[i]);
        eng_expect(&e, "info message error: ", T5s, line, sizeof line);
        eng_send(&e, "d");
        eng_expect(&e, "Fen: ", T5s, line, sizeof line);
        assert_string_equal(line, before);
    }
    /* perft agrees the old position stands: 2 plies in, 44-ish moves. */
    eng_send(&e, "go perft 1");
    eng_expect(&e, "Nodes searched: ", T5s, line, sizeof line);
    /* go perft on the threads option's threads, the same count. */
    eng_send(&e, "setoption threads 2");
    eng_send(&e, "go perft 3");
    eng_expect(&e, "Nodes searched: ", T5s, line, sizeof line);
    char single[ENG_LINE];
    snprintf(single, sizeof single, "%s", line);
    eng_send(&e, "setoption threads 1");
    eng_send(&e, "go perft 3");
    eng_expect(&e, "Nodes searched: ", T5s, line, sizeof line);
    assert_string_equal(line, single);
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    eng_finish(&e);
}

static void test_banmoves(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    /* Black's only move is e9f9; banning it leaves nothing. */
    eng_send(&e, "position fen " MATED_BLACK);
    eng_send(&e, "banmoves e9f9");
    eng_send(&e, "go depth 2");
    eng_expect(&e, "nobestmove", T5s, NULL, 0);
    /* The next position clears the ban. */
    eng_send(&e, "position fen " MATED_BLACK);
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_true(!strncmp(line, "bestmove e9f9", 13));
    /* From the start: ban everything but one move. */
    eng_send(&e, "position startpos");
    eng_send(&e, "banmoves b2b9 e2e6"); /* harmless: not even legal for e2 */
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_null(strstr(line, "bestmove b2b9"));
    eng_finish(&e);
}

static void test_usemillisec_units(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption debug true");
    eng_send(&e, "go time 3 increment 1 opptime 4");
    eng_expect(&e, "info message debug: ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " time 3000 inc 1000 "));
    assert_non_null(strstr(line, " opptime 4000 "));
    eng_expect(&e, "bestmove ", eng_slow(10000), NULL, 0);
    eng_send(&e, "setoption usemillisec true");
    eng_send(&e, "go time 300 movestogo 5");
    eng_expect(&e, "info message debug: ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " time 300 inc 0 movestogo 5 "));
    eng_expect(&e, "bestmove ", eng_slow(5000), NULL, 0);
    eng_finish(&e);
}

static void test_draw_and_resign_tokens(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    /* An offered draw is accepted when worse with little material. */
    eng_send(&e, "position fen " HORSE_VS_ROOK);
    eng_send(&e, "go draw depth 2");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " draw"));
    /* Mated: accept an offer; otherwise resign only when enabled. */
    eng_send(&e, "position fen " MATED_BLACK);
    eng_send(&e, "go depth 3");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_null(strstr(line, "resign"));
    eng_send(&e, "setoption resign true");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " resign"));
    eng_send(&e, "go draw depth 3");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " draw"));
    /* Not offered, not low material: no token. */
    eng_send(&e, "position startpos");
    eng_send(&e, "go draw depth 2");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_null(strstr(line, "draw"));
    eng_finish(&e);
}

static void test_probe_and_newgame(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "probe startpos");
    eng_expect(&e, "pophash", T5s, NULL, 0);
    eng_send(&e, "probe startpos moves e0e2");
    eng_expect(&e, "info message error: ", T5s, NULL, 0);
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "setoption newgame");
    eng_send(&e, "d");
    char line[ENG_LINE];
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    eng_finish(&e);
}

static void test_absurd_options(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption hashsize 999999999");
    eng_expect(&e, "info message ", T5s, NULL, 0);
    eng_sync(&e);
    eng_send(&e, "setoption threads -4");
    eng_expect(&e, "info message ", T5s, NULL, 0);
    eng_send(&e, "setoption hashsize lots");
    eng_expect(&e, "info message error: ", T5s, NULL, 0);
    eng_send(&e, "setoption style reckless");
    eng_expect(&e, "info message error: ", T5s, NULL, 0);
    /* Unknown options are ignored without a word; the UCI form is accepted. */
    eng_send(&e, "setoption frobnicate 3");
    eng_send(&e, "setoption name hashsize value 16");
    eng_send(&e, "setoption name usemillisec value true");
    eng_send(&e, "setoption debug true");
    eng_send(&e, "go time 500");
    char line[ENG_LINE];
    eng_expect(&e, "info message debug: ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " time 500 "));
    eng_expect(&e, "bestmove", eng_slow(5000), NULL, 0);
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove", eng_slow(5000), NULL, 0);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static int count_until_ready(Engine *e, const char *prefix) { return eng_count_until_ready(e, prefix, T5s); }

/* The overhead `go` runs with, from the debug line. */
static int go_overhead(Engine *e) {
    char line[ENG_LINE];
    eng_send(e, "go depth 1");
    eng_expect(e, "info message debug: ", T5s, line, sizeof line);
    const char *p = strstr(line, " overhead ");
    if (!p) fail_msg("no overhead in '%s'", line);
    eng_expect(e, "bestmove", eng_slow(5000), NULL, 0);
    return atoi(p + strlen(" overhead "));
}

/* moveoverhead (UCI's Move Overhead) is a UCCI option too: set in ms, an
 * absurd value gets one error line and leaves the old value. */
static void test_move_overhead(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption debug true");
    assert_int_equal(go_overhead(&e), 30);
    eng_send(&e, "setoption moveoverhead 250");
    assert_int_equal(count_until_ready(&e, "info message "), 0);
    assert_int_equal(go_overhead(&e), 250);
    eng_send(&e, "setoption moveoverhead 999999");
    assert_int_equal(count_until_ready(&e, "info message error: "), 1);
    assert_int_equal(go_overhead(&e), 250);
    eng_send(&e, "setoption moveoverhead -1");
    assert_int_equal(count_until_ready(&e, "info message error: "), 1);
    eng_send(&e, "setoption moveoverhead soon");
    assert_int_equal(count_until_ready(&e, "info message error: "), 1);
    assert_int_equal(go_overhead(&e), 250);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* A hash the machine cannot give: an error line, the old table kept, the
 * engine still searching. (Not under ASan, which needs the address space.) */
static void test_hash_allocation_failure(void **state) {
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    skip();
#else
    Engine e;
    char line[ENG_LINE];
    eng_start_full(&e, NULL, "ulimit -v 1500000;");
    eng_send(&e, "ucci");
    eng_expect(&e, "ucciok", T5s, NULL, 0);
    eng_send(&e, "setoption hashsize 4096");
    eng_send(&e, "isready");
    for (;;) {
        if (!eng_read_line(&e, line, sizeof line, T5s)) fail_msg("engine died or hung after a failed allocation");
        if (!strcmp(line, "readyok")) break;
        if (strstr(line, "error: ")) assert_non_null(strstr(line, "keeping"));
    }
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
#endif
}

int main(void) {
    T5s = eng_slow(5000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake_and_options),
        cmocka_unit_test(test_go_depth_and_infos),
        cmocka_unit_test(test_depth0_mate_and_idle_stop),
        cmocka_unit_test(test_rejected_position_keeps_old),
        cmocka_unit_test(test_banmoves),
        cmocka_unit_test(test_usemillisec_units),
        cmocka_unit_test(test_draw_and_resign_tokens),
        cmocka_unit_test(test_probe_and_newgame),
        cmocka_unit_test(test_absurd_options),
        cmocka_unit_test(test_move_overhead),
        cmocka_unit_test(test_hash_allocation_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
