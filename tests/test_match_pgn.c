// SPDX-License-Identifier: GPL-3.0-or-later
/* PGN text: WXF move names and the tags of a written game. */
#include "test_support.h"

#include <stdio.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "pgn.h"

static Position Pos;

static void expect_wxf(const char *fen, const char *iccs, const char *wxf) {
    must_parse(&Pos, fen);
    char buf[8];
    assert_string_equal(pgn_wxf_move(&Pos, move_from_text(iccs, 0), buf), wxf);
}

static void wxf_names(void **state) {
    (void)state;
    expect_wxf(START_FEN, "h2e2", "C2.5");
    expect_wxf(START_FEN, "b0c2", "H8+7");
    expect_wxf(START_FEN, "i0i1", "R1+1");
    expect_wxf(START_FEN, "c0e2", "E7+5");
    expect_wxf(START_FEN, "f0e1", "A4+5");
    expect_wxf(START_FEN, "e3e4", "P5+1");
    expect_wxf(START_FEN, "e0e1", "K5+1");
    /* Black counts files from its own right: a = 1 ... i = 9. */
    expect_wxf("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", "h9g7", "H8+7");
    expect_wxf("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", "b7b0", "C2+7");
    expect_wxf("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", "h7e7", "C8.5");
    /* Two chariots on the a-file: front and rear. */
    expect_wxf("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1", "a4a7", "R++3");
    expect_wxf("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1", "a0b0", "R-.8");
}

static void pgn_tags_and_moves(void **state) {
    (void)state;
    static GameRecord rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.start_fen, sizeof rec.start_fen, "%s",
             "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    rec.moves[0] = move_from_text("h9g7", 0);
    rec.moves[1] = move_from_text("h2e2", 0);
    snprintf(rec.comments[0], 32, "+5/3 0.01s");
    snprintf(rec.comments[1], 32, "-3/4 0.02s");
    rec.ply_count = 2;
    rec.result = RES_DRAW;
    snprintf(rec.reason, sizeof rec.reason, "draw by agreement");
    char text[4096];
    FILE *f = fmemopen(text, sizeof text, "w");
    PgnTags tags = {"test", "R", "B", "depth 3", 1, NOTATION_WXF};
    pgn_write(f, &rec, &tags);
    fclose(f);
    assert_non_null(strstr(text, "[Variant \"xiangqi\"]"));
    assert_non_null(strstr(text, "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]"));
    assert_non_null(strstr(text, "[Result \"1/2-1/2\"]"));
    assert_non_null(strstr(text, "1... H8+7 {+5/3 0.01s} 2. C2.5 {-3/4 0.02s} {draw by agreement} 1/2-1/2"));
    f = fmemopen(text, sizeof text, "w");
    tags.notation = NOTATION_VN;
    pgn_write(f, &rec, &tags);
    fclose(f);
    assert_non_null(strstr(text, "1... M8.7 {+5/3 0.01s} 2. P2-5 {-3/4 0.02s} {draw by agreement} 1/2-1/2"));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wxf_names),
        cmocka_unit_test(pgn_tags_and_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
