// SPDX-License-Identifier: GPL-3.0-or-later
/* Protocol stress test: thousands of random but well-formed command
 * sequences against the built `tuong` binary on pipes, in both dialects.
 *
 * A simulated GUI sends position/banmoves/go and, while the engine thinks,
 * isready/ponderhit/stop/setoption/position at random short delays, then
 * waits for the answer. It checks that
 *   - every go gets exactly one bestmove/nobestmove (a UCCI stop that finds
 *     the engine idle may add one nobestmove of its own, never a bestmove),
 *   - nobestmove / bestmove (none) only comes when no move may be played,
 *   - every isready gets one readyok,
 *   - every move printed (bestmove, ponder, pv, currmove) is legal, replayed
 *     with the engine's own rules code, and never a banned move,
 *   - a stop is answered quickly, and the engine exits cleanly (status 0, so
 *     a sanitizer report fails the test) after quit.
 *
 * TUONG_STRESS_SEED and TUONG_STRESS_GOS override the seed and the number of
 * go commands. */
#include "test_support.h"

#include <sched.h>
#include <stdlib.h>

#include "engine_proc.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(NDEBUG)
enum { SLOW_BUILD = 1 };
#else
enum { SLOW_BUILD = 0 };
#endif

enum {
    GOS_FAST = 1500,      /* go commands in a release build */
    GOS_SLOW = 250,       /* under sanitizers / debug */
    GOS_PER_SESSION = 60, /* then quit and start a new engine */
    MAX_SENT_MOVES = 1200,
    STOP_LATENCY_FAST_MS = 1000, /* stop -> bestmove, release build (shared CI machine: generous) */
};

/* ---- random numbers (xorshift64*) ------------------------------------ */

static uint64_t Rng;

static uint64_t rnd(void) {
    Rng ^= Rng >> 12;
    Rng ^= Rng << 25;
    Rng ^= Rng >> 27;
    return Rng * 2685821657736338717ULL;
}

static int rnd_int(int n) { return (int)(rnd() % (uint64_t)n); }
static bool chance(int percent) { return rnd_int(100) < percent; }

/* ---- the simulated GUI ----------------------------------------------- */

static const char *const Fens[] = {
    START_FEN,
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1",
    "4k4/9/4R4/9/9/9/9/9/9/3K1R3 b - - 0 1", /* Black is mated: no legal move */
    "3ak4/4a4/9/9/9/9/9/9/4A4/3RK4 w - - 0 1",
};

typedef struct {
    Engine e;
    bool ucci;
    /* The position the GUI last sent, and how it was written. */
    Position pos;
    int fen_index;
    int move_count;
    Move moves[MAX_SENT_MOVES];
    int ban_count;
    Move banned[MAX_MOVES];
    /* Counters over the whole test. */
    int isready_sent, readyok_seen;
    int gos, answers, extra_nobestmove, stops;
    int64_t max_stop_latency_ms;
    int64_t stop_sent_ms; /* 0 when no stop is outstanding */
    char last_go[512];
} Gui;

/* The search a go started: what may be answered. */
typedef struct {
    Position pos;
    bool unbounded; /* infinite, ponder or depth 128: needs stop (or ponderhit) */
    bool may_pass;  /* depth 0 in UCCI: nobestmove is right */
    int only_count; /* searchmoves */
    Move only[8];
    int ban_count; /* banmoves in force */
    Move banned[MAX_MOVES];
    bool answered;
    int stops; /* stops sent since this go */
} Search;

static Gui G;
static Search S;

/* Fail with what went wrong and the line that showed it. */
static void gui_fail(const char *what, const char *line) {
    eng_dump(&G.e);
    print_message("last go sent: %s\n", G.last_go);
    fail_msg("%s%s%s", what, *line ? ": " : "", line);
}

static bool in_list(const Move *list, int n, Move m) {
    for (int i = 0; i < n; i++)
        if (list[i] == m) return true;
    return false;
}

/* May the engine play m at the root of the current search? */
static bool root_move_ok(Move m) {
    if (!move_is_legal(&S.pos, m)) return false;
    if (in_list(S.banned, S.ban_count, m)) return false;
    if (S.only_count && !in_list(S.only, S.only_count, m)) return false;
    return true;
}

/* Is there any move the search could play? */
static bool any_root_move(void) {
    MoveList legal;
    gen_legal(&S.pos, &legal);
    for (int i = 0; i < legal.count; i++)
        if (!in_list(S.banned, S.ban_count, legal.moves[i]) &&
            (!S.only_count || in_list(S.only, S.only_count, legal.moves[i])))
            return true;
    return false;
}

/* Check the moves after " pv " are a legal line from the root. */
static void check_pv(const char *line) {
    const char *pv = strstr(line, " pv ");
    if (!pv) return;
    static Position p;
    memcpy(&p, &S.pos, sizeof p);
    char buf[ENG_LINE];
    snprintf(buf, sizeof buf, "%s", pv + 4);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        Move m = move_from_text(t, 0);
        if (m == MOVE_NONE || !move_is_legal(&p, m) || pos_history_full(&p)) gui_fail("illegal move in pv", line);
        pos_make_move(&p, m);
    }
}

static void check_bestmove(const char *line) {
    char best[16] = "", word[16] = "", ponder[16] = "";
    int n = sscanf(line, "bestmove %15s %15s %15s", best, word, ponder);
    if (!strcmp(best, "(none)")) {
        if (G.ucci || any_root_move()) gui_fail("bestmove (none) with moves available", line);
        return;
    }
    Move m = move_from_text(best, 0);
    if (m == MOVE_NONE || !root_move_ok(m)) gui_fail("illegal, banned or excluded bestmove", line);
    if (n >= 3 && !strcmp(word, "ponder")) {
        static Position p;
        memcpy(&p, &S.pos, sizeof p);
        pos_make_move(&p, m);
        Move pm = move_from_text(ponder, 0);
        if (pm == MOVE_NONE || !move_is_legal(&p, pm)) gui_fail("illegal ponder move", line);
    }
}

/* Read and check one line; false on timeout. */
static bool gui_read(int timeout_ms) {
    char line[ENG_LINE];
    if (!eng_read_line(&G.e, line, sizeof line, timeout_ms)) {
        if (G.e.proc.eof) gui_fail("the engine closed its output (a crash or a sanitizer report: see above)", "");
        return false;
    }
    if (!strcmp(line, "readyok")) {
        if (++G.readyok_seen > G.isready_sent) gui_fail("readyok without isready", "");
    } else if (!strncmp(line, "bestmove", 8) || !strcmp(line, "nobestmove")) {
        bool pass = !strcmp(line, "nobestmove");
        if (S.answered) {
            /* Only a UCCI stop that found the engine idle answers again. */
            if (!pass || S.stops == 0) gui_fail("second answer to one go", line);
            G.extra_nobestmove++;
            S.stops--;
            return true;
        }
        S.answered = true;
        G.answers++;
        if (G.stop_sent_ms) {
            int64_t lat = child_now_ms() - G.stop_sent_ms;
            if (lat > G.max_stop_latency_ms) G.max_stop_latency_ms = lat;
            G.stop_sent_ms = 0;
        }
        if (pass) {
            if (!G.ucci) gui_fail("nobestmove in UCI", line);
            if (!S.may_pass && any_root_move()) gui_fail("nobestmove with moves available", "");
        } else {
            check_bestmove(line);
        }
    } else if (!strncmp(line, "info", 4) && strstr(line, " pv ") && !S.answered) {
        check_pv(line);
    } else if (strstr(line, "error")) {
        gui_fail("the engine reported an error on well-formed input", line);
    }
    return true;
}

/* Read every line already waiting (or arriving within ms). */
static void gui_drain(int ms) {
    while (gui_read(ms)) {
    }
}

static void gui_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void gui_send(const char *fmt, ...) {
    static char line[MAX_SENT_MOVES * 5 + 512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) fail_msg("gui_send: line too long");
    line[n] = '\n';
    eng_write(&G.e, line, (size_t)n + 1);
}

static void gui_isready(void) {
    G.isready_sent++;
    gui_send("isready");
}

/* Wait until every isready so far has its readyok. */
static void gui_sync(void) {
    gui_isready();
    int64_t deadline = child_now_ms() + eng_slow(10000);
    while (G.readyok_seen < G.isready_sent) {
        if (child_now_ms() > deadline) gui_fail("isready not answered", "");
        gui_read(50);
    }
}

static void gui_stop(void) {
    S.stops++;
    G.stops++;
    if (!G.stop_sent_ms) G.stop_sent_ms = child_now_ms();
    gui_send("stop");
}

/* ---- random commands -------------------------------------------------- */

static void random_position(void) {
    char err[200], text[MOVE_TEXT_MAX];
    static char cmd[MAX_SENT_MOVES * 5 + 300];
    G.fen_index = chance(40) ? 0 : rnd_int((int)(sizeof Fens / sizeof Fens[0]));
    must_parse(&G.pos, Fens[G.fen_index]);
    int plies = chance(5) ? 200 + rnd_int(400) : rnd_int(40);
    G.move_count = 0;
    for (int i = 0; i < plies && G.move_count < MAX_SENT_MOVES; i++) {
        MoveList legal;
        gen_legal(&G.pos, &legal);
        if (!legal.count) break;
        Move m = legal.moves[rnd_int(legal.count)];
        pos_make_move(&G.pos, m);
        G.moves[G.move_count++] = m;
    }
    int n = G.fen_index == 0 && chance(50) ? snprintf(cmd, sizeof cmd, "position startpos")
                                           : snprintf(cmd, sizeof cmd, "position fen %s", Fens[G.fen_index]);
    if (G.move_count) n += snprintf(cmd + n, sizeof cmd - (size_t)n, " moves");
    for (int i = 0; i < G.move_count; i++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", move_to_text(G.moves[i], 0, text));
    (void)err;
    G.ban_count = 0;
    gui_send("%s", cmd);
}

static void random_banmoves(void) {
    MoveList legal;
    gen_legal(&G.pos, &legal);
    if (!G.ucci || !legal.count) return;
    char cmd[MAX_MOVES * 5 + 16] = "banmoves", text[MOVE_TEXT_MAX];
    int n = (int)strlen(cmd);
    G.ban_count = chance(5) ? legal.count : 1 + rnd_int(legal.count < 3 ? legal.count : 3);
    for (int i = 0; i < G.ban_count; i++) {
        G.banned[i] = G.ban_count == legal.count ? legal.moves[i] : legal.moves[rnd_int(legal.count)];
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", move_to_text(G.banned[i], 0, text));
    }
    gui_send("%s", cmd);
}

static void random_setoption(void) {
    static const char *const Ucci[] = {"hashsize 1",  "hashsize 16",  "threads 1",     "threads 2", "threads 3",
                                       "ponder true", "ponder false", "drawmoves 120", "newgame",   "randomness none"};
    static const char *const Uci[] = {"name Hash value 1",          "name Hash value 16",   "name Threads value 1",
                                      "name Threads value 2",       "name Threads value 3", "name Ponder value true",
                                      "name MultiPV value 2",       "name MultiPV value 1", "name Clear Hash",
                                      "name Move Overhead value 10"};
    const char *o =
        G.ucci ? Ucci[rnd_int((int)(sizeof Ucci / sizeof Ucci[0]))] : Uci[rnd_int((int)(sizeof Uci / sizeof Uci[0]))];
    gui_send("setoption %s", o);
    if (strstr(o, "newgame")) { /* the engine also goes back to the start position */
        must_parse(&G.pos, START_FEN);
        G.move_count = G.ban_count = 0;
    }
}

/* Send one go with random limits; fills S. */
static void random_go(void) {
    char cmd[512], text[MOVE_TEXT_MAX];
    memset(&S, 0, sizeof S);
    memcpy(&S.pos, &G.pos, sizeof S.pos);
    S.ban_count = G.ban_count;
    memcpy(S.banned, G.banned, sizeof S.banned);
    int kind = rnd_int(11);
    int ms = rnd_int(40);
    bool red = G.pos.side == RED;
    switch (kind) {
    case 0: snprintf(cmd, sizeof cmd, "go depth %d", 1 + rnd_int(4)); break;
    case 1: snprintf(cmd, sizeof cmd, "go nodes %d", chance(30) ? 1 : 1 + rnd_int(20000)); break;
    case 2:
        if (G.ucci)
            snprintf(cmd, sizeof cmd, "go time %d increment %d", ms, rnd_int(5));
        else
            snprintf(cmd, sizeof cmd, "go movetime %d", ms);
        break;
    case 3: /* clocks, sometimes zero or negative */
        if (G.ucci)
            snprintf(cmd, sizeof cmd, "go time %d increment %d opptime %d", rnd_int(3) - 1 + (chance(50) ? ms * 20 : 0),
                     rnd_int(10), rnd_int(2000));
        else
            snprintf(cmd, sizeof cmd, "go wtime %d btime %d winc %d binc %d%s", red ? rnd_int(3) - 1 + ms * 20 : 1000,
                     red ? 1000 : rnd_int(3) - 1 + ms * 20, rnd_int(10), rnd_int(10), chance(30) ? " movestogo 3" : "");
        break;
    case 4: snprintf(cmd, sizeof cmd, "go infinite"), S.unbounded = true; break;
    case 5: /* ponder on a clock */
        if (G.ucci)
            snprintf(cmd, sizeof cmd, "go ponder time %d increment 1", 50 + ms * 5);
        else
            snprintf(cmd, sizeof cmd, "go ponder wtime %d btime %d", 50 + ms * 5, 50 + ms * 5);
        S.unbounded = true;
        break;
    case 6: snprintf(cmd, sizeof cmd, "go depth 128"), S.unbounded = true; break;
    case 7:
        if (G.ucci)
            snprintf(cmd, sizeof cmd, "go depth 0"), S.may_pass = true;
        else
            snprintf(cmd, sizeof cmd, "go depth 1");
        break;
    case 8:
        if (G.ucci) {
            snprintf(cmd, sizeof cmd, "go draw depth %d", 1 + rnd_int(3));
        } else {
            MoveList legal;
            gen_legal(&G.pos, &legal);
            int n = snprintf(cmd, sizeof cmd, "go depth %d", 1 + rnd_int(3));
            if (legal.count) {
                n += snprintf(cmd + n, sizeof cmd - (size_t)n, " searchmoves");
                S.only_count = 1 + rnd_int(legal.count < 8 ? legal.count : 8);
                for (int i = 0; i < S.only_count; i++) {
                    S.only[i] = legal.moves[rnd_int(legal.count)];
                    n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", move_to_text(S.only[i], 0, text));
                }
            }
        }
        break;
    case 9: snprintf(cmd, sizeof cmd, G.ucci ? "go time 0" : "go wtime 0 btime 0"); break;
    default: snprintf(cmd, sizeof cmd, G.ucci ? "go time -5 increment -1" : "go movetime %d", -rnd_int(3)); break;
    }
    G.gos++;
    snprintf(G.last_go, sizeof G.last_go, "%s", cmd);
    gui_send("%s", cmd);
}

/* Short random pause: none, a yield, or up to 4 ms. */
static void random_delay(void) {
    int r = rnd_int(4);
    if (r == 1)
        sched_yield();
    else if (r >= 2)
        eng_sleep_ms(rnd_int(5));
}

/* One go and everything around it, until it is answered. */
static void one_search(void) {
    if (chance(30)) random_position();
    if (chance(10)) random_setoption();
    if (chance(10)) random_banmoves();
    random_go();
    int actions = rnd_int(5);
    for (int i = 0; i < actions && !S.answered; i++) {
        random_delay();
        int a = rnd_int(10);
        if (a < 4)
            gui_isready();
        else if (a < 6)
            gui_stop();
        else if (a < 8)
            gui_send("ponderhit");
        else if (a == 8)
            random_setoption(); /* held until the search ends */
        else
            random_position();
        gui_drain(0);
    }
    int64_t deadline = child_now_ms() + eng_slow(SLOW_BUILD ? 60000 : 20000);
    bool stopped = false;
    while (!S.answered) {
        if (S.unbounded && !stopped) {
            random_delay();
            gui_stop();
            stopped = true;
        }
        if (child_now_ms() > deadline) gui_fail("go not answered in time (hang?)", "");
        gui_read(20);
    }
    /* UCCI: a stop may have found the engine idle; collect its nobestmove
     * before the next go so answers cannot be confused. */
    if (S.stops && G.ucci) gui_sync();
    G.stop_sent_ms = 0;
    gui_drain(0);
    /* Sometimes change things while the engine is idle. */
    if (chance(5)) random_setoption();
}

static void start_session(void) {
    G.ucci = chance(50);
    eng_start_dialect(&G.e, G.ucci ? "ucci" : "uci");
    if (G.ucci) gui_send("setoption usemillisec true");
    random_setoption();
    G.fen_index = 0;
    must_parse(&G.pos, START_FEN);
    G.move_count = G.ban_count = 0;
    gui_send("position startpos");
}

static void end_session(void) {
    gui_sync();
    gui_send("quit");
    if (G.ucci) eng_expect(&G.e, "bye", eng_slow(10000), NULL, 0);
    int code = eng_wait(&G.e, eng_slow(10000));
    eng_finish(&G.e);
    if (code != 0) fail_msg("engine exit status %d after quit (a sanitizer report, a crash or a hang)", code);
}

static void test_random_sessions(void **state) {
    (void)state;
    const char *seed = getenv("TUONG_STRESS_SEED"), *gos = getenv("TUONG_STRESS_GOS");
    Rng = seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL);
    if (!Rng) Rng = 1;
    print_message("stress seed %llu (TUONG_STRESS_SEED to repeat)\n", (unsigned long long)Rng);
    int total = gos ? atoi(gos) : SLOW_BUILD ? GOS_SLOW : GOS_FAST;
    memset(&G, 0, sizeof G);
    int64_t t0 = child_now_ms();
    while (G.gos < total) {
        start_session();
        for (int i = 0; i < GOS_PER_SESSION && G.gos < total; i++)
            one_search();
        end_session();
    }
    print_message("stress: %d go, %d answered (+%d nobestmove for idle stops), %d stop, %d isready/readyok, "
                  "max stop latency %lld ms, %lld ms\n",
                  G.gos, G.answers, G.extra_nobestmove, G.stops, G.readyok_seen, (long long)G.max_stop_latency_ms,
                  (long long)(child_now_ms() - t0));
    assert_int_equal(G.answers, G.gos);
    assert_int_equal(G.readyok_seen, G.isready_sent);
    if (!SLOW_BUILD) assert_true(G.max_stop_latency_ms < STOP_LATENCY_FAST_MS);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_sessions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
