// SPDX-License-Identifier: GPL-3.0-or-later
/* Elo, error margin, LOS and SPRT against values computed independently
 * (Python, the formulas of stats.h), both models; the tally's game pairs. */
#include "test_support.h"

#include <string.h>

#include "stats.h"
#include "tally.h"

static void elo_of_known_scores(void **state) {
    (void)state;
    assert_float_equal(stats_elo_of_score(0.75), 190.8485, 1e-3);
    assert_float_equal(stats_elo_of_score(0.5), 0.0, 1e-9);
    assert_float_equal(stats_elo((Score3){60, 20, 20}), 147.1907, 1e-3);
    assert_float_equal(stats_elo((Score3){20, 20, 60}), -147.1907, 1e-3);
    assert_float_equal(stats_score_of_elo(190.8485), 0.75, 1e-6);
    assert_float_equal(stats_elo((Score3){5, 0, 0}), 2000.0, 1e-9); /* clamped */
}

static void error_margin(void **state) {
    (void)state;
    /* 95% interval of the mean score mapped to Elo, half its width. */
    assert_float_equal(stats_elo_error((Score3){60, 20, 20}), 66.0134, 1e-3);
    assert_float_equal(stats_elo_error((Score3){30, 40, 30}), 53.1580, 1e-3);
    assert_float_equal(stats_elo_error((Score3){0, 0, 0}), 0.0, 1e-9);
}

static void likelihood_of_superiority(void **state) {
    (void)state;
    assert_float_equal(stats_los((Score3){30, 40, 30}), 0.5, 1e-9);
    assert_float_equal(stats_los((Score3){10, 5, 0}), 0.999217, 1e-6);
    assert_float_equal(stats_los((Score3){60, 20, 20}), 0.9999961, 1e-7);
    assert_float_equal(stats_draw_ratio((Score3){30, 40, 30}), 0.4, 1e-9);
}

static void sprt_llr_and_bounds(void **state) {
    (void)state;
    SprtParams p = {0, 5, 0.05, 0.05, SPRT_TRINOMIAL};
    assert_float_equal(stats_llr_lower(p), -2.944439, 1e-6);
    assert_float_equal(stats_llr_upper(p), 2.944439, 1e-6);
    assert_float_equal(stats_llr((Score3){60, 20, 20}, p), 0.883207, 1e-5);
    assert_float_equal(stats_llr((Score3){1000, 1500, 900}, p), 1.948148, 1e-5);
    assert_float_equal(stats_llr((Score3){900, 1500, 1000}, p), -3.210000, 1e-5);
    assert_int_equal(stats_sprt((Score3){1000, 1500, 900}, p), SPRT_CONTINUE);
    assert_int_equal(stats_sprt((Score3){900, 1500, 1000}, p), SPRT_H0);
    assert_int_equal(stats_sprt((Score3){1200, 1500, 900}, p), SPRT_H1);
    assert_float_equal(stats_llr((Score3){0, 10, 0}, p), 0.0, 1e-9); /* no variance yet */
}

static void pentanomial_elo_error_and_llr(void **state) {
    (void)state;
    SprtParams p = {0, 10, 0.05, 0.05, SPRT_PENTANOMIAL};
    Score5 damp = {{19, 114, 210, 158, 19}}; /* the r60damp SPRT's 520 pairs (docs/strength.md) */
    assert_int_equal(stats5_pairs(damp), 520);
    assert_float_equal(stats5_score(damp), 0.521154, 1e-6);
    assert_float_equal(stats5_elo(damp), 14.707978, 1e-4);
    assert_float_equal(stats5_elo_error(damp), 13.454050, 1e-4);
    assert_float_equal(stats5_llr(damp, p), 2.067570, 1e-5);
    assert_int_equal(stats5_sprt(damp, p), SPRT_CONTINUE);
    Score5 spsa = {{13, 62, 134, 80, 7}};
    assert_float_equal(stats5_llr(spsa, p), -0.193256, 1e-5);
    Score5 even = {{5, 20, 50, 20, 5}};
    assert_float_equal(stats5_elo(even), 0.0, 1e-9);
    assert_float_equal(stats5_elo_error(even), 30.531864, 1e-4);
    Score5 ahead = {{10, 100, 300, 150, 20}};
    assert_float_equal(stats5_llr(ahead, p), 4.921631, 1e-5);
    assert_int_equal(stats5_sprt(ahead, p), SPRT_H1);
    SprtParams p5 = {0, 5, 0.05, 0.05, SPRT_PENTANOMIAL};
    assert_float_equal(stats5_llr(ahead, p5), 2.846508, 1e-5);
    assert_int_equal(stats5_sprt((Score5){{200, 100, 300, 100, 10}}, p), SPRT_H0);
    assert_float_equal(stats5_llr((Score5){{0, 0, 7, 0, 0}}, p), 0.0, 1e-9); /* no variance yet */
    assert_float_equal(stats5_elo_error((Score5){{0}}), 0.0, 1e-9);
    SprtModel m = SPRT_TRINOMIAL;
    assert_true(stats_model_parse("pentanomial", &m) && m == SPRT_PENTANOMIAL);
    assert_true(stats_model_parse("trinomial", &m) && m == SPRT_TRINOMIAL);
    assert_false(stats_model_parse("binomial", &m));
    assert_string_equal(stats_model_name(SPRT_PENTANOMIAL), "pentanomial");
}

static GameOutcome outcome(GameResult r) { return (GameOutcome){.result = r, .reason = "test"}; }

/* A fresh two-engine tally of `games` games (static: a tally is large). */
static MatchTally *new_tally(int games, bool sprt_on, SprtParams sprt) {
    static MatchTally t;
    memset(&t, 0, sizeof t);
    t.engine_count = 2;
    t.total_games = games;
    t.sprt_on = sprt_on;
    t.sprt = sprt;
    tally_start(&t);
    return &t;
}

/* Games finishing out of order (as with -concurrency) still pair by
 * opening: games 2i and 2i+1, a Red in the even one. */
static void tally_pairs_games_by_opening(void **state) {
    (void)state;
    MatchTally *t = new_tally(8, false, (SprtParams){0});
    GameOutcome red = outcome(RES_RED_WINS), black = outcome(RES_BLACK_WINS), draw = outcome(RES_DRAW);
    tally_add(t, 2, &red);   /* pair 1: a (Red) wins */
    tally_add(t, 0, &red);   /* pair 0: a (Red) wins */
    assert_int_equal(stats5_pairs(t->pairs[0].pairs), 0);
    tally_add(t, 1, &red);   /* pair 0: b (Red) wins: 1 point of 2 for a */
    tally_add(t, 5, &draw);  /* pair 2: a draw */
    tally_add(t, 3, &black); /* pair 1: a (Black) wins: 2 of 2 */
    tally_add(t, 4, &black); /* pair 2: a (Red) loses: 1/2 of 2 */
    Score5 want = {{0, 1, 1, 0, 1}};
    assert_memory_equal(&t->pairs[0].pairs, &want, sizeof want);
    assert_int_equal(t->open_count, 0);
    tally_add(t, 7, &draw); /* pair 3 stays open */
    assert_int_equal(stats5_pairs(t->pairs[0].pairs), 3);
    assert_int_equal(t->open_count, 1);
    assert_int_equal(stats_games(t->pairs[0].score), 7);
}

/* Under the pentanomial model the SPRT decides only when a pair is whole. */
static void pentanomial_sprt_decides_on_whole_pairs(void **state) {
    (void)state;
    MatchTally *t = new_tally(400, true, (SprtParams){0, 100, 0.2, 0.2, SPRT_PENTANOMIAL});
    GameOutcome red = outcome(RES_RED_WINS), draw = outcome(RES_DRAW);
    int decided_at = -1;
    for (int g = 0; g < 400 && decided_at < 0; g++) {
        /* a wins every game as Red and draws as Black, but pair 0 is drawn */
        GameOutcome *o = g < 2 ? &draw : g % 2 == 0 ? &red : &draw;
        if (tally_add(t, g, o)) decided_at = g;
    }
    assert_true(decided_at > 0);
    assert_int_equal(decided_at % 2, 1); /* the second game of a pair */
    assert_true(t->sprt_decided);
    assert_int_equal(stats5_sprt(t->sprt_at5, t->sprt), SPRT_H1);
    assert_int_equal(stats5_pairs(t->sprt_at5) * 2, stats_games(t->sprt_at));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elo_of_known_scores),
        cmocka_unit_test(error_margin),
        cmocka_unit_test(likelihood_of_superiority),
        cmocka_unit_test(sprt_llr_and_bounds),
        cmocka_unit_test(pentanomial_elo_error_and_llr),
        cmocka_unit_test(tally_pairs_games_by_opening),
        cmocka_unit_test(pentanomial_sprt_decides_on_whole_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
