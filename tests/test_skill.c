// SPDX-License-Identifier: GPL-3.0-or-later
/* Strength levels (engine/skill): the plan of each level, the Elo mapping,
 * the choice among lines, and the numbers behind the UCCI grades. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>

#include "score.h"
#include "skill/grades.h"
#include "skill/idle.h"
#include "skill/skill.h"
#include "zobrist.h"

static SkillPlan plan_at(double level, int randomness, Key key) {
    SkillOptions o = {.level = (int)level, .randomness = randomness};
    return skill_plan(&o, true, key);
}

static void full_strength_changes_nothing(void **state) {
    (void)state;
    SkillOptions o = {.level = SKILL_LEVEL_MAX, .elo = SKILL_ELO_DEFAULT};
    SkillPlan p = skill_plan(&o, true, 42);
    assert_int_equal(p.lines, 1);
    assert_true(p.nodes == 0 && p.depth == 0 && !p.one_thread);
    uint64_t nodes = 0;
    int depth = 0;
    skill_limit(&p, &nodes, &depth);
    assert_true(nodes == 0 && depth == 0);
    /* UCI_LimitStrength off: the Elo is ignored. */
    o.elo = SKILL_ELO_MIN;
    assert_int_equal(skill_plan(&o, true, 42).lines, 1);
    /* Analysis (infinite, mate) runs at full strength at any level. */
    o.level = 0;
    o.limit_strength = true;
    p = skill_plan(&o, false, 42);
    assert_true(p.lines == 1 && p.nodes == 0 && p.depth == 0);
}

static void caps_grow_and_choice_narrows_with_the_level(void **state) {
    (void)state;
    SkillPlan prev = plan_at(0, 0, 1);
    assert_true(prev.lines == SKILL_LINES && prev.one_thread);
    assert_true(prev.nodes >= 150); /* level 0 still completes depth 1 over its lines */
    assert_int_equal(prev.depth, 1);
    for (int level = 1; level < SKILL_LEVEL_MAX; level++) {
        SkillPlan p = plan_at(level, 0, 1);
        assert_true(p.nodes > prev.nodes);
        assert_true(p.depth > prev.depth);
        assert_true(p.loss_cap < prev.loss_cap);
        assert_true(p.temperature < prev.temperature);
        prev = p;
    }
    /* Never a whole piece thrown away on purpose: nothing near a chariot
     * (~250) at any level, nothing near a horse or cannon (~100) from level
     * 6, at most half of one from level 10. */
    assert_true(plan_at(0, 0, 1).loss_cap < 250);
    assert_true(plan_at(6, 0, 1).loss_cap < 100);
    assert_true(plan_at(10, 0, 1).loss_cap <= 50);
}

static void elo_maps_to_levels_and_back(void **state) {
    (void)state;
    assert_true(skill_level_of_elo(SKILL_ELO_MIN - 100) == 0);
    assert_true(skill_level_of_elo(100000) == SKILL_LEVEL_MAX);
    double prev = -1;
    for (int elo = SKILL_ELO_MIN; elo <= SKILL_ELO_MAX; elo += 25) {
        double level = skill_level_of_elo(elo);
        assert_true(level >= prev);
        assert_true(level >= 0 && level <= SKILL_LEVEL_MAX);
        if (level > 0 && level < SKILL_LEVEL_MAX) assert_true(abs(skill_elo_of_level(level) - elo) <= 1);
        prev = level;
    }
    for (int level = 1; level <= SKILL_LEVEL_MAX; level++) assert_true(skill_elo_of_level(level) > skill_elo_of_level(level - 1));
    /* UCI_LimitStrength follows the Elo; the range covers most levels. */
    SkillOptions o = {.level = SKILL_LEVEL_MAX, .limit_strength = true, .elo = SKILL_ELO_MIN};
    assert_true(skill_level(&o) < 5);
    o.elo = SKILL_ELO_MAX;
    assert_true(skill_level(&o) > 15);
    o.elo = SKILL_ELO_DEFAULT;
    assert_true(skill_level(&o) > 0 && skill_level(&o) < SKILL_LEVEL_MAX);
}

/* A fixed set of line scores (best first) to choose among. */
static void sample_scores(uint64_t *rng, Score *scores, int n) {
    scores[0] = (Score)(prng_next(rng) % 400) - 200;
    for (int i = 1; i < n; i++) scores[i] = scores[i - 1] - (Score)(prng_next(rng) % 60);
}

/* Mean loss of the chosen line over many positions, each with its own key. */
static double mean_loss(double level) {
    uint64_t rng = 12345;
    double total = 0;
    enum { TRIALS = 4000 };
    for (int t = 0; t < TRIALS; t++) {
        Score scores[SKILL_LINES];
        sample_scores(&rng, scores, SKILL_LINES);
        SkillPlan p = plan_at(level, 0, prng_next(&rng));
        total += scores[0] - scores[skill_pick(&p, scores, SKILL_LINES)];
    }
    return total / TRIALS;
}

static void lower_levels_lose_more(void **state) {
    (void)state;
    static const int Levels[] = {0, 5, 10, 15};
    double prev = INFINITY;
    for (size_t i = 0; i < sizeof Levels / sizeof Levels[0]; i++) {
        double loss = mean_loss(Levels[i]);
        print_message("level %2d: mean loss %.1f\n", Levels[i], loss);
        assert_true(loss < prev);
        prev = loss;
    }
    assert_true(mean_loss(0) > 20);
    assert_true(mean_loss(19) <= mean_loss(15));
    assert_true(mean_loss(SKILL_LEVEL_MAX) == 0);
}

static void pick_respects_cap_mates_and_missing_scores(void **state) {
    (void)state;
    uint64_t rng = 99;
    for (int t = 0; t < 2000; t++) {
        SkillPlan p = plan_at(t % SKILL_LEVEL_MAX, 0, prng_next(&rng));
        Score scores[SKILL_LINES] = {50, 40, -300, -SCORE_INFINITE};
        int i = skill_pick(&p, scores, SKILL_LINES);
        assert_true(i == 0 || i == 1); /* -300 is over every cap; no score is never played */
        Score mates[SKILL_LINES] = {SCORE_MATE - 5, SCORE_MATE - 7, 100, 90};
        assert_int_equal(skill_pick(&p, mates, SKILL_LINES), 0);
    }
    /* The chosen line's loss never exceeds the cap. */
    for (int t = 0; t < 2000; t++) {
        SkillPlan p = plan_at(t % SKILL_LEVEL_MAX, 0, prng_next(&rng));
        Score scores[SKILL_LINES];
        sample_scores(&rng, scores, SKILL_LINES);
        assert_true(scores[0] - scores[skill_pick(&p, scores, SKILL_LINES)] <= p.loss_cap);
    }
}

static void same_seed_same_choice(void **state) {
    (void)state;
    Score scores[SKILL_LINES] = {30, 25, 10, -20};
    int differ = 0;
    for (Key key = 1; key < 200; key++) {
        SkillPlan a = plan_at(3, 0, key * 0x9E3779B97F4A7C15ULL), b = plan_at(3, 0, key * 0x9E3779B97F4A7C15ULL);
        assert_int_equal(skill_pick(&a, scores, SKILL_LINES), skill_pick(&b, scores, SKILL_LINES));
        differ += skill_pick(&a, scores, SKILL_LINES) != 0;
    }
    assert_true(differ > 20); /* and different positions do choose differently */
}

static void randomness_widens_full_strength(void **state) {
    (void)state;
    SkillPlan none = plan_at(SKILL_LEVEL_MAX, 0, 7);
    assert_int_equal(none.lines, 1);
    double prev = 0;
    for (int r = 1; r <= 3; r++) {
        SkillPlan p = plan_at(SKILL_LEVEL_MAX, r, 7);
        assert_int_equal(p.lines, SKILL_LINES);
        assert_true(p.nodes == 0 && p.depth == 0 && !p.one_thread); /* full strength keeps its limits */
        assert_true(p.loss_cap > prev && p.loss_cap <= 25);
        prev = p.loss_cap;
    }
    /* Above none the draw comes from a clock-seeded stream, not the key. */
    assert_true(plan_at(SKILL_LEVEL_MAX, 2, 7).seed != plan_at(SKILL_LEVEL_MAX, 2, 7).seed);
    assert_true(plan_at(5, 0, 7).seed == plan_at(5, 0, 7).seed);
}

static void grades_are_ordered(void **state) {
    (void)state;
    assert_true(grade_contempt(STYLE_SOLID) < 0);
    assert_int_equal(grade_contempt(STYLE_NORMAL), 0);
    assert_true(grade_contempt(STYLE_RISKY) > 0);
    assert_int_equal(grade_reduction_percent(GRADE_LARGE), 100);
    assert_int_equal(grade_late_move_factor(GRADE_LARGE), 1);
    assert_true(grade_null_move(GRADE_LARGE));
    assert_int_equal(grade_reduction_percent(GRADE_NONE), 0);
    assert_int_equal(grade_late_move_factor(GRADE_NONE), 0);
    assert_false(grade_null_move(GRADE_NONE));
    for (Grade g = GRADE_SMALL; g <= GRADE_LARGE; g++) {
        assert_true(grade_reduction_percent(g) > grade_reduction_percent(g - 1));
        assert_true(grade_idle_duty(g) < grade_idle_duty(g - 1));
    }
    assert_int_equal(grade_idle_duty(GRADE_NONE), IDLE_DUTY_FULL);
}

static void idle_rests_keep_the_duty(void **state) {
    (void)state;
    assert_int_equal(idle_rest_ms(4, IDLE_DUTY_FULL), 0);
    assert_int_equal(idle_rest_ms(4, 500), 4);  /* half the time */
    assert_int_equal(idle_rest_ms(4, 250), 12); /* a quarter */
    assert_int_equal(idle_rest_ms(8, 750), 2);
    assert_int_equal(idle_rest_ms(1000, 500), 2 * IDLE_SLICE_MS); /* a stale start costs little */
    assert_int_equal(idle_rest_ms(0, 250), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_strength_changes_nothing),
        cmocka_unit_test(caps_grow_and_choice_narrows_with_the_level),
        cmocka_unit_test(elo_maps_to_levels_and_back),
        cmocka_unit_test(lower_levels_lose_more),
        cmocka_unit_test(pick_respects_cap_mates_and_missing_scores),
        cmocka_unit_test(same_seed_same_choice),
        cmocka_unit_test(randomness_widens_full_strength),
        cmocka_unit_test(grades_are_ordered),
        cmocka_unit_test(idle_rests_keep_the_duty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
