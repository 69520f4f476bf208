// SPDX-License-Identifier: GPL-3.0-or-later
/* Resource edges, against the built `tuong` binary on pipes: a hash larger
 * than the machine can give, many search threads (capped at the processor
 * count, with a message), a 1000-move game in
 * `position ... moves` (and one too long to keep), `go depth 128` and the
 * parser's deepest depth then stop, `go nodes 1`, zero and negative times.
 * Each must end in a legal bestmove, in time, and a clean exit. */
#include "test_support.h"

#include <sys/resource.h>

#include "engine_proc.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "protocol_parse.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
enum { SANITIZED = 1 };
#else
enum { SANITIZED = 0 };
#endif

enum {
    LONG_GAME_PLIES = 2000, /* 1000 moves each */
    MANY_THREADS = 256,     /* the advertised maximum */
    MANY_THREADS_SANITIZED = 32,
    FAST_ANSWER_MS = 1000,                   /* zero/negative clocks, nodes 1: no time loss */
    STOP_ANSWER_MS = 1000,                   /* stop -> bestmove */
    HASH_TEST_ADDRESS_SPACE = 3u << 29,      /* 1.5 GB for the engine in the huge-hash test */
    THREAD_TEST_STACK = 1u << 30,            /* 1 GB per thread stack ... */
    THREAD_TEST_ADDRESS_SPACE = 1700u << 20, /* ... in 1.7 GB: room for one thread */
};

static Position Root; /* the position last sent */

/* Send a line of any length. */
static void send_long(Engine *e, const char *text) {
    eng_write(e, text, strlen(text));
    eng_write(e, "\n", 1);
}

/* Time for an answer in this build (sanitizers and debug builds are slower). */
static int budget(int ms) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(NDEBUG)
    return ms * 10;
#else
    return ms;
#endif
}

/* Read until bestmove/nobestmove; checks the move against Root and returns
 * how long it took. Fails on an error line when errors_ok is false. */
static int64_t expect_legal_bestmove(Engine *e, int timeout_ms) {
    char line[ENG_LINE];
    int64_t t0 = child_now_ms(), deadline = t0 + timeout_ms;
    for (;;) {
        int64_t left = deadline - child_now_ms();
        if (left <= 0 || !eng_read_line(e, line, sizeof line, (int)left)) {
            eng_dump(e);
            eng_finish(e); /* kill it: a hung engine must not outlive the test */
            fail_msg("no bestmove within %d ms", timeout_ms);
        }
        if (!strncmp(line, "bestmove ", 9)) {
            char text[16] = "";
            sscanf(line + 9, "%15s", text);
            Move m = move_from_text(text, 0);
            if (m == MOVE_NONE || !move_is_legal(&Root, m)) {
                eng_dump(e);
                fail_msg("illegal bestmove: %s", line);
            }
            return child_now_ms() - t0;
        }
        if (!strcmp(line, "nobestmove")) {
            eng_dump(e);
            fail_msg("nobestmove with legal moves available");
        }
    }
}

/* Does a line holding `needle` come before readyok? (Sends isready.) */
static bool message_before_ready(Engine *e, const char *needle) {
    char line[ENG_LINE];
    bool seen = false;
    eng_send(e, "isready");
    int64_t deadline = child_now_ms() + budget(20000);
    for (;;) {
        int64_t left = deadline - child_now_ms();
        if (left <= 0 || !eng_read_line(e, line, sizeof line, (int)left)) {
            eng_dump(e);
            eng_finish(e);
            fail_msg("no readyok");
        }
        if (strstr(line, needle)) {
            print_message("engine: %.200s\n", line);
            seen = true;
        }
        if (!strcmp(line, "readyok")) return seen;
    }
}

static void quit_cleanly(Engine *e, bool ucci) {
    eng_send(e, "quit");
    if (ucci) eng_expect(e, "bye", budget(10000), NULL, 0);
    int code = eng_wait(e, budget(10000));
    eng_finish(e);
    assert_int_equal(code, 0);
}

static void set_root(const char *fen) { must_parse(&Root, fen); }

/* Start the engine in a dialect with a limited address space and, if
 * stack_bytes, a thread stack size (glibc sizes new threads' stacks by
 * RLIMIT_STACK). The limits are set around the fork and restored. */
static void start_limited(Engine *e, const char *dialect, rlim_t as_bytes, rlim_t stack_bytes) {
    struct rlimit old_as, old_stack, lim;
    getrlimit(RLIMIT_AS, &old_as);
    getrlimit(RLIMIT_STACK, &old_stack);
    lim = old_as;
    lim.rlim_cur = old_as.rlim_max != RLIM_INFINITY && old_as.rlim_max < as_bytes ? old_as.rlim_max : as_bytes;
    setrlimit(RLIMIT_AS, &lim);
    if (stack_bytes) {
        lim = old_stack;
        lim.rlim_cur =
            old_stack.rlim_max != RLIM_INFINITY && old_stack.rlim_max < stack_bytes ? old_stack.rlim_max : stack_bytes;
        setrlimit(RLIMIT_STACK, &lim);
    }
    eng_start_dialect(e, dialect);
    setrlimit(RLIMIT_AS, &old_as);
    setrlimit(RLIMIT_STACK, &old_stack);
}

static void test_hash_larger_than_memory(void **state) {
    (void)state;
    if (SANITIZED) {
        print_message("skipped under sanitizers (they cannot run with a limited address space)\n");
        return;
    }
    /* The engine gets a 1.5 GB address space, so the largest hash (or half
     * this machine's memory) cannot be had whatever the machine. */
    Engine e;
    start_limited(&e, "ucci", HASH_TEST_ADDRESS_SPACE, 0);
    set_root(START_FEN);
    eng_send(&e, "setoption hashsize 32768");
    assert_true(message_before_ready(&e, " MB")); /* "more than ... using N MB", "could not allocate ... keeping" */
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 4");
    expect_legal_bestmove(&e, budget(20000));
    eng_send(&e, "setoption hashsize 8"); /* a size that fits still works */
    assert_false(message_before_ready(&e, "error"));
    eng_send(&e, "go depth 4");
    expect_legal_bestmove(&e, budget(20000));
    quit_cleanly(&e, true);
}

static void test_many_threads(void **state) {
    (void)state;
    int threads = SANITIZED ? MANY_THREADS_SANITIZED : MANY_THREADS;
    Engine e;
    eng_start_dialect(&e, "uci");
    set_root(START_FEN);
    eng_send(&e, "setoption name Threads value %d", threads);
    eng_send(&e, "setoption name Hash value 16");
    char needle[32];
    snprintf(needle, sizeof needle, "threads %d", threads);
    if (!message_before_ready(&e, needle)) print_message("(no message: this machine has %d processors)\n", threads);
    eng_send(&e, "position startpos moves h2e2 h9g7");
    must_parse(&Root, START_FEN);
    pos_make_move(&Root, move_from_text("h2e2", 0));
    pos_make_move(&Root, move_from_text("h9g7", 0));
    eng_send(&e, "go infinite");
    eng_sleep_ms(300);
    eng_send(&e, "stop");
    int64_t ms = expect_legal_bestmove(&e, budget(STOP_ANSWER_MS * 5));
    print_message("%d threads: bestmove %lld ms after stop\n", threads, (long long)ms);
    eng_send(&e, "go movetime 200");
    expect_legal_bestmove(&e, budget(5000));
    eng_send(&e, "setoption name Threads value 1"); /* and back down */
    eng_send(&e, "go depth 3");
    expect_legal_bestmove(&e, budget(10000));
    quit_cleanly(&e, false);
}

/* A random game of up to `plies` plies, preferring quiet moves and never
 * mating, so it lasts; the moves are written to text (space first) and
 * played on pos. Returns the plies played. */
static int random_game(Position *pos, int plies, uint64_t seed, char *text, size_t cap) {
    size_t n = 0;
    int played = 0;
    for (; played < plies; played++) {
        MoveList quiet, all;
        gen_quiets(pos, &quiet);
        gen_legal(pos, &all);
        const MoveList *from = quiet.count ? &quiet : &all;
        Move m = MOVE_NONE;
        for (int tries = 0; tries < 50 && m == MOVE_NONE && from->count; tries++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            Move c = from->moves[(seed >> 33) % (uint64_t)from->count];
            pos_make_move(pos, c);
            if (gen_count_legal(pos) > 0) m = c;
            pos_unmake_move(pos);
        }
        if (m == MOVE_NONE) break;
        char mt[MOVE_TEXT_MAX];
        n += (size_t)snprintf(text + n, cap - n, " %s", move_to_text(m, 0, mt));
        pos_make_move(pos, m);
    }
    return played;
}

static void test_thousand_move_history(void **state) {
    (void)state;
    static char moves[(PROTO_MAX_MOVES + 100) * 5 + 1];
    static char cmd[sizeof moves + 64];
    Engine e;
    eng_start_dialect(&e, "ucci");
    must_parse(&Root, START_FEN);
    int plies = random_game(&Root, LONG_GAME_PLIES, 7, moves, sizeof moves);
    assert_true(plies >= LONG_GAME_PLIES / 2);
    snprintf(cmd, sizeof cmd, "position startpos moves%s", moves);
    send_long(&e, cmd);
    assert_false(message_before_ready(&e, "error"));
    eng_send(&e, "go depth 6");
    expect_legal_bestmove(&e, budget(30000));
    eng_send(&e, "setoption usemillisec true");
    eng_send(&e, "go time 2000 increment 10");
    expect_legal_bestmove(&e, budget(5000));

    /* More moves than a Position can hold: refused, the old position kept. */
    static Position longest;
    must_parse(&longest, START_FEN);
    int more = random_game(&longest, PROTO_MAX_MOVES + 50, 11, moves, sizeof moves);
    if (more > PROTO_MAX_MOVES) {
        snprintf(cmd, sizeof cmd, "position startpos moves%s", moves);
        send_long(&e, cmd);
        assert_true(message_before_ready(&e, "error"));
        eng_send(&e, "go depth 3");
        expect_legal_bestmove(&e, budget(10000));
    }
    quit_cleanly(&e, true);
}

static void test_deep_depth_then_stop(void **state) {
    (void)state;
    static const char *const Depths[] = {"go depth 128", "go depth 1000", "go depth 127"};
    Engine e;
    eng_start_dialect(&e, "ucci");
    set_root(START_FEN);
    for (size_t i = 0; i < sizeof Depths / sizeof Depths[0]; i++) {
        eng_send(&e, "%s", Depths[i]);
        eng_sleep_ms(200 + 200 * (int)i);
        eng_send(&e, "stop");
        int64_t ms = expect_legal_bestmove(&e, budget(STOP_ANSWER_MS));
        print_message("%s: bestmove %lld ms after stop\n", Depths[i], (long long)ms);
    }
    /* A depth 128 search in a position with few moves reaches deep plies. */
    const char *fen = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";
    set_root(fen);
    eng_send(&e, "position fen %s", fen);
    eng_send(&e, "go depth 128");
    eng_sleep_ms(500);
    eng_send(&e, "stop");
    expect_legal_bestmove(&e, budget(STOP_ANSWER_MS));
    quit_cleanly(&e, true);
}

static void test_tiny_budgets(void **state) {
    (void)state;
    static const char *const Ucci[] = {
        "go nodes 1", "go time 0",           "go time 0 increment 0", "go time -5 increment -1",
        "go depth 1", "go time 1 opptime -3"};
    static const char *const Uci[] = {"go nodes 1",
                                      "go movetime 0",
                                      "go movetime -1",
                                      "go wtime 0 btime 0",
                                      "go wtime -100 btime -100 winc 0 binc 0",
                                      "go wtime 1 btime 1 movestogo 1"};
    for (int dialect = 0; dialect < 2; dialect++) {
        Engine e;
        bool ucci = dialect == 0;
        eng_start_dialect(&e, ucci ? "ucci" : "uci");
        if (ucci) eng_send(&e, "setoption usemillisec true");
        const char *const *gos = ucci ? Ucci : Uci;
        for (int i = 0; i < 6; i++)
            for (int pos = 0; pos < 2; pos++) {
                const char *fen = pos ? "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1" : START_FEN;
                set_root(fen);
                eng_send(&e, "position fen %s", fen);
                eng_send(&e, "%s", gos[i]);
                int64_t ms = expect_legal_bestmove(&e, budget(FAST_ANSWER_MS * 5));
                if (!SANITIZED && ms > FAST_ANSWER_MS) fail_msg("'%s' took %lld ms", gos[i], (long long)ms);
            }
        quit_cleanly(&e, ucci);
    }
}

/* No room for the search thread's stack (1 GB thread stacks in a 1.7 GB
 * address space: the reader thread fits, the search driver does not). The
 * go must still be answered, and the engine must still quit: search_start()
 * ignored the failed pthread_create(), never answered and then joined a
 * thread that did not exist. */
static void test_search_thread_cannot_start(void **state) {
    (void)state;
    if (SANITIZED) {
        print_message("skipped under sanitizers (they cannot run with a limited address space)\n");
        return;
    }
    for (int dialect = 0; dialect < 2; dialect++) {
        Engine e;
        start_limited(&e, dialect ? "uci" : "ucci", THREAD_TEST_ADDRESS_SPACE, THREAD_TEST_STACK);
        set_root(START_FEN);
        eng_send(&e, "position startpos");
        eng_send(&e, "go depth 3");
        expect_legal_bestmove(&e, budget(5000));
        eng_send(&e, "go infinite");
        eng_send(&e, "stop");
        expect_legal_bestmove(&e, budget(5000));
        quit_cleanly(&e, dialect == 0);
    }
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_larger_than_memory),
        cmocka_unit_test(test_many_threads),
        cmocka_unit_test(test_thousand_move_history),
        cmocka_unit_test(test_deep_depth_then_stop),
        cmocka_unit_test(test_tiny_budgets),
        cmocka_unit_test(test_search_thread_cannot_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
