// SPDX-License-Identifier: GPL-3.0-or-later
/* Reply formatting, draw/resign verdicts and the robust line reader. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "protocol_format.h"
#include "protocol_reader.h"
#include "protocol_verdict.h"

static char buf[FORMAT_LINE_MAX];

static SearchInfo sample_info(Score score, Bound bound) {
    SearchInfo info = {.depth = 7,
                       .seldepth = 12,
                       .multipv = 1,
                       .score = score,
                       .bound = bound,
                       .nodes = 50000,
                       .time_ms = 250,
                       .hashfull = 17,
                       .pv_length = 2};
    info.pv[0] = move_from_text("h2e2", 0);
    info.pv[1] = move_from_text("h9g7", 0);
    return info;
}

static void test_info_uci(void **state) {
    (void)state;
    SearchInfo info = sample_info(35, BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info),
                        "info depth 7 seldepth 12 multipv 1 score cp 35 nodes 50000 nps 200000 hashfull 17 time 250 "
                        "pv h2e2 h9g7");
    info = sample_info(-12, BOUND_UPPER);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score cp -12 upperbound nodes"));
    info = sample_info(12, BOUND_LOWER);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score cp 12 lowerbound nodes"));
    /* Fairy-Stockfish ranks. */
    info = sample_info(0, BOUND_EXACT);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 1, &info), "pv h3e3 h10g8"));
}

/* With endgame tables in use: tbhits on the line in both dialects, and a
 * table win (or loss) printed as centipawns, never as a mate. */
static void test_info_tables(void **state) {
    (void)state;
    SearchInfo info = sample_info(SCORE_TB_WIN - 5, BOUND_EXACT);
    info.tables = true;
    info.tbhits = 1234;
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info),
                        "info depth 7 seldepth 12 multipv 1 score cp 29866 nodes 50000 nps 200000 hashfull 17 time 250 "
                        "tbhits 1234 pv h2e2 h9g7");
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score 29866 time 250 nodes 50000 nps 200000 tbhits 1234 pv h2e2 h9g7");
    info = sample_info(-(SCORE_TB_WIN - 2), BOUND_EXACT);
    info.tables = true;
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score cp -29869 nodes"));
    assert_true(score_is_decisive(SCORE_TB_WIN - MAX_PLY) && !score_is_mate(SCORE_TB_WIN));
    assert_true(SCORE_TB_WIN < SCORE_MATE_IN_MAX);
    /* No tables: no tbhits field. */
    info = sample_info(35, BOUND_EXACT);
    info.tbhits = 9;
    assert_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "tbhits"));
    assert_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info), "tbhits"));
}

static void test_info_uci_mate(void **state) {
    (void)state;
    SearchInfo info = sample_info(SCORE_MATE - 3, BOUND_EXACT); /* we mate at ply 3: 2 moves */
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score mate 2 nodes"));
    info = sample_info(-(SCORE_MATE - 4), BOUND_EXACT); /* mated at ply 4: -2 */
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score mate -2 nodes"));
    /* A repetition the side to move completes with its first move is lost at
     * ply 1 (search_tree.c rule_verdict): `mate -1`, never `mate 0`. */
    info = sample_info(-(SCORE_MATE - 1), BOUND_EXACT);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score mate -1 nodes"));
    /* A repetition the opponent completes with its first reply: won at ply 2. */
    info = sample_info(SCORE_MATE - 2, BOUND_EXACT);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score mate 1 nodes"));
    info = sample_info(-(SCORE_MATE - 3), BOUND_UPPER);
    assert_non_null(strstr(fmt_info(buf, sizeof buf, DIALECT_UCI, 0, &info), "score mate -2 upperbound nodes"));
}

/* Plies from the root to moves of the side to move, (p + 1) / 2 for both
 * signs: wins and losses at odd plies (mates given, forbidden repetitions
 * completed by the side to move) and at even plies (mates received,
 * repetitions completed by the opponent). */
static void test_score_mate_moves(void **state) {
    (void)state;
    static const struct {
        int ply, moves;
    } Cases[] = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}, {MAX_PLY - 1, MAX_PLY / 2}, {MAX_PLY, MAX_PLY / 2}};
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        int p = Cases[i].ply, n = Cases[i].moves;
        if (score_mate_moves(SCORE_MATE - p) != n)
            fail_msg("win at ply %d: mate %d, want %d", p, score_mate_moves(SCORE_MATE - p), n);
        if (score_mate_moves(-(SCORE_MATE - p)) != -n)
            fail_msg("loss at ply %d: mate %d, want %d", p, score_mate_moves(-(SCORE_MATE - p)), -n);
    }
    /* Every mate score maps to a nonzero count with the score's sign. */
    for (Score s = SCORE_MATE_IN_MAX; s <= SCORE_MATE; s++) {
        assert_true(score_mate_moves(s) >= 1);
        assert_true(score_mate_moves((Score)-s) <= -1);
    }
}

static void test_info_ucci(void **state) {
    (void)state;
    SearchInfo info = sample_info(35, BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score 35 time 250 nodes 50000 nps 200000 pv h2e2 h9g7");
    assert_string_equal(fmt_info_time(buf, sizeof buf, &info), "info time 250 nodes 50000");
    /* Mate scores stay plain integers in UCCI. */
    info = sample_info(SCORE_MATE - 3, BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score 29997 time 250 nodes 50000 nps 200000 pv h2e2 h9g7");
    /* Odd and even plies of both signs: the integer as the search gave it. */
    info = sample_info(-(SCORE_MATE - 1), BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score -29999 time 250 nodes 50000 nps 200000 pv h2e2 h9g7");
    info = sample_info(-(SCORE_MATE - 4), BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score -29996 time 250 nodes 50000 nps 200000 pv h2e2 h9g7");
    info = sample_info(SCORE_MATE - 2, BOUND_EXACT);
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score 29998 time 250 nodes 50000 nps 200000 pv h2e2 h9g7");
    /* No time yet, no pv: nps counts the nodes of a millisecond. */
    info = sample_info(12, BOUND_EXACT);
    info.time_ms = 0;
    info.nodes = 40;
    info.pv_length = 0;
    assert_string_equal(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info),
                        "info depth 7 score 12 time 0 nodes 40 nps 40000");
}

/* How XBoard's adapter uci2wb reads a UCCI info line (by H.G. Muller, GPL;
 * paraphrased): each keyword looked up anywhere on the line, and only a
 * line with " pv " shown, with the nodes of that same line (1 if absent). */
static void read_like_uci2wb(const char *line, int *depth, int *score, int *centis, int *nodes, const char **pv) {
    const char *p;
    *depth = *score = *centis = 0;
    *nodes = 1;
    if ((p = strstr(line + 4, " depth "))) sscanf(p + 7, "%d", depth);
    if ((p = strstr(line + 4, " score "))) sscanf(p + 7, "%d", score);
    if ((p = strstr(line + 4, " nodes "))) sscanf(p + 7, "%d", nodes);
    if ((p = strstr(line + 4, " time "))) {
        sscanf(p + 6, "%d", centis);
        *centis /= 10;
    }
    *pv = (p = strstr(line + 4, " pv ")) ? p + 4 : NULL;
}

static void test_info_ucci_read_by_guis(void **state) {
    (void)state;
    SearchInfo info = sample_info(-35, BOUND_EXACT);
    int depth, score, centis, nodes;
    const char *pv;
    read_like_uci2wb(fmt_info(buf, sizeof buf, DIALECT_UCCI, 0, &info), &depth, &score, &centis, &nodes, &pv);
    assert_int_equal(depth, 7);
    assert_int_equal(score, -35);
    assert_int_equal(centis, 25);
    assert_int_equal(nodes, 50000);
    assert_non_null(pv);
    assert_string_equal(pv, "h2e2 h9g7"); /* the pv is last: nothing else runs into it */
}

static void test_currmove(void **state) {
    (void)state;
    Move m = move_from_text("b0c2", 0);
    assert_string_equal(fmt_currmove(buf, sizeof buf, DIALECT_UCCI, 0, m, 3, 9), "info currmove b0c2");
    assert_string_equal(fmt_currmove(buf, sizeof buf, DIALECT_UCI, 0, m, 3, 9),
                        "info depth 9 currmove b0c2 currmovenumber 3");
}

static void test_bestmove(void **state) {
    (void)state;
    Move a = move_from_text("h2e2", 0), b = move_from_text("h9g7", 0);
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCCI, 0, a, b, VERDICT_NONE),
                        "bestmove h2e2 ponder h9g7");
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCCI, 0, a, MOVE_NONE, VERDICT_DRAW),
                        "bestmove h2e2 draw");
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCCI, 0, a, b, VERDICT_RESIGN),
                        "bestmove h2e2 ponder h9g7 resign");
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCCI, 0, MOVE_NONE, MOVE_NONE, VERDICT_NONE),
                        "nobestmove");
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCI, 0, MOVE_NONE, MOVE_NONE, VERDICT_NONE),
                        "bestmove (none)");
    /* UCI has no draw or resign tokens. */
    assert_string_equal(fmt_bestmove(buf, sizeof buf, DIALECT_UCI, 1, a, b, VERDICT_DRAW),
                        "bestmove h3e3 ponder h10g8");
}

static void test_pophash(void **state) {
    (void)state;
    ProbeResult r = {0};
    assert_string_equal(fmt_pophash(buf, sizeof buf, 0, &r), "pophash");
    r = (ProbeResult){.found = true, .move = move_from_text("h2e2", 0), .score = 40, .bound = BOUND_LOWER, .depth = 9};
    assert_string_equal(fmt_pophash(buf, sizeof buf, 0, &r), "pophash bestmove h2e2 lowerbound 40 depth 9");
    r.bound = BOUND_UPPER;
    r.move = MOVE_NONE;
    assert_string_equal(fmt_pophash(buf, sizeof buf, 0, &r), "pophash upperbound 40 depth 9");
    r.bound = BOUND_EXACT;
    assert_string_equal(fmt_pophash(buf, sizeof buf, 0, &r), "pophash lowerbound 40 depth 9 upperbound 40 depth 9");
}

static void test_verdicts(void **state) {
    (void)state;
    static Position rook_ending, full;
    must_parse(&rook_ending, "4k4/9/9/9/5r3/9/9/9/R8/3K5 w");
    must_parse(&full, START_FEN);
    VerdictRules rules = {.offer_draw = true, .resign = false};
    assert_true(verdict_low_material(&rook_ending));
    assert_false(verdict_low_material(&full));
    /* Accepting an offer: even or worse with little material, or mated. */
    assert_int_equal(verdict_decide(&rook_ending, 0, 3, true, &rules), VERDICT_DRAW);
    assert_int_equal(verdict_decide(&rook_ending, -80, 3, true, &rules), VERDICT_DRAW);
    assert_int_equal(verdict_decide(&rook_ending, 300, 3, true, &rules), VERDICT_NONE);
    assert_int_equal(verdict_decide(&full, 0, 3, true, &rules), VERDICT_NONE);
    assert_int_equal(verdict_decide(&full, -(SCORE_MATE - 5), 3, true, &rules), VERDICT_DRAW);
    /* Offering: dead even, deep enough, little material; never without the option. */
    assert_int_equal(verdict_decide(&rook_ending, 0, VERDICT_OFFER_DEPTH, false, &rules), VERDICT_DRAW);
    assert_int_equal(verdict_decide(&rook_ending, 0, VERDICT_OFFER_DEPTH - 1, false, &rules), VERDICT_NONE);
    assert_int_equal(verdict_decide(&rook_ending, 50, VERDICT_OFFER_DEPTH, false, &rules), VERDICT_NONE);
    assert_int_equal(verdict_decide(&full, 0, 20, false, &rules), VERDICT_NONE);
    rules.offer_draw = false;
    assert_int_equal(verdict_decide(&rook_ending, 0, 20, false, &rules), VERDICT_NONE);
    /* Resigning only when enabled and mated. */
    assert_int_equal(verdict_decide(&full, -(SCORE_MATE - 5), 6, false, &rules), VERDICT_NONE);
    rules.resign = true;
    assert_int_equal(verdict_decide(&full, -(SCORE_MATE - 5), 6, false, &rules), VERDICT_RESIGN);
    assert_int_equal(verdict_decide(&full, -900, 6, false, &rules), VERDICT_NONE);
}

/* Read lines from an in-memory stream. */
static FILE *stream_of(const char *data, size_t len) {
    FILE *f = fmemopen((void *)data, len, "r");
    assert_non_null(f);
    return f;
}

static void test_reader_lines(void **state) {
    (void)state;
    static const char data[] = "isready\r\n\nposition startpos\nlast";
    FILE *f = stream_of(data, sizeof data - 1);
    InputLine l = {0};
    assert_true(reader_next(f, &l));
    assert_string_equal(l.text, "isready\r");
    assert_true(reader_next(f, &l));
    assert_string_equal(l.text, "");
    assert_true(reader_next(f, &l));
    assert_string_equal(l.text, "position startpos");
    assert_true(reader_next(f, &l)); /* no newline before EOF */
    assert_string_equal(l.text, "last");
    assert_false(reader_next(f, &l));
    reader_free(&l);
    fclose(f);
}

static void test_reader_nul_and_long_lines(void **state) {
    (void)state;
    size_t big = 100 * 1024, huge = READER_LINE_MAX + 10;
    size_t len = 12 + big + 1 + huge + 1 + 8;
    char *data = malloc(len), *p = data;
    memcpy(p, "isr\0eady\nok\n", 12), p += 12;
    memset(p, 'a', big), p += big, *p++ = '\n';
    memset(p, 'b', huge), p += huge, *p++ = '\n';
    memcpy(p, "isready\n", 8), p += 8;
    FILE *f = stream_of(data, (size_t)(p - data));
    InputLine l = {0};
    assert_true(reader_next(f, &l));
    assert_true(l.has_nul);
    assert_int_equal(l.len, 8);
    assert_true(reader_next(f, &l));
    assert_false(l.has_nul);
    assert_string_equal(l.text, "ok");
    assert_true(reader_next(f, &l)); /* 100 KB: whole */
    assert_false(l.too_long);
    assert_int_equal(l.len, big);
    assert_true(reader_next(f, &l)); /* over the limit: dropped, flagged, one line */
    assert_true(l.too_long);
    assert_true(reader_next(f, &l));
    assert_string_equal(l.text, "isready");
    assert_false(reader_next(f, &l));
    reader_free(&l);
    fclose(f);
    free(data);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_uci),
        cmocka_unit_test(test_info_uci_mate),
        cmocka_unit_test(test_info_tables),
        cmocka_unit_test(test_score_mate_moves),
        cmocka_unit_test(test_info_ucci),
        cmocka_unit_test(test_info_ucci_read_by_guis),
        cmocka_unit_test(test_currmove),
        cmocka_unit_test(test_bestmove),
        cmocka_unit_test(test_pophash),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_reader_lines),
        cmocka_unit_test(test_reader_nul_and_long_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
