/* The insufficient-material draw-scaling table (docs/eval.md), checked on
 * one position per row, for both colours as the stronger side. */
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

/* Where the table says draw, evaluate() says exactly 0. */
static void test_dead_draws_evaluate_to_zero(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        if (Cases[i].scale) continue;
        must_parse(&pos, Cases[i].fen);
        assert_int_equal(evaluate(&pos), 0);
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
    Score s = evaluate(&pos);
    assert_true(s >= 0 && s < 40);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_table),
        cmocka_unit_test(test_dead_draws_evaluate_to_zero),
        cmocka_unit_test(test_scaled_scores_keep_their_sign),
        cmocka_unit_test(test_rarely_winning_is_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
