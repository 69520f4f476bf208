// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end, strength levels and the UCCI grades (docs/levels.md): the
 * options each dialect lists, bad values, the caps of a low level, the
 * same moves under the same seed, full strength untouched, and what
 * style, pruning, knowledge, idle and randomness do. */
#include "test_support.h"

#include <stdlib.h>

#include "engine_proc.h"
#include "skill/grades.h"
#include "skill/skill.h"

static int T5s, T60s;

/* A middlegame with captures about. */
#define MIDDLEGAME "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB2 b - - 0 1"
/* Bare kings one ply before the no-capture limit: every move draws. */
#define LAST_PLY_BEFORE_DRAW "3k5/9/9/9/9/9/9/9/9/4K4 w - - 119 1"

/* Read the handshake; fail unless every wanted option line is listed. */
static void expect_options(Engine *e, const char *hello, const char *ok, const char *const *wanted, int n) {
    bool seen[16] = {0};
    char line[ENG_LINE];
    eng_send(e, "%s", hello);
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, T5s)) fail_msg("no %s", ok);
        if (!strcmp(line, ok)) break;
        for (int i = 0; i < n; i++)
            if (!strcmp(line, wanted[i])) seen[i] = true;
    }
    for (int i = 0; i < n; i++)
        if (!seen[i]) fail_msg("missing '%s'", wanted[i]);
}

static void uci_lists_the_strength_options(void **state) {
    (void)state;
    char elo[128], level[128];
    snprintf(elo, sizeof elo, "option name UCI_Elo type spin min %d max %d default %d", SKILL_ELO_MIN, SKILL_ELO_MAX,
             SKILL_ELO_DEFAULT);
    snprintf(level, sizeof level, "option name Skill Level type spin min 0 max %d default %d", SKILL_LEVEL_MAX,
             SKILL_LEVEL_MAX);
    const char *const wanted[] = {
        "option name UCI_LimitStrength type check default false",
        elo,
        level,
        "option name Randomness type combo var none var small var medium var large default none",
    };
    Engine e;
    eng_start(&e);
    expect_options(&e, "uci", "uciok", wanted, 4);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void ucci_lists_the_grades(void **state) {
    (void)state;
    char level[128];
    snprintf(level, sizeof level, "option level type spin min 0 max %d default %d", SKILL_LEVEL_MAX, SKILL_LEVEL_MAX);
    const char *const wanted[] = {
        level,
        "option knowledge type combo var none var small var medium var large default large",
        "option pruning type combo var none var small var medium var large default large",
        "option randomness type combo var none var small var medium var large default none",
        "option style type combo var solid var normal var risky default normal",
        "option idle type combo var none var small var medium var large default none",
    };
    Engine e;
    eng_start(&e);
    expect_options(&e, "ucci", "ucciok", wanted, 6);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void bad_values_get_one_error_line(void **state) {
    (void)state;
    static const char *const Uci[] = {
        "setoption name Skill Level value 21",     "setoption name Skill Level value -1",
        "setoption name Skill Level value five",   "setoption name UCI_Elo value 799",
        "setoption name UCI_Elo value 3001",       "setoption name UCI_Elo value 1e9",
        "setoption name UCI_LimitStrength value maybe", "setoption name Randomness value huge",
    };
    static const char *const Ucci[] = {
        "setoption level 21",    "setoption level -3",  "setoption knowledge huge", "setoption pruning 3",
        "setoption style wild",  "setoption idle lots", "setoption randomness tiny",
    };
    Engine e;
    eng_start_dialect(&e, "uci");
    for (size_t i = 0; i < sizeof Uci / sizeof Uci[0]; i++) {
        eng_send(&e, "%s", Uci[i]);
        if (eng_count_until_ready(&e, "info string error: ", T5s) != 1) fail_msg("'%s': not one error line", Uci[i]);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    eng_start_dialect(&e, "ucci");
    for (size_t i = 0; i < sizeof Ucci / sizeof Ucci[0]; i++) {
        eng_send(&e, "%s", Ucci[i]);
        if (eng_count_until_ready(&e, "info message error: ", T5s) != 1) fail_msg("'%s': not one error line", Ucci[i]);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

typedef struct {
    char best[64];     /* the bestmove line */
    char last[ENG_LINE]; /* the last info line with a pv */
    int max_depth, lines_with_multipv_above_1;
    long long max_nodes;
} SearchResult;

static long long field(const char *line, const char *name) {
    const char *p = strstr(line, name);
    return p ? atoll(p + strlen(name)) : -1;
}

/* Run `go ...` and read up to bestmove. */
static SearchResult search(Engine *e, const char *go) {
    SearchResult r = {0};
    char line[ENG_LINE];
    eng_send(e, "%s", go);
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, T60s)) {
            eng_dump(e);
            fail_msg("no bestmove after '%s'", go);
        }
        if (!strncmp(line, "bestmove", 8)) {
            snprintf(r.best, sizeof r.best, "%.*s", (int)sizeof r.best - 1, line); /* a bestmove line is short */
            return r;
        }
        if (strncmp(line, "info depth ", 11) || !strstr(line, " pv ")) continue;
        snprintf(r.last, sizeof r.last, "%s", line);
        long long d = field(line, "info depth "), n = field(line, " nodes ");
        if (d > r.max_depth) r.max_depth = (int)d;
        if (n > r.max_nodes) r.max_nodes = n;
        if (field(line, " multipv ") > 1) r.lines_with_multipv_above_1++;
    }
}

static void low_levels_search_little(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Skill Level value 0");
    eng_send(&e, "position fen " MIDDLEGAME);
    SearchResult r = search(&e, "go wtime 600000 btime 600000");
    assert_int_equal(r.max_depth, skill_depth(0));
    assert_true(r.max_nodes <= (long long)skill_nodes(0) + 64);
    assert_int_equal(r.lines_with_multipv_above_1, 0); /* the skill's extra lines are not shown */
    /* UCI_Elo sets the level when UCI_LimitStrength is on, whatever Skill Level says. */
    eng_send(&e, "setoption name Skill Level value 20");
    eng_send(&e, "setoption name UCI_LimitStrength value true");
    eng_send(&e, "setoption name UCI_Elo value %d", SKILL_ELO_MIN);
    r = search(&e, "go depth 40");
    assert_true(r.max_nodes <= (long long)skill_nodes(skill_level_of_elo(SKILL_ELO_MIN)) + 64);
    assert_true(r.max_depth <= skill_depth(skill_level_of_elo(SKILL_ELO_MIN)));
    /* Analysis is never weakened. */
    eng_send(&e, "go infinite");
    eng_expect(&e, "info depth 8 ", T60s, NULL, 0);
    eng_send(&e, "stop");
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The bestmoves of a level over a few positions of one game. */
static void play_positions(const char *level, char best[][64], int n) {
    static const char *const Moves[] = {"", " moves h2e2", " moves h2e2 h9g7", " moves h2e2 h9g7 h0g2",
                                        " moves h2e2 h9g7 h0g2 i9h9", " moves h2e2 h9g7 h0g2 i9h9 i0h0"};
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption level %s", level);
    eng_send(&e, "setoption usebook false");
    for (int i = 0; i < n; i++) {
        eng_send(&e, "position startpos%s", Moves[i % 6]);
        snprintf(best[i], 64, "%s", search(&e, "go time 600 increment 1").best);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void same_commands_same_moves(void **state) {
    (void)state;
    enum { N = 6 };
    char a[N][64], b[N][64];
    play_positions("4", a, N);
    play_positions("4", b, N);
    for (int i = 0; i < N; i++) assert_string_equal(a[i], b[i]);
}

/* The final info line and bestmove of `go depth 7` on a few positions. */
static void full_strength_run(Engine *e, char out[][ENG_LINE + 64], int n) {
    static const char *const Fens[] = {MIDDLEGAME, "startpos", "fen 3k5/9/9/9/9/9/9/4R4/9/4K4 w"};
    for (int i = 0; i < n; i++) {
        eng_send(e, "ucinewgame");
        eng_send(e, "position %s%s", i == 0 ? "fen " : "", Fens[i % 3]);
        SearchResult r = search(e, "go depth 7");
        /* nodes and pv, not time */
        snprintf(out[i], ENG_LINE + 64, "%lld %s | %s", field(r.last, " nodes "), strstr(r.last, " pv "), r.best);
    }
}

static void full_strength_is_untouched(void **state) {
    (void)state;
    enum { N = 3 };
    char fresh[N][ENG_LINE + 64], back[N][ENG_LINE + 64];
    Engine e;
    eng_start_dialect(&e, "uci");
    full_strength_run(&e, fresh, N);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Skill Level value 3");
    eng_send(&e, "setoption name UCI_LimitStrength value true");
    eng_send(&e, "setoption name Randomness value medium");
    eng_send(&e, "setoption name Skill Level value 20");
    eng_send(&e, "setoption name UCI_LimitStrength value false");
    eng_send(&e, "setoption name Randomness value none");
    full_strength_run(&e, back, N);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    for (int i = 0; i < N; i++) assert_string_equal(fresh[i], back[i]);
}

/* UCCI score of `go depth 3` in pos with `setoption name value`. */
static long long score_with(const char *pos, const char *name, const char *value) {
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption %s %s", name, value);
    eng_send(&e, "position fen %s", pos);
    SearchResult r = search(&e, "go depth 3");
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    return field(r.last, " score ");
}

static void style_is_the_draw_score(void **state) {
    (void)state;
    /* Every move reaches the no-capture limit: the draw scores -contempt. */
    assert_int_equal(score_with(LAST_PLY_BEFORE_DRAW, "style", "normal"), 0);
    assert_int_equal(score_with(LAST_PLY_BEFORE_DRAW, "style", "solid"), -grade_contempt(STYLE_SOLID));
    assert_int_equal(score_with(LAST_PLY_BEFORE_DRAW, "style", "risky"), -grade_contempt(STYLE_RISKY));
}

/* The depth of the pruning grades' searches: 5 over fifteen positions
 * costs what 7 over three did (about 0.3 M nodes for the four grades) and
 * separates the grades more surely. */
enum { PRUNING_TEST_DEPTH = 5 };

/* Nodes of `go depth PRUNING_TEST_DEPTH` summed over fifteen positions at
 * a pruning grade. Three positions at depth 7 were too few: with the
 * generation-11 net `medium` searched 6 % fewer nodes than `large` on them
 * (13,214 against 12,422) and 30-60 % more on the twelve opening positions
 * below, as every net tried does; a grade's effect is a property of many
 * trees, not of one. At depth 5 on all fifteen, with generations 7, 9 and
 * 11: medium 1.5-2.2 times large, small 2.0-2.4 times medium, none 3.1-3.8
 * times small. */
static long long nodes_at_depth(const char *pruning) {
    static const char *const Fens[] = {
        MIDDLEGAME,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bakab2/r2r5/1cn1c1n2/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKABR1 w - - 0 1",
        /* every 997th line of tests/data/openings/xiangqi.epd from the first */
        "1Cbakabnr/9/rc5c1/p1p1p1p1p/9/2P6/P3P1P1P/7C1/9/RNBAKABNR b - - 0 1",
        "1nbakabnr/r8/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/1C4NC1/9/RNBAKAB1R b - - 0 1",
        "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/8R/RNBAKAB2 b - - 0 1",
        "r1bakabnr/9/nc5c1/p1p1p1p1p/9/9/P1P1P1P1P/C6C1/4A4/RNB1KABNR b - - 0 1",
        "rn1akabnr/9/1c2b2c1/p1p1p1p1p/9/9/P1P1P1P1P/R1C4C1/9/1NBAKABNR b - - 0 1",
        "rnb1kabnr/4a4/1c5c1/p1p1p1p1p/1C7/9/P1P1P1P1P/C8/9/RNBAKABNR b - - 0 1",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1C2N2/9/RNBAKAB1R b - - 0 1",
        "rnbak1bnr/4a4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C1NC1/9/RNBAKAB1R b - - 0 1",
        "rnbaka1nr/9/1c2b2c1/p1p1p1p1p/9/P8/2P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/1C7/P1P1P1P1P/7C1/8R/RNBAKABN1 b - - 0 1",
        "rnbakab1r/9/1c5cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C3N/9/RNBAKAB1R b - - 0 1",
        "rnbakabn1/8r/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4N1C/9/RNBAKAB1R b - - 0 1",
    };
    Engine e;
    long long total = 0;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption pruning %s", pruning);
    for (size_t i = 0; i < sizeof Fens / sizeof Fens[0]; i++) {
        eng_send(&e, "setoption newgame");
        eng_send(&e, "position fen %s", Fens[i]);
        char go[32];
        snprintf(go, sizeof go, "go depth %d", PRUNING_TEST_DEPTH);
        total += field(search(&e, go).last, " nodes ");
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
    return total;
}

static void less_pruning_searches_more_nodes(void **state) {
    (void)state;
    long long large = nodes_at_depth("large"), medium = nodes_at_depth("medium");
    long long small = nodes_at_depth("small"), none = nodes_at_depth("none");
    print_message("depth %d nodes: pruning large %lld, medium %lld, small %lld, none %lld\n", PRUNING_TEST_DEPTH,
                  large, medium, small, none);
    assert_true(medium > large);
    assert_true(small > medium);
    assert_true(none > small);
}

static void knowledge_and_idle_change_what_they_say(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption knowledge none");
    eng_send(&e, "position startpos moves h2h9");
    eng_send(&e, "eval");
    eng_expect(&e, "info message evaluate() ", T5s, line, sizeof line);
    assert_non_null(strstr(line, "knowledge none"));
    /* Material only: a horse up for Red, Black to move. */
    assert_true(field(line, "evaluate() ") < -50);
    /* idle only slows the search: the same depth-limited answer. */
    eng_send(&e, "setoption knowledge large");
    eng_send(&e, "position fen " MIDDLEGAME);
    SearchResult busy = search(&e, "go depth 6");
    eng_send(&e, "setoption newgame");
    eng_send(&e, "position fen " MIDDLEGAME);
    eng_send(&e, "setoption idle large");
    SearchResult idle = search(&e, "go depth 6");
    assert_string_equal(busy.best, idle.best);
    assert_int_equal(field(busy.last, " nodes "), field(idle.last, " nodes "));
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void randomness_shows_one_line(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name Randomness value large");
    eng_send(&e, "position fen " MIDDLEGAME);
    SearchResult r = search(&e, "go depth 6");
    assert_int_equal(r.max_depth, 6);
    assert_int_equal(r.lines_with_multipv_above_1, 0);
    assert_non_null(strstr(r.best, "bestmove "));
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

int main(void) {
    T5s = eng_slow(5000);
    T60s = eng_slow(60000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uci_lists_the_strength_options),
        cmocka_unit_test(ucci_lists_the_grades),
        cmocka_unit_test(bad_values_get_one_error_line),
        cmocka_unit_test(low_levels_search_little),
        cmocka_unit_test(same_commands_same_moves),
        cmocka_unit_test(full_strength_is_untouched),
        cmocka_unit_test(style_is_the_draw_score),
        cmocka_unit_test(less_pruning_searches_more_nodes),
        cmocka_unit_test(knowledge_and_idle_change_what_they_say),
        cmocka_unit_test(randomness_shows_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
