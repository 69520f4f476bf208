// SPDX-License-Identifier: GPL-3.0-or-later
/* The engine on a win that rests on the repetition rules: KRKN's worked
 * example (docs/egtb.md), index 15044, where White wins only because
 * Black's one way on is a perpetual check (DTC order 1). With the KRKN
 * tables the engine must score it as a table win (never a mate) and play
 * the one move that keeps it, also when the root repeats a position of a
 * cycle Black's checks made, but not after a cycle in which Black did not
 * check; the loser must keep to its checks; and,
 * played out by tuong-match (engine against engine, both with the
 * tables), the referee must award White the game by Black's perpetual
 * check within the move limit, whose no-capture count the bound on the
 * game's length (the region the loser can reach) must fit. And a plain
 * (order-0) win whose shortest
 * move would repeat a position the judge calls drawn keeps a longer win.
 * With a repetition already on the board an order-0 value (KRKN, KNKP)
 * stands where no later occurrence of the repeated positions can turn it
 * (a draw whose side to move was idle in the cycle, a win whose line does
 * not pass them) and is left to the search where one can. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egtb/egtb_index.h"
#include "egtb/egtb_probe.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "egtb_xq.h"
#include "engine_proc.h"
#include "fen.h"
#include "score.h"
#include "search_shared.h"

#define EXAMPLE_FEN "9/9/5k3/9/9/1R7/9/4K4/9/3n5 w - - 0 1"
#define EXAMPLE_AFTER_KD2 "9/9/5k3/9/9/1R7/9/3K5/9/3n5 b - - 0 1"
/* The only move that keeps the win (Ke1 loses to the fork Nc2+), and
 * Black's only move that does not lose at once (every other is an order-0
 * loss; the loser keeps to the rule-settled line). */
#define KEEPS_THE_WIN "e2d2"
#define KEEPS_CHECKING "d0f1"
/* From 15044 and back: Kd2 Nf1+ Ke2 Nd0+, every Black move a check. */
#define BLACK_CHECKS_ROUND " moves e2d2 d0f1 d2e2 f1d0"

#define TABLES_LOADED "info string endgame tables: 5 with WDL, 5 with DTC"

static EgtbSet Set;
static char Dir[64];
static int T5s;

static int setup(void **state) {
    (void)state;
    engine_init();
    T5s = eng_slow(5000);
    snprintf(Dir, sizeof Dir, "/tmp/tuong-egtb-rule-play-XXXXXX");
    if (!mkdtemp(Dir)) return -1;
    static const char *const names[] = {"KRK", "KNK", "KPK", "KRKN", "KNKP"};
    enum { NAMES = sizeof names / sizeof names[0] };
    egtb_set_init(&Set, "");
    if (!egtb_test_build(&Set, names, NAMES, 2)) return -1;
    for (int i = 0; i < NAMES; i++) {
        char err[256];
        EgtbTable *t = egtb_test_table(&Set, names[i]);
        if (!egtb_xq_write_wdl(t, Dir, err, sizeof err) || !egtb_xq_write_dtc(t, Dir, err, sizeof err)) {
            fprintf(stderr, "writing %s: %s\n", names[i], err);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    egtb_set_free(&Set);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", Dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Read to bestmove; its move into best, the last info line's score into
 * *cp (false in *mate when it was a mate score). */
static void read_best(Engine *e, char *best, int *cp, bool *mate) {
    char line[ENG_LINE];
    *cp = 0;
    *mate = false;
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        const char *sc = strstr(line, " score ");
        if (sc) {
            *mate = !strncmp(sc + 7, "mate ", 5);
            *cp = atoi(sc + 7 + (*mate ? 5 : 3));
        }
        if (!strncmp(line, "bestmove ", 9)) break;
    }
    sscanf(line + 9, "%15s", best);
}

static bool is_table_win(int cp) { return cp >= SCORE_TB_WIN_IN_MAX && cp <= SCORE_TB_WIN; }

/* The engine at `position` searching `go`: its move must be `want` and
 * its score a table win (win) or loss (!win), in the band, not a mate. */
static void expect_table_move(Engine *e, const char *position, const char *go, const char *want, bool win) {
    char best[16];
    int cp;
    bool mate;
    eng_send(e, "position %s", position);
    eng_send(e, "go %s", go);
    read_best(e, best, &cp, &mate);
    if (strcmp(best, want)) fail_msg("%s, go %s: bestmove %s, want %s", position, go, best, want);
    if (mate || !is_table_win(win ? cp : -cp))
        fail_msg("%s, go %s: score %s %d, want a table %s", position, go, mate ? "mate" : "cp", cp,
                 win ? "win" : "loss");
}

/* 15044 scores a table win and plays Kd2, at depth 1 (the root ranking
 * alone) and at depth 8 (where the search sees Black's checks and, once
 * they repeat, the judge's verdict as a mate); from 15043 Black keeps
 * checking and scores a table loss. UCI. */
static void test_rule_win_scored_and_kept(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, TABLES_LOADED, T5s, NULL, 0);
    expect_table_move(&e, "fen " EXAMPLE_FEN, "depth 1", KEEPS_THE_WIN, true);
    expect_table_move(&e, "fen " EXAMPLE_FEN, "depth 8", KEEPS_THE_WIN, true);
    expect_table_move(&e, "fen " EXAMPLE_AFTER_KD2, "depth 1", KEEPS_CHECKING, false);
    expect_table_move(&e, "fen " EXAMPLE_AFTER_KD2, "depth 6", KEEPS_CHECKING, false);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The root repeats 15044 after a round of Black's checks: the cycle on the
 * board, judged as the referee judges it, is Black's perpetual check, so
 * the table's rule win still stands (the third occurrence will end the
 * game in White's favour). UCI. */
static void test_rule_win_through_a_repetition(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, TABLES_LOADED, T5s, NULL, 0);
    expect_table_move(&e, "fen " EXAMPLE_FEN BLACK_CHECKS_ROUND, "depth 1", KEEPS_THE_WIN, true);
    expect_table_move(&e, "fen " EXAMPLE_FEN BLACK_CHECKS_ROUND, "depth 8", KEEPS_THE_WIN, true);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* A cycle on the board in which Black did not check: from 15044 Kd2, Black
 * idles with its king (Kf8, a loss by the table), White too (Kd1), and
 * both come back (Kf7, Kd2: 15043 again, a repetition the judge calls a
 * draw), then Nf1+. The table says White wins here (order 1), but the
 * referee judges a cycle from its first occurrence, and the table's line
 * leads back through 15043, whose cycle now holds Black's idle moves: a
 * draw, not Black's perpetual check. So no table score: the search
 * decides (and calls it a draw). */
static void test_rule_win_not_claimed_after_an_idle_cycle(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, TABLES_LOADED, T5s, NULL, 0);
    static const char *const Go[] = {"depth 1", "depth 8"};
    for (int i = 0; i < 2; i++) {
        char best[16];
        int cp;
        bool mate;
        eng_send(&e, "position fen " EXAMPLE_FEN " moves e2d2 f7f8 d2d1 f8f7 d1d2 d0f1");
        eng_send(&e, "go %s", Go[i]);
        read_best(&e, best, &cp, &mate);
        if (mate || is_table_win(cp)) fail_msg("go %s: score %s %d after a drawn cycle", Go[i], mate ? "mate" : "cp", cp);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* A KRKN position, order 0, whose one shortest win (Ra6-e6, to a Black
 * loss of v = 9) goes back to the position the game started from: the
 * game was Ke9-f9, Re6-a6, Kf9-e9 (idle moves both). That repetition, for
 * the judge a draw, is worth no more than a draw, so the root ranking
 * keeps the next shortest wins instead, still scored as a table win;
 * unless they no longer fit the move limit. */
#define REPEATING_START "4k4/9/9/4R4/9/9/8n/3K5/9/9 b - - 1 1"
#define REPEATING_GAME " moves e9f9 e6a6 f9e9"
#define REPEATING_MOVE "a6e6"
static void test_table_win_avoids_a_drawn_repetition(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, TABLES_LOADED, T5s, NULL, 0);
    static const char *const Go[] = {"depth 1", "depth 6"};
    for (int i = 0; i < 2; i++) {
        char best[16];
        int cp;
        bool mate;
        eng_send(&e, "position fen " REPEATING_START REPEATING_GAME);
        eng_send(&e, "go %s", Go[i]);
        read_best(&e, best, &cp, &mate);
        if (!strcmp(best, REPEATING_MOVE)) fail_msg("go %s: %s repeats the start, a draw for the judge", Go[i], best);
        if (mate || !is_table_win(cp)) fail_msg("go %s: score %s %d, want a table win", Go[i], mate ? "mate" : "cp", cp);
    }
    /* With the no-capture count 107 at the start (110 at the root) the
     * root's v - 1 = 9 plies still fit the 120-ply limit, the longer wins
     * left (v = 11) do not: no table score. */
    char best[16];
    int cp;
    bool mate;
    eng_send(&e, "position fen 4k4/9/9/4R4/9/9/8n/3K5/9/9 b - - 107 1" REPEATING_GAME);
    eng_send(&e, "go depth 1");
    read_best(&e, best, &cp, &mate);
    if (!mate && is_table_win(cp)) fail_msg("count 110: score cp %d, a table win past the limit", cp);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The bound on a rule-settled win's length (search_tb.c,
 * tb_rule_win_plies), in process on the test's files. From 15044, the
 * winner keeping to the table's line and the loser playing anything, 7
 * positions of order 1 are reachable (docs/egtb.md, "Rule-settled values
 * in play"): the loser can spend at most two visits on each before a third
 * occurrence ends the game, 14 plies, and then step out of the cycle into
 * an order-0 loss instead, the longest Nc2 at 15043 (White's win v = 10:
 * 10 plies more to the capture). 14 + 10 = 24, where the fixed allowance
 * it replaces claimed v - 1 + 40 = 41. And every rule-settled position of
 * KRKN gets a bound (no table missing, no region past the cap), at least
 * its v plies to the rule loss and the referee's verdict beyond. */
#define EXAMPLE_BOUND 24
/* The test's tables loaded in process, pos the worked example's root. */
static void load_the_example(Position *pos) {
    assert_true(egtb_load(Dir, NULL, NULL) > 0);
    char err[128];
    assert_true(fen_parse(pos, EXAMPLE_FEN, err, sizeof err));
}

static void test_rule_win_bound(void **state) {
    (void)state;
    Position pos;
    load_the_example(&pos);
    int plies = -1;
    assert_true(tb_rule_win_plies(&pos, &plies));
    assert_int_equal(plies, EXAMPLE_BOUND);
    EgtbTable *t = egtb_test_table(&Set, "KRKN");
    int rule_settled = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            EgtbDtc d;
            if (!egtb_table_order(t, c, i) || !egtb_decode(&t->lay, i, (Color)c, &pos)) continue;
            if (!egtb_probe_dtc(&pos, &d) || d.order == 0) continue;
            if (!tb_rule_win_plies(&pos, &plies)) fail_msg("KRKN %d/%llu: no bound", c, (unsigned long long)i);
            if (plies < d.v) fail_msg("KRKN %d/%llu: bound %d below v %d", c, (unsigned long long)i, plies, d.v);
            rule_settled++;
        }
    assert_int_equal(rule_settled, 312 + 315 + 970); /* docs/egtb.md, the table of rule-settled counts */
    egtb_unload();
}

/* A region past the cap gives no bound, never a short one: the worked
 * example's region is 7 positions (the bound 2 x 7 + 10 above), so a cap
 * of 7 still bounds it at 24 and a cap of 6 gives none, which leaves the
 * root to the search (value_fits_move_limit). The engine's cap (4096)
 * holds every KRKN region, as the test above shows; no table built here
 * has a region past it. */
#define EXAMPLE_REGION 7
static void test_rule_win_bound_past_the_cap(void **state) {
    (void)state;
    Position pos;
    load_the_example(&pos);
    int plies = -1;
    assert_true(tb_rule_win_plies_within(&pos, EXAMPLE_REGION, &plies));
    assert_int_equal(plies, EXAMPLE_BOUND);
    plies = -1;
    assert_false(tb_rule_win_plies_within(&pos, EXAMPLE_REGION - 1, &plies));
    assert_int_equal(plies, -1);
    assert_false(tb_rule_win_plies_within(&pos, 1, &plies));
    assert_true(tb_rule_win_plies(&pos, &plies)); /* the static region is reset by each call */
    assert_int_equal(plies, EXAMPLE_BOUND);
    egtb_unload();
}

/* The same root with the no-capture count so high that the bound on the
 * rule win (24 plies, above) no longer fits the 120-ply limit: the root
 * ranking leaves it to the search, which reports no table score (the move
 * limit might draw the game first); one ply lower it still does. The
 * fixed allowance this bound replaced gave up the win from 80 on. */
static void test_rule_win_near_the_move_limit(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, TABLES_LOADED, T5s, NULL, 0);
    expect_table_move(&e, "fen 9/9/5k3/9/9/1R7/9/4K4/9/3n5 w - - 96 1", "depth 1", KEEPS_THE_WIN, true);
    char best[16];
    int cp;
    bool mate;
    eng_send(&e, "position fen 9/9/5k3/9/9/1R7/9/4K4/9/3n5 w - - 97 1");
    eng_send(&e, "go depth 1");
    read_best(&e, best, &cp, &mate);
    if (!mate && is_table_win(cp)) fail_msg("rule60 97: score cp %d, a table win past the limit", cp);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* An engine speaking UCI with the test's tables loaded. */
static void start_with_tables(Engine *e) {
    eng_start_dialect(e, "uci");
    eng_send(e, "setoption name EGTBPath value %s", Dir);
    eng_expect(e, TABLES_LOADED, T5s, NULL, 0);
}

static void stop_engine(Engine *e) {
    eng_send(e, "quit");
    assert_int_equal(eng_wait(e, T5s), 0);
    eng_finish(e);
}

static bool is_one_of(const char *move, const char *const *moves, int count) {
    for (int i = 0; i < count; i++)
        if (!strcmp(move, moves[i])) return true;
    return false;
}

/* KNKP, order 0, drawn with Black to move (pawn c3, horse d5): Black's
 * pawn and White's horse went round a cycle (c3b3 d5e3 b3c3 e3d5, the
 * start again), idle both, then Ke8-d8 Kd0-e0. The repetition on the board
 * can never be judged against Black, idle in it for good, so the table
 * keeps the draw: a pawn move (the king's moves lose), scored as a draw,
 * not the search's material count (cp -60 at depth 1 when the search
 * decided alone). UCI. */
#define IDLE_DRAW_START "9/4k4/9/9/3N5/9/2p6/9/9/3K5 b - - 0 1"
#define IDLE_DRAW_GAME " moves c3b3 d5e3 b3c3 e3d5 e8d8 d0e0"
static void test_table_draw_kept_after_an_idle_repetition(void **state) {
    (void)state;
    Engine e;
    start_with_tables(&e);
    static const char *const Draws[] = {"c3c2", "c3b3", "c3d3"};
    static const char *const Go[] = {"depth 1", "depth 8"};
    for (int i = 0; i < 2; i++) {
        char best[16];
        int cp;
        bool mate;
        eng_send(&e, "position fen " IDLE_DRAW_START IDLE_DRAW_GAME);
        eng_send(&e, "go %s", Go[i]);
        read_best(&e, best, &cp, &mate);
        if (!is_one_of(best, Draws, 3)) fail_msg("go %s: bestmove %s, not a table draw", Go[i], best);
        if (mate || cp != 0) fail_msg("go %s: score %s %d, want the table's draw", Go[i], mate ? "mate" : "cp", cp);
    }
    stop_engine(&e);
}

/* The root moves the engine searched at `go`, MultiPV set to their
 * number or more: the first move of every line it reported. */
static int searched_moves(Engine *e, const char *position, const char *go, char moves[][16], int max) {
    char line[ENG_LINE];
    int count = 0;
    eng_send(e, "position %s", position);
    eng_send(e, "go %s", go);
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        if (!strncmp(line, "bestmove ", 9)) break;
        const char *pv = strstr(line, " pv ");
        char move[16];
        if (!pv || !strstr(line, " multipv ") || sscanf(pv + 4, "%15s", move) != 1) continue;
        bool seen = false;
        for (int i = 0; i < count; i++) seen = seen || !strcmp(moves[i], move);
        if (!seen && count < max) strcpy(moves[count++], move);
    }
    return count;
}

/* KNKP, order 0, drawn with White to move: the horse went round a cycle
 * chasing the unprotected pawn with every move (b4d5 attacks c3, the pawn
 * steps to d3; d5b4 attacks d3, the pawn steps back), Black idle. Were
 * White to keep chasing into the position's third occurrence, the referee
 * would judge the cycle from its first occurrence and White would lose:
 * the table's draw no longer stands on its own, so the root is left to the
 * search, which searches every move, the table's losses (b4d3, b4c2)
 * too. UCI, MultiPV. */
#define CHASE_DRAW_START "9/4k4/9/9/9/1N7/2p6/9/9/3K5 w - - 0 1"
#define CHASE_DRAW_GAME " moves b4d5 c3d3 d5b4 d3c3"
static void test_table_draw_left_to_the_search_after_own_chase(void **state) {
    (void)state;
    Engine e;
    start_with_tables(&e);
    eng_send(&e, "setoption name MultiPV value 16");
    char moves[16][16];
    int n = searched_moves(&e, "fen " CHASE_DRAW_START CHASE_DRAW_GAME, "depth 1", moves, 16);
    static const char *const TableLosses[] = {"b4d3", "b4c2"};
    for (int i = 0; i < 2; i++) {
        bool searched = false;
        for (int j = 0; j < n; j++) searched = searched || !strcmp(moves[j], TableLosses[i]);
        if (!searched) fail_msg("%s not searched (%d moves): the table ranked the root", TableLosses[i], n);
    }
    stop_engine(&e);
}

/* KRKN, order 0, won in 5 (Ra5-e5+, the one shortest move): White and
 * Black idled round a cycle back to the root (Ra5-b5 Ke8-e7 Rb5-a5
 * Ke7-e8). The one repeated position, the root, is not on the table's
 * line (every position there is nearer the conversion), so the line can
 * bring no third occurrence: the table's win and move stand (the search
 * alone scored cp 200 or so). UCI. */
#define OFF_LINE_START "9/4k4/9/9/R8/9/9/5n3/9/3K5 w - - 0 1"
#define OFF_LINE_GAME " moves a5b5 e8e7 b5a5 e7e8"
#define SHORTEST_WIN "a5e5"
static void test_table_win_kept_past_an_off_line_repetition(void **state) {
    (void)state;
    Engine e;
    start_with_tables(&e);
    expect_table_move(&e, "fen " OFF_LINE_START OFF_LINE_GAME, "depth 1", SHORTEST_WIN, true);
    expect_table_move(&e, "fen " OFF_LINE_START OFF_LINE_GAME, "depth 8", SHORTEST_WIN, true);
    stop_engine(&e);
}

/* The same root reached otherwise: the game started at the position
 * after Ra5-e5+ Ke8-f8 (White to move, won in 3), went round a cycle back
 * to it (Re5-d5 Kf8-f7 Rd5-e5 Kf7-f8), then Re5-a5 Kf8-e8. The table's one
 * shortest move, Ra5-e5+, lets Black answer Ke8-f8 into that position's
 * third occurrence, which the referee judges from its first: both sides
 * idle, a draw. So no table score: the search decides, and at depth 8 sees
 * the repetition and plays another move. UCI. */
#define ON_LINE_START "9/5k3/9/9/4R4/9/9/5n3/9/3K5 w - - 0 1"
#define ON_LINE_GAME " moves e5d5 f8f7 d5e5 f7f8 e5a5 f8e8"
static void test_table_win_left_to_the_search_when_its_line_meets_a_repetition(void **state) {
    (void)state;
    Engine e;
    start_with_tables(&e);
    static const char *const Go[] = {"depth 1", "depth 8"};
    for (int i = 0; i < 2; i++) {
        char best[16];
        int cp;
        bool mate;
        eng_send(&e, "position fen " ON_LINE_START ON_LINE_GAME);
        eng_send(&e, "go %s", Go[i]);
        read_best(&e, best, &cp, &mate);
        if (!mate && is_table_win(cp)) fail_msg("go %s: score cp %d, a table win through a third occurrence", Go[i], cp);
        if (i == 1 && !strcmp(best, SHORTEST_WIN)) fail_msg("go %s: %s lets Black repeat a third time", Go[i], best);
    }
    stop_engine(&e);
}

/* tuong-match plays 15044 out, Tuong against itself with the tables on
 * both sides, each colour once (node-limited, so the games do not depend
 * on the machine's load): the referee (threefold repetition, the cycle
 * judged by engine/repetition.c) gives White both games for Black's
 * perpetual check, within the no-capture limit, and White's first move
 * was scored as a table win. */
static void test_played_out_referee_awards_the_rule_win(void **state) {
    (void)state;
    char epd[128], pgn[128], cmd[2048];
    static char out[1 << 16], text[1 << 16];
    snprintf(epd, sizeof epd, "%s/example.epd", Dir);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", Dir);
    FILE *f = fopen(epd, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", EXAMPLE_FEN);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "%s/tuong-match -engine name=a cmd=%s -engine name=b cmd=%s -each proto=uci option.EGTBPath=%s "
             "-openings %s -games 2 -nodes 20000 -nocapture 120 -pgnout %s 2>&1",
             TUONG_BUILD_DIR, TUONG_BINARY, TUONG_BINARY, Dir, epd, pgn);
    int rc = run_command(cmd, out, sizeof out);
    if (rc != 0) fail_msg("tuong-match failed (%d):\n%s", rc, out);
    if (!strstr(out, "2  perpetual check by Black")) fail_msg("not both won by Black's perpetual check:\n%s", out);
    f = fopen(pgn, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    int games = 0;
    for (const char *p = text; (p = strstr(p, "\n1. " KEEPS_THE_WIN " {+")); p++) {
        int cp = atoi(p + strlen("\n1. " KEEPS_THE_WIN " {+"));
        if (!is_table_win(cp)) fail_msg("White's first move scored %d, not a table win:\n%s", cp, text);
        games++;
    }
    assert_int_equal(games, 2);
    assert_int_equal(strstr(text, "[Result \"1-0\"]") != NULL, 1);
    assert_null(strstr(text, "[Result \"1/2-1/2\"]"));
    assert_null(strstr(text, "[Result \"0-1\"]"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_win_scored_and_kept),
        cmocka_unit_test(test_rule_win_through_a_repetition),
        cmocka_unit_test(test_rule_win_not_claimed_after_an_idle_cycle),
        cmocka_unit_test(test_rule_win_bound),
        cmocka_unit_test(test_rule_win_bound_past_the_cap),
        cmocka_unit_test(test_rule_win_near_the_move_limit),
        cmocka_unit_test(test_table_win_avoids_a_drawn_repetition),
        cmocka_unit_test(test_table_draw_kept_after_an_idle_repetition),
        cmocka_unit_test(test_table_draw_left_to_the_search_after_own_chase),
        cmocka_unit_test(test_table_win_kept_past_an_off_line_repetition),
        cmocka_unit_test(test_table_win_left_to_the_search_when_its_line_meets_a_repetition),
        cmocka_unit_test(test_played_out_referee_awards_the_rule_win),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
