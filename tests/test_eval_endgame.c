// SPDX-License-Identifier: GPL-3.0-or-later
/* The insufficient-material draw-scaling table and the known wins
 * (docs/eval.md), checked on one position per row, for both colours as the
 * stronger side. */
#include <stdio.h>

#include "endgame.h"
#include "eval.h"
#include "eval_terms.h"
#include "test_support.h"

typedef struct {
    const char *fen; /* Red is the stronger side */
    int scale;       /* eg_scale(pos, RED) */
    const char *what;
} ScaleCase;

static const ScaleCase Cases[] = {
    {"3aka3/9/9/9/9/9/9/9/4A4/2BAK4 w - - 0 1", 0, "advisors and elephants cannot mate"},
    {"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 0, "bare kings"},
    {"5k3/9/9/9/9/9/9/9/9/3AKA3 w - - 0 1", 0, "two advisors against a bare king"},
    {"4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", 128, "pawn against a bare king wins"},
    {"3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", 128, "pawn against a bare king (king off file)"},
    {"3ak4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", 48, "pawn against one advisor"},
    {"3aka3/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", 16, "pawn against two advisors"},
    {"3aka3/9/4b4/9/2P1P4/9/9/9/9/4K4 w - - 0 1", 128, "two pawns against three defenders"},
    {"2baka3/9/4b4/9/2P1P4/9/9/9/9/4K4 w - - 0 1", 48, "two pawns against the full defence"},
    {"2baka3/9/4b4/9/2P1P1P2/9/9/9/9/4K4 w - - 0 1", 128, "three pawns"},
    {"3P1k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 24, "old pawn against a bare king"},
    {"3P1k3/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1", 8, "old pawn against an advisor"},
    {"4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 128, "horse against a bare king"},
    {"3ak4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 128, "horse against one advisor"},
    {"3aka3/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 96, "horse against two advisors"},
    {"2bak4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 48, "horse against advisor and elephant"},
    {"2baka3/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 16, "horse against three defenders"},
    {"2bakab2/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", 16, "horse against the full defence"},
    {"3k5/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1", 16, "cannon without a screen against a bare king"},
    {"4k4/9/9/9/9/9/9/9/4C4/3AK4 w - - 0 1", 128, "cannon and advisor against a bare king"},
    {"3ak4/9/9/9/9/9/9/9/4C4/3AK4 w - - 0 1", 48, "cannon and advisor against an advisor"},
    {"2bakab2/9/9/9/9/9/9/9/4C4/3AKA3 w - - 0 1", 16, "cannon against the full defence"},
    {"2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", 16, "chariot against the full defence"},
    {"2baka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", 128, "chariot against three defenders"},
    {"3aka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", 128, "chariot against two advisors"},
    {"3aka3/9/4n4/9/9/9/9/9/R8/3K5 w - - 0 1", 48, "chariot against horse and two advisors"},
    {"3aka3/9/4c4/9/9/9/9/9/R8/3K5 w - - 0 1", 48, "chariot against cannon and two advisors"},
    {"3ak4/9/4n4/9/9/9/9/9/R8/3K5 w - - 0 1", 128, "chariot against horse and one advisor"},
    {"2bakab2/9/9/9/9/9/9/9/R3N4/4K4 w - - 0 1", 128, "chariot and horse"},
    {"2bakab2/9/9/9/9/9/9/9/3NN4/4K4 w - - 0 1", 128, "two horses"},
    {"2bakab2/9/9/9/4P4/9/9/9/4N4/4K4 w - - 0 1", 128, "horse and pawn"},
};

typedef struct {
    const char *fen; /* Red has the material that may win */
    bool known_win;  /* eg_known_win() names Red */
    const char *what;
} KnownWinCase;

static const KnownWinCase KnownWins[] = {
    /* A lone chariot against fewer than all four defenders. */
    {"2bak4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot against two advisors and an elephant"},
    {"2b1k4/4a4/4b4/9/9/9/9/9/9/R2K5 b - - 0 1", true, "chariot against an advisor and two elephants"},
    {"3aka3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot against two advisors"},
    {"2b1k1b2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot against two elephants"},
    {"3ak4/9/4b4/9/9/9/9/9/9/1R2K4 w - - 0 1", true, "chariot against an advisor and an elephant"},
    {"3ak4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot against one advisor"},
    {"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot against a bare king"},
    {"2bak4/4a4/9/9/9/9/9/9/4A4/R2K1A3 w - - 0 1", true, "chariot with its own advisors against three defenders"},
    {"2bak2P1/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1", true, "chariot and an old pawn against three defenders"},
    /* A chariot and a helper against the full defence. */
    {"2bakab2/9/9/9/9/9/9/2N6/9/R2K5 w - - 0 1", true, "chariot and horse against the full defence"},
    {"2bakab2/9/9/9/9/9/9/4C4/9/3AK1R2 w - - 0 1", true, "chariot and cannon against the full defence"},
    {"2bakab2/9/9/9/2P6/9/9/9/9/R2K5 w - - 0 1", true, "chariot and crossed pawn against the full defence"},
    {"2bakab2/9/9/9/9/9/6P2/9/9/3K1R3 w - - 0 1", true, "chariot and uncrossed pawn against the full defence"},
    {"2bakab2/9/9/9/9/9/9/9/R8/3K4R w - - 0 1", true, "two chariots against the full defence"},
    /* The same attackers where the defence holds, or is not a bare defence. */
    {"2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", false, "lone chariot against the full defence (draw)"},
    {"2bakabP1/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", false, "chariot and old pawn against the full defence (draw)"},
    {"3aka3/9/4n4/9/9/9/9/9/9/R2K5 w - - 0 1", false, "chariot against horse and two advisors (draw)"},
    {"3aka3/9/4c4/9/9/9/9/9/9/R2K5 w - - 0 1", false, "chariot against cannon and two advisors (draw)"},
    {"2b1k1b2/9/4n4/9/9/9/9/9/9/R2K5 w - - 0 1", false, "chariot against horse and two elephants (draw)"},
    {"2bakab2/9/9/9/9/9/9/2N6/9/R2K5 w - - 0 1", true, "(control) chariot and horse"},
    {"2bakab2/9/9/4r4/9/9/9/2N6/9/R2K5 w - - 0 1", false, "chariot and horse against a chariot"},
    {"2bak4/4a4/9/9/9/4p4/9/9/9/R2K5 w - - 0 1", false, "chariot against three defenders and a pawn"},
    {"2bakab2/9/9/9/9/9/9/2N6/9/2C2K3 w - - 0 1", false, "horse and cannon, no chariot"},
    {"3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", false, "advisor only"},
};

/* A recognised known win scores at least this for the winner. */
enum { KNOWN_WIN_MIN_SCORE = 300 };

static Position pos, twin;

static void test_scale_table(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        must_parse(&pos, Cases[i].fen);
        int got = eg_scale(&pos, RED);
        if (got != Cases[i].scale) fail_msg("%s: scale %d, want %d (%s)", Cases[i].what, got, Cases[i].scale, Cases[i].fen);
        colour_mirror(&pos, &twin);
        got = eg_scale(&twin, BLACK);
        if (got != Cases[i].scale) fail_msg("%s (colours swapped): scale %d, want %d", Cases[i].what, got, Cases[i].scale);
    }
}

/* Where the table says draw, eval_classical() says exactly 0. */
static void test_dead_draws_evaluate_to_zero(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        if (Cases[i].scale) continue;
        must_parse(&pos, Cases[i].fen);
        assert_int_equal(eval_classical(&pos), 0);
    }
}

/* The scale only pulls the stronger side's score toward zero. */
static void test_scaled_scores_keep_their_sign(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        must_parse(&pos, Cases[i].fen);
        EvalTrace tr;
        eval_traced(&pos, &tr);
        if (tr.tapered > 0) assert_true(tr.red >= 0 && tr.red <= tr.tapered);
        if (tr.tapered < 0) assert_true(tr.red <= 0 && tr.red >= tr.tapered);
    }
}

/* A lone horse against the full defence is far below its material. */
static void test_rarely_winning_is_small(void **state) {
    (void)state;
    must_parse(&pos, "2bakab2/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1");
    Score s = eval_classical(&pos);
    assert_true(s >= 0 && s < 40);
}

/* eg_known_win() names the right side for both colours, and the bonus is
 * in the trace exactly when it does. */
static void test_known_wins(void **state) {
    (void)state;
    int bonus = EvalW.KnownWin.eg, at = eval_weight_index(&EvalW.KnownWin);
    assert_true(bonus > 0);
    for (size_t i = 0; i < sizeof KnownWins / sizeof KnownWins[0]; i++) {
        const KnownWinCase *c = &KnownWins[i];
        must_parse(&pos, c->fen);
        colour_mirror(&pos, &twin);
        Color got = eg_known_win(&pos), got_twin = eg_known_win(&twin);
        if (got != (c->known_win ? RED : COLOR_NB)) fail_msg("%s: known win for %d (%s)", c->what, (int)got, c->fen);
        if (got_twin != (c->known_win ? BLACK : COLOR_NB))
            fail_msg("%s (colours swapped): known win for %d", c->what, (int)got_twin);
        EvalTrace tr, tr_twin;
        eval_traced(&pos, &tr);
        eval_traced(&twin, &tr_twin);
        assert_int_equal(tr.coef[RED][at], c->known_win);
        assert_int_equal(tr.coef[BLACK][at], 0);
        assert_int_equal(tr_twin.coef[BLACK][at], c->known_win);
        assert_int_equal(tr_twin.coef[RED][at], 0);
        if (!c->known_win) continue;
        /* Clearly winning for the stronger side, whoever is to move. */
        if (tr.red < KNOWN_WIN_MIN_SCORE) fail_msg("%s: red scores only %d", c->what, tr.red);
        if (tr_twin.red > -KNOWN_WIN_MIN_SCORE) fail_msg("%s (colours swapped): black scores only %d", c->what, -tr_twin.red);
    }
}

/* The bonus makes a known win outscore the same material against one more
 * defender, by more than that defender is worth. */
static void test_known_win_beats_the_full_defence(void **state) {
    (void)state;
    must_parse(&pos, "2bak4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    Score win = eval_classical(&pos);
    must_parse(&pos, "2bak4/4a4/4b4/9/9/9/9/9/9/R2K5 w - - 0 1");
    Score draw = eval_classical(&pos);
    assert_true(win > draw + EvalW.KnownWin.eg);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_table),
        cmocka_unit_test(test_dead_draws_evaluate_to_zero),
        cmocka_unit_test(test_scaled_scores_keep_their_sign),
        cmocka_unit_test(test_rarely_winning_is_small),
        cmocka_unit_test(test_known_wins),
        cmocka_unit_test(test_known_win_beats_the_full_defence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
