// SPDX-License-Identifier: GPL-3.0-or-later
/* Elo, error margin, LOS and SPRT against values computed independently. */
#include "test_support.h"

#include "stats.h"

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
    SprtParams p = {0, 5, 0.05, 0.05};
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elo_of_known_scores),
        cmocka_unit_test(error_margin),
        cmocka_unit_test(likelihood_of_superiority),
        cmocka_unit_test(sprt_llr_and_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
