// SPDX-License-Identifier: GPL-3.0-or-later
/* The match runner's adjudication by the rules, on hand-made positions. */
#include "test_support.h"

#include <string.h>

#include "game.h"
#include "notation.h"

static Position Pos;
static const AdjudicationRules Rules = {.repetitions = 3, .nocapture_plies = 120};

static void play(const char *fen, const char *moves) {
    must_parse(&Pos, fen);
    char buf[1024], err[200];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = move_parse_legal(&Pos, t, 0, err, sizeof err);
        if (m == MOVE_NONE) fail_msg("%s: %s", t, err);
        pos_make_move(&Pos, m);
    }
}

static GameResult judge(char *reason) { return adjudicate_position(&Pos, &Rules, reason, 400); }

static void stalemate_and_mate_lose(void **state) {
    (void)state;
    char why[400];
    play("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", "");
    assert_int_equal(judge(why), RES_RED_WINS);
    assert_non_null(strstr(why, "stalemated"));
    play("3k5/R8/9/9/9/9/9/9/9/3RK4 b - - 0 1", "");
    assert_int_equal(judge(why), RES_RED_WINS);
    assert_non_null(strstr(why, "checkmated"));
    play(START_FEN, "");
    assert_int_equal(judge(why), RES_NONE);
}

static void perpetual_check_is_adjudicated_at_the_third_occurrence(void **state) {
    (void)state;
    char why[400];
    play("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1a9 e9e8 a9a8 e8e9 a8a9");
    assert_int_equal(judge(why), RES_NONE); /* second occurrence only */
    play("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9");
    assert_int_equal(judge(why), RES_BLACK_WINS);
    assert_string_equal(why, "perpetual check by Red");
}

static void perpetual_chase_is_adjudicated(void **state) {
    (void)state;
    char why[400];
    play("5k3/9/9/4r4/5N3/9/9/9/9/3K5 w - - 0 1", "f5d4 e6e7 d4f5 e7e6 f5d4 e6e7 d4f5 e7e6");
    assert_int_equal(judge(why), RES_BLACK_WINS);
    assert_string_equal(why, "perpetual chase by Red");
}

static void plain_repetition_draws(void **state) {
    (void)state;
    char why[400];
    play(START_FEN, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
    assert_int_equal(judge(why), RES_DRAW);
    assert_non_null(strstr(why, "neither side"));
}

static void no_capture_limit_and_bare_material_draw(void **state) {
    (void)state;
    char why[400];
    play("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80", "a1a2");
    assert_int_equal(judge(why), RES_DRAW);
    assert_non_null(strstr(why, "no capture"));
    play("3akab2/9/9/9/9/9/9/9/3K5/2BA1A3 w - - 0 1", "");
    assert_int_equal(judge(why), RES_DRAW);
    assert_string_equal(why, "insufficient material");
    play("3akab2/9/9/9/4P4/9/9/9/3K5/2BA1A3 w - - 0 1", "");
    assert_int_equal(judge(why), RES_NONE); /* one pawn can still mate */
}

static void forbidden_repeating_moves_are_found(void **state) {
    (void)state;
    Move banned[MAX_MOVES];
    char text[MOVE_TEXT_MAX];
    /* Red's chariot has checked from a9 and a8; going back to a9 repeats. */
    play("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1a9 e9e8 a9a8 e8e9");
    int n = game_forbidden_moves(&Pos, banned);
    assert_int_equal(n, 1);
    assert_string_equal(move_to_text(banned[0], 0, text), "a8a9");
    assert_int_equal(Pos.game_ply, 4);
    /* Black's king may repeat: it does not check. */
    play("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1a9 e9e8 a9a8");
    assert_int_equal(game_forbidden_moves(&Pos, banned), 0);
    play(START_FEN, "h0g2 h9g7 g2h0");
    assert_int_equal(game_forbidden_moves(&Pos, banned), 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stalemate_and_mate_lose),
        cmocka_unit_test(perpetual_check_is_adjudicated_at_the_third_occurrence),
        cmocka_unit_test(perpetual_chase_is_adjudicated),
        cmocka_unit_test(plain_repetition_draws),
        cmocka_unit_test(no_capture_limit_and_bare_material_draw),
        cmocka_unit_test(forbidden_repeating_moves_are_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
