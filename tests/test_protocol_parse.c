// SPDX-License-Identifier: GPL-3.0-or-later
/* The pure protocol parser, line by line. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "protocol_parse.h"

static Command cmd;
static char err[256];

static ParseResult parse(const char *line) { return proto_parse(line, 0, &cmd, err, sizeof err); }

static Move mv(const char *text) { return move_from_text(text, 0); }

static void test_simple_commands(void **state) {
    (void)state;
    static const struct {
        const char *line;
        CommandType type;
    } Cases[] = {
        {"ucci", CMD_UCCI},
        {"uci", CMD_UCI},
        {"isready", CMD_ISREADY},
        {"stop", CMD_STOP},
        {"quit", CMD_QUIT},
        {"ucinewgame", CMD_NEWGAME},
        {"d", CMD_DISPLAY},
        {"eval", CMD_EVAL},
        {"help", CMD_HELP},
        {"ponderhit", CMD_PONDERHIT},
        {"", CMD_EMPTY},
        {"   \t ", CMD_EMPTY},
        {"\r", CMD_EMPTY},
        {"ISREADY", CMD_ISREADY},
        {"  IsReady \r", CMD_ISREADY},
        {"UCCI", CMD_UCCI},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        assert_int_equal(parse(Cases[i].line), PARSE_OK);
        assert_int_equal(cmd.type, Cases[i].type);
    }
}

static void test_unknown_command(void **state) {
    (void)state;
    assert_int_equal(parse("foo bar"), PARSE_ERROR);
    assert_int_equal(cmd.type, CMD_UNKNOWN);
    assert_non_null(strstr(err, "unknown command 'foo'"));
    /* A prefix of a command is not the command. */
    assert_int_equal(parse("isreadyx"), PARSE_ERROR);
    assert_int_equal(parse("go_depth"), PARSE_ERROR);
    /* Control bytes never reach the message raw. */
    assert_int_equal(parse("\x01\x02zz"), PARSE_ERROR);
    assert_null(strchr(err, '\x01'));
}

static void test_long_garbage_is_cut_in_message(void **state) {
    (void)state;
    size_t n = 100 * 1024;
    char *line = malloc(n + 1);
    memset(line, 'x', n);
    line[n] = '\0';
    assert_int_equal(parse(line), PARSE_ERROR);
    assert_true(strlen(err) < 100);
    free(line);
}

static void test_ponderhit_draw(void **state) {
    (void)state;
    assert_int_equal(parse("ponderhit draw"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_PONDERHIT);
    assert_true(cmd.u.draw);
    assert_int_equal(parse("ponderhit"), PARSE_OK);
    assert_false(cmd.u.draw);
    assert_int_equal(parse("PONDERHIT  DRAW\r"), PARSE_OK);
    assert_true(cmd.u.draw);
}

/* eval [classical]: anything else is a warning, and plain eval runs. */
static void test_eval_classical(void **state) {
    (void)state;
    assert_int_equal(parse("eval"), PARSE_OK);
    assert_false(cmd.u.eval_classical);
    assert_int_equal(parse("EVAL Classical\r"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_EVAL);
    assert_true(cmd.u.eval_classical);
    assert_int_equal(parse("eval nonsense"), PARSE_WARNING);
    assert_int_equal(cmd.type, CMD_EVAL);
    assert_false(cmd.u.eval_classical);
    assert_non_null(strstr(err, "eval: unknown argument 'nonsense'"));
}

static void test_position_startpos_moves(void **state) {
    (void)state;
    assert_int_equal(parse("position startpos moves h2e2 h9g7"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_POSITION);
    assert_true(cmd.u.position.startpos);
    assert_int_equal(cmd.u.position.move_count, 2);
    assert_int_equal(cmd.u.position.moves[0], mv("h2e2"));
    assert_int_equal(cmd.u.position.moves[1], mv("h9g7"));
    assert_int_equal(parse("  POSITION   StartPos   MOVES   H2E2  \r"), PARSE_OK);
    assert_int_equal(cmd.u.position.move_count, 1);
    assert_int_equal(cmd.u.position.moves[0], mv("h2e2"));
    assert_int_equal(parse("position startpos"), PARSE_OK);
    assert_int_equal(cmd.u.position.move_count, 0);
    assert_int_equal(parse("position startpos moves"), PARSE_OK);
    assert_int_equal(cmd.u.position.move_count, 0);
}

static void test_position_fen(void **state) {
    (void)state;
    assert_int_equal(parse("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves "
                           "h2e2"),
                     PARSE_OK);
    assert_false(cmd.u.position.startpos);
    assert_string_equal(cmd.u.position.fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_int_equal(cmd.u.position.move_count, 1);
    /* Tabs and runs of spaces collapse inside the FEN. */
    assert_int_equal(parse("position fen 4k4/9/9/9/9/9/9/9/9/4K4\t  b"), PARSE_OK);
    assert_string_equal(cmd.u.position.fen, "4k4/9/9/9/9/9/9/9/9/4K4 b");
    assert_int_equal(cmd.u.position.move_count, 0);
}

static void test_position_errors(void **state) {
    (void)state;
    assert_int_equal(parse("position"), PARSE_ERROR);
    assert_int_equal(parse("position fen"), PARSE_ERROR);
    assert_int_equal(parse("position fen moves h2e2"), PARSE_ERROR);
    assert_int_equal(parse("position somewhere"), PARSE_ERROR);
    assert_int_equal(parse("position startpos h2e2"), PARSE_ERROR);
    /* One malformed move rejects the whole command. */
    assert_int_equal(parse("position startpos moves h2e2 h9g7 zz99 a0a1"), PARSE_ERROR);
    assert_non_null(strstr(err, "zz99"));
    assert_non_null(strstr(err, "move 3"));
    assert_int_equal(parse("position startpos moves h2e2x"), PARSE_ERROR);
    assert_int_equal(parse("position startpos moves a0a0"), PARSE_ERROR);
    assert_int_equal(parse("position startpos moves j0a0"), PARSE_ERROR);
}

static void test_position_too_many_moves(void **state) {
    (void)state;
    size_t count = PROTO_MAX_MOVES + 1;
    char *line = malloc(32 + count * 5);
    strcpy(line, "position startpos moves");
    char *p = line + strlen(line);
    for (size_t i = 0; i < count; i++, p += 5)
        memcpy(p, i % 2 ? " b9c7" : " b0c2", 5);
    *p = '\0';
    assert_int_equal(parse(line), PARSE_ERROR);
    assert_non_null(strstr(err, "more than"));
    /* At the limit it is fine. */
    line[strlen("position startpos moves") + (count - 1) * 5] = '\0';
    assert_int_equal(parse(line), PARSE_OK);
    assert_int_equal(cmd.u.position.move_count, PROTO_MAX_MOVES);
    free(line);
}

static void test_fairy_rank_base(void **state) {
    (void)state;
    assert_int_equal(proto_parse("position startpos moves h3e3 a10a9", 1, &cmd, err, sizeof err), PARSE_OK);
    assert_int_equal(cmd.u.position.moves[0], mv("h2e2"));
    assert_int_equal(cmd.u.position.moves[1], mv("a9a8"));
    /* Rank 0 does not exist in that notation. */
    assert_int_equal(proto_parse("position startpos moves h0e0", 1, &cmd, err, sizeof err), PARSE_ERROR);
}

static void test_probe(void **state) {
    (void)state;
    assert_int_equal(parse("probe startpos moves h2e2"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_PROBE);
    assert_int_equal(cmd.u.position.move_count, 1);
    assert_int_equal(parse("probe"), PARSE_ERROR);
}

static void test_banmoves(void **state) {
    (void)state;
    assert_int_equal(parse("banmoves h2e2 b0c2"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_BANMOVES);
    assert_int_equal(cmd.u.banmoves.count, 2);
    assert_int_equal(cmd.u.banmoves.moves[1], mv("b0c2"));
    assert_int_equal(parse("banmoves"), PARSE_OK);
    assert_int_equal(cmd.u.banmoves.count, 0);
    assert_int_equal(parse("banmoves h2e2 what"), PARSE_ERROR);
}

static void test_setoption_ucci_form(void **state) {
    (void)state;
    assert_int_equal(parse("setoption usemillisec true"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_SETOPTION);
    assert_string_equal(cmd.u.option.name, "usemillisec");
    assert_string_equal(cmd.u.option.value, "true");
    assert_int_equal(parse("setoption bookfiles  a.obk;b c.obk  \r"), PARSE_OK);
    assert_string_equal(cmd.u.option.name, "bookfiles");
    assert_string_equal(cmd.u.option.value, "a.obk;b c.obk");
    assert_int_equal(parse("setoption newgame"), PARSE_OK);
    assert_string_equal(cmd.u.option.name, "newgame");
    assert_false(cmd.u.option.has_value);
    assert_int_equal(parse("setoption"), PARSE_ERROR);
}

static void test_setoption_uci_form(void **state) {
    (void)state;
    assert_int_equal(parse("setoption name Hash value 128"), PARSE_OK);
    assert_string_equal(cmd.u.option.name, "Hash");
    assert_string_equal(cmd.u.option.value, "128");
    assert_true(cmd.u.option.has_value);
    assert_int_equal(parse("SETOPTION NAME Move   Overhead VALUE 50"), PARSE_OK);
    assert_string_equal(cmd.u.option.name, "Move Overhead");
    assert_string_equal(cmd.u.option.value, "50");
    assert_int_equal(parse("setoption name Clear Hash"), PARSE_OK);
    assert_string_equal(cmd.u.option.name, "Clear Hash");
    assert_false(cmd.u.option.has_value);
    assert_int_equal(parse("setoption name"), PARSE_ERROR);
}

static void test_go_ucci(void **state) {
    (void)state;
    assert_int_equal(parse("go depth 8"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_GO);
    assert_int_equal(cmd.u.go.depth, 8);
    assert_false(cmd.u.go.ponder);
    assert_int_equal(parse("go ponder time 300 increment 2 opptime 250 oppincrement 3"), PARSE_OK);
    assert_true(cmd.u.go.ponder);
    assert_true(cmd.u.go.time == 300 && cmd.u.go.increment == 2);
    assert_true(cmd.u.go.opptime == 250 && cmd.u.go.oppincrement == 3);
    assert_int_equal(cmd.u.go.depth, -1);
    assert_int_equal(parse("go draw time 60.5 movestogo 20 opptime 70 oppmovestogo 21"), PARSE_OK);
    assert_true(cmd.u.go.draw);
    assert_true(cmd.u.go.time == 60.5);
    assert_int_equal(cmd.u.go.movestogo, 20);
    assert_int_equal(cmd.u.go.oppmovestogo, 21);
    assert_int_equal(parse("go nodes 100000"), PARSE_OK);
    assert_int_equal(cmd.u.go.nodes, 100000);
    assert_int_equal(parse("go infinite"), PARSE_OK);
    assert_true(cmd.u.go.infinite);
    assert_int_equal(parse("go depth 0"), PARSE_OK);
    assert_int_equal(cmd.u.go.depth, 0);
    assert_int_equal(parse("go"), PARSE_OK);
    assert_true(cmd.u.go.time < 0 && cmd.u.go.wtime < 0 && cmd.u.go.movetime < 0 && cmd.u.go.depth == -1);
}

static void test_go_uci(void **state) {
    (void)state;
    assert_int_equal(parse("go wtime 60000 btime 50000 winc 1000 binc 900 movestogo 30"), PARSE_OK);
    assert_int_equal(cmd.u.go.wtime, 60000);
    assert_int_equal(cmd.u.go.btime, 50000);
    assert_int_equal(cmd.u.go.winc, 1000);
    assert_int_equal(cmd.u.go.binc, 900);
    assert_int_equal(cmd.u.go.movestogo, 30);
    assert_int_equal(parse("go movetime 1500"), PARSE_OK);
    assert_int_equal(cmd.u.go.movetime, 1500);
    assert_int_equal(parse("go mate 3"), PARSE_OK);
    assert_int_equal(cmd.u.go.mate, 3);
    assert_int_equal(parse("go wtime -300 btime 1000"), PARSE_OK); /* a flagged clock counts as 0 */
    assert_int_equal(cmd.u.go.wtime, 0);
    /* Negative times given must not read as "not given" (an unlimited search). */
    assert_int_equal(parse("go movetime -2"), PARSE_OK);
    assert_int_equal(cmd.u.go.movetime, 0);
    assert_int_equal(parse("go wtime -1 btime -1 winc -5"), PARSE_OK);
    assert_true(cmd.u.go.wtime == 0 && cmd.u.go.btime == 0 && cmd.u.go.winc == 0);
    assert_int_equal(parse("go time -5 increment -1 opptime -1"), PARSE_OK);
    assert_true(cmd.u.go.time == 0 && cmd.u.go.increment == 0 && cmd.u.go.opptime == 0);
    assert_int_equal(parse("go depth 5 searchmoves h2e2 b0c2"), PARSE_OK);
    assert_int_equal(cmd.u.go.depth, 5);
    assert_int_equal(cmd.u.go.searchmove_count, 2);
    assert_int_equal(cmd.u.go.searchmoves[1], mv("b0c2"));
    assert_int_equal(parse("go searchmoves h2e2 depth 3"), PARSE_OK);
    assert_int_equal(cmd.u.go.searchmove_count, 1);
    assert_int_equal(cmd.u.go.depth, 3);
}

static void test_go_ignores_bad_words_with_warning(void **state) {
    (void)state;
    assert_int_equal(parse("go depth 4 sideways"), PARSE_WARNING);
    assert_int_equal(cmd.type, CMD_GO);
    assert_int_equal(cmd.u.go.depth, 4);
    assert_non_null(strstr(err, "sideways"));
    assert_int_equal(parse("go depth x infinite"), PARSE_WARNING);
    assert_int_equal(cmd.u.go.depth, -1);
    assert_true(cmd.u.go.infinite);
    assert_int_equal(parse("go depth"), PARSE_WARNING);
    assert_int_equal(parse("go nodes -5"), PARSE_WARNING);
    assert_int_equal(parse("go time abc"), PARSE_WARNING);
    assert_true(cmd.u.go.time < 0);
    assert_int_equal(parse("go depth 99999999999999999999"), PARSE_WARNING);
}

static void test_perft_and_bench(void **state) {
    (void)state;
    assert_int_equal(parse("go perft 3"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_PERFT);
    assert_int_equal(cmd.u.depth, 3);
    assert_int_equal(parse("perft 2"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_PERFT);
    assert_int_equal(cmd.u.depth, 2);
    assert_int_equal(parse("go perft"), PARSE_ERROR);
    assert_int_equal(parse("perft -1"), PARSE_ERROR);
    assert_int_equal(parse("bench"), PARSE_OK);
    assert_int_equal(cmd.type, CMD_BENCH);
    assert_int_equal(cmd.u.depth, 0);
    assert_int_equal(parse("bench 7"), PARSE_OK);
    assert_int_equal(cmd.u.depth, 7);
    assert_int_equal(parse("bench deep"), PARSE_ERROR);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple_commands),
        cmocka_unit_test(test_unknown_command),
        cmocka_unit_test(test_long_garbage_is_cut_in_message),
        cmocka_unit_test(test_ponderhit_draw),
        cmocka_unit_test(test_eval_classical),
        cmocka_unit_test(test_position_startpos_moves),
        cmocka_unit_test(test_position_fen),
        cmocka_unit_test(test_position_errors),
        cmocka_unit_test(test_position_too_many_moves),
        cmocka_unit_test(test_fairy_rank_base),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_banmoves),
        cmocka_unit_test(test_setoption_ucci_form),
        cmocka_unit_test(test_setoption_uci_form),
        cmocka_unit_test(test_go_ucci),
        cmocka_unit_test(test_go_uci),
        cmocka_unit_test(test_go_ignores_bad_words_with_warning),
        cmocka_unit_test(test_perft_and_bench),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
