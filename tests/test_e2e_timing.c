// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end: the threaded driver. Stop latency, answers while thinking,
 * ponder, queued commands, batch mode, quit and end of input. Bounds are
 * generous (a loaded two-core machine, sanitizer builds) yet each would
 * catch a blocked reader or a search that ignores stop. */
#include "test_support.h"

#include "engine_proc.h"

#include <stdlib.h>

#define HORSE_VS_ROOK "4k4/9/9/9/5r3/9/9/9/N8/3K5 w" /* Red is worse, little material */

static int T5s;

/* Time from `stop` to bestmove in an infinite search, in ms. */
static int64_t stop_latency(Engine *e, const char *bestmove_prefix) {
    eng_send(e, "position startpos");
    eng_send(e, "go infinite");
    eng_sleep_ms(300);
    eng_send(e, "stop");
    int64_t t0 = child_now_ms();
    eng_expect(e, bestmove_prefix, T5s, NULL, 0);
    return child_now_ms() - t0;
}

static void test_stop_latency(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    int64_t uci = stop_latency(&e, "bestmove ");
    eng_finish(&e);
    eng_start_dialect(&e, "ucci");
    int64_t ucci = stop_latency(&e, "bestmove ");
    eng_finish(&e);
    print_message("stop latency: uci %lld ms, ucci %lld ms\n", (long long)uci, (long long)ucci);
    /* The goal is 50 ms; the UCCI referee forfeits after 200 ms. */
    assert_true(uci < eng_slow(200));
    assert_true(ucci < eng_slow(200));
}

static void test_isready_and_probe_while_thinking(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "position startpos");
    eng_send(&e, "go infinite");
    eng_sleep_ms(100);
    int64_t t0 = child_now_ms();
    eng_send(&e, "isready");
    assert_false(eng_seen_before(&e, "bestmove", "readyok", T5s));
    assert_true(child_now_ms() - t0 < eng_slow(500));
    eng_send(&e, "probe startpos");
    assert_false(eng_seen_before(&e, "bestmove", "pophash", T5s));
    eng_send(&e, "stop");
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_finish(&e);
}

static void test_ponder_waits_for_ponderhit(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Ponder value true");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "go ponder movetime 400");
    /* Pondering: no answer, however long, and the clock does not run. */
    eng_expect_none(&e, "bestmove", 900);
    eng_send(&e, "ponderhit");
    int64_t t0 = child_now_ms();
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    int64_t used = child_now_ms() - t0;
    print_message("searched %lld ms after ponderhit (movetime 400)\n", (long long)used);
    assert_true(used >= 200);
    /* stop also ends a ponder search. */
    eng_send(&e, "go ponder movetime 400");
    eng_expect_none(&e, "bestmove", 600);
    eng_send(&e, "stop");
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_finish(&e);
}

static void test_ponderhit_draw(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "position fen " HORSE_VS_ROOK);
    eng_send(&e, "go ponder depth 3");
    eng_expect_none(&e, "bestmove", 300);
    eng_send(&e, "ponderhit draw");
    eng_expect(&e, "bestmove ", T5s, line, sizeof line);
    assert_non_null(strstr(line, " draw"));
    eng_finish(&e);
}

static void test_commands_queued_until_bestmove(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position startpos");
    eng_send(&e, "go infinite");
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "d");
    eng_send(&e, "go depth 1");
    eng_expect_none(&e, "Fen:", 300);
    eng_send(&e, "stop");
    /* First the answer to the running search, then the held commands in order. */
    assert_false(eng_seen_before(&e, "Fen:", "bestmove ", T5s));
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    eng_expect(&e, "bestmove ", eng_slow(20000), line, sizeof line);
    assert_non_null(line);
    eng_sync(&e);
    eng_finish(&e);
}

static void test_batch_mode(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    /* Normally isready is answered during the search ... */
    eng_send(&e, "go movetime 600");
    eng_sleep_ms(50);
    eng_send(&e, "isready");
    assert_false(eng_seen_before(&e, "bestmove", "readyok", T5s));
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    /* ... in batch mode nothing is read until bestmove. */
    eng_send(&e, "setoption batch true");
    eng_send(&e, "go movetime 600");
    eng_send(&e, "isready");
    assert_false(eng_seen_before(&e, "readyok", "bestmove", T5s));
    eng_expect(&e, "readyok", T5s, NULL, 0);
    eng_finish(&e);
}

static void test_late_stop_is_absorbed(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    /* A stop that crosses the search's own bestmove gets no second answer. */
    eng_send(&e, "go depth 1");
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_send(&e, "stop");
    eng_send(&e, "d");
    assert_false(eng_seen_before(&e, "nobestmove", "Fen:", T5s));
    /* After another command, an idle stop is answered. */
    eng_send(&e, "stop");
    eng_expect(&e, "nobestmove", T5s, NULL, 0);
    eng_finish(&e);
}

static void test_quit_while_thinking(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "go infinite");
    eng_sleep_ms(100);
    int64_t t0 = child_now_ms();
    eng_send(&e, "quit");
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    assert_true(child_now_ms() - t0 < eng_slow(1000));
    eng_finish(&e);
}

static void test_end_of_input(void **state) {
    (void)state;
    Engine e;
    /* Idle: exit 0 at once. */
    eng_start_dialect(&e, "uci");
    eng_close_input(&e);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    /* Thinking, with a command held: bestmove, the command, exit 0. */
    eng_start_dialect(&e, "uci");
    eng_send(&e, "go infinite");
    eng_send(&e, "d");
    eng_sleep_ms(100);
    eng_close_input(&e);
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_expect(&e, "Fen: ", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    /* Before any handshake. */
    eng_start(&e);
    eng_close_input(&e);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* One `go` under node time: the bestmove line and the nodes of the last
 * info line before it. */
static uint64_t node_time_go(Engine *e, const char *go, char *best, size_t size) {
    char line[ENG_LINE];
    uint64_t nodes = 0;
    eng_send(e, "%s", go);
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        const char *n = strstr(line, " nodes ");
        if (!strncmp(line, "info ", 5) && n) nodes = strtoull(n + 7, NULL, 10);
        if (!strncmp(line, "bestmove ", 9)) {
            snprintf(best, size, "%s", line);
            return nodes;
        }
    }
}

/* A slow rate on a long clock: the searches stay far below the real clock's hard limit
 * (about 10 s here) even in a sanitizer build on a loaded machine, which would
 * cut them short and make them differ. */
/* 40 moves: enough for the clock to drain to its floor (about 600 nodes a
 * move here) whatever the net; at 24 the last move's budget still depended
 * on how early the net's searches settled. */
enum { NODE_TIME_MOVES = 40, NODE_TIME_RATE = 1, NODE_TIME_CLOCK_MS = 100000 };

/* The same moves under node time, in a fresh engine: the nodes of each. */
static void node_time_game(uint64_t *nodes, char (*best)[64]) {
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Hash value 16");
    eng_send(&e, "setoption name nodestime value %d", NODE_TIME_RATE);
    eng_send(&e, "ucinewgame");
    eng_send(&e, "position startpos");
    /* The GUI's clock never moves: the engine's own clock in nodes does. */
    char go[96];
    snprintf(go, sizeof go, "go wtime %d btime %d", NODE_TIME_CLOCK_MS, NODE_TIME_CLOCK_MS);
    for (int i = 0; i < NODE_TIME_MOVES; i++)
        nodes[i] = node_time_go(&e, go, best[i], sizeof best[i]);
    eng_finish(&e);
}

/* nodestime: a clock counted in nodes is the same on any machine, so two
 * runs search the same nodes and answer the same; and the engine keeps
 * that clock itself, so it runs down although the GUI's does not. */
static void test_node_time(void **state) {
    (void)state;
    uint64_t a[NODE_TIME_MOVES], b[NODE_TIME_MOVES], sum = 0;
    char best_a[NODE_TIME_MOVES][64], best_b[NODE_TIME_MOVES][64];
    node_time_game(a, best_a);
    node_time_game(b, best_b);
    for (int i = 0; i < NODE_TIME_MOVES; i++) {
        assert_true(a[i] == b[i]);
        assert_string_equal(best_a[i], best_b[i]);
        sum += a[i];
    }
    uint64_t clock_nodes = (uint64_t)NODE_TIME_CLOCK_MS * NODE_TIME_RATE;
    print_message("node time: first move %llu nodes, last %llu, all %llu of a clock of %llu\n",
                  (unsigned long long)a[0], (unsigned long long)a[NODE_TIME_MOVES - 1], (unsigned long long)sum,
                  (unsigned long long)clock_nodes);
    assert_true(a[0] > 0);
    assert_true(a[0] <= clock_nodes * 8 / 10);
    /* The whole clock, and a little for the moves of a drained one. */
    assert_true(sum <= clock_nodes + clock_nodes / 10);
    assert_true(a[NODE_TIME_MOVES - 1] < a[0] / 4);
}

int main(void) {
    T5s = eng_slow(5000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_latency),
        cmocka_unit_test(test_node_time),
        cmocka_unit_test(test_isready_and_probe_while_thinking),
        cmocka_unit_test(test_ponder_waits_for_ponderhit),
        cmocka_unit_test(test_ponderhit_draw),
        cmocka_unit_test(test_commands_queued_until_bestmove),
        cmocka_unit_test(test_batch_mode),
        cmocka_unit_test(test_late_stop_is_absorbed),
        cmocka_unit_test(test_quit_while_thinking),
        cmocka_unit_test(test_end_of_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
