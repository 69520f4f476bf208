// SPDX-License-Identifier: GPL-3.0-or-later
/* Repetition judgement on hand-built cycles and on the rule book's examples
 * (tests/data/axf_repetition.txt; see docs/rules.md). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "repetition.h"

static Position Pos;

/* Set up fen and play the space-separated ICCS moves, each of which must be legal. */
static void play(const char *fen, const char *moves) {
    must_parse(&Pos, fen);
    char buf[1024], err[200];
    strcpy(buf, moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = move_parse_legal(&Pos, t, 0, err, sizeof err);
        if (m == MOVE_NONE) fail_msg("%s: %s", t, err);
        pos_make_move(&Pos, m);
    }
}

static void plain_repetition_is_a_draw(void **state) {
    (void)state;
    play(START_FEN, "h0g2 h9g7 g2h0");
    assert_int_equal(rep_judge(&Pos), REP_NONE);
    pos_make_move(&Pos, move_from_text("g7h9", 0));
    assert_int_equal(rep_judge(&Pos), REP_DRAW);
    int first = -1;
    assert_int_equal(rep_count(&Pos, &first), 2);
    assert_int_equal(first, 0);
    play(START_FEN, "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9");
    assert_int_equal(rep_count(&Pos, &first), 3);
    assert_int_equal(first, 0);
    assert_int_equal(rep_judge(&Pos), REP_DRAW);
}

static void a_capture_cuts_the_lookback(void **state) {
    (void)state;
    /* The chariot trade on the a-file happens between the occurrences. */
    play(START_FEN, "a0a1 a9a8 a1a0 a8a9");
    assert_int_equal(rep_judge(&Pos), REP_DRAW);
    play("r4k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "d0d1 f9f8 d1d0 f8f9");
    assert_int_equal(rep_count(&Pos, NULL), 2);
    pos_make_move(&Pos, move_from_text("a0a9", 0));
    assert_int_equal(rep_count(&Pos, NULL), 1);
    assert_int_equal(rep_judge(&Pos), REP_NONE);
}

static void perpetual_check_loses_for_the_checker(void **state) {
    (void)state;
    /* Red's chariot checks on ranks 9 and 8; Black's king steps up and down. */
    const char *fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    play(fen, "a1a9 e9e8 a9a8 e8e9 a8a9");
    RepJudgement j = rep_judge_cycle(&Pos, 1);
    assert_int_equal(j.conduct[RED], REP_CHECK);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_WIN); /* Black to move: the opponent is the checker */
    /* A longer span from the same start could still be all checks for Red,
     * never for Black, whose king moves checked nothing. */
    assert_false(j.idle_for_good[RED]);
    assert_true(j.idle_for_good[BLACK]);
    assert_int_equal(rep_judge(&Pos), REP_WIN);
    pos_make_move(&Pos, move_from_text("e9e8", 0));
    assert_int_equal(rep_judge(&Pos), REP_LOSS); /* Red to move: Red is the checker */
}

static void a_threat_standing_through_checks_is_no_chase(void **state) {
    (void)state;
    /* Black's chariot on f3 attacks the crossed pawn on f7 throughout; while
     * in check it may not take it, which must not make every king move look
     * like a new threat (seen in self-play: adjudicated "both forbidden"). */
    play("4k4/9/5P3/9/9/9/5r3/9/R8/3K5 w - - 0 1", "a1a9 e9e8 a9a8 e8e9 a8a9");
    RepJudgement j = rep_judge_cycle(&Pos, 1);
    assert_int_equal(j.conduct[RED], REP_CHECK);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_WIN);
}

static void perpetual_check_by_blocking_with_discovered_checks(void **state) {
    (void)state;
    /* Red starts in check from the d-file (cannon d9 over the chariot d6).
     * Red blocks with f3d3, uncovering the cannon f0 over the pawn f5; Black
     * blocks with d6f6 and uncovers the d-file again; Red's d3f3 is quiet;
     * Black's f6d6 checks once more. Black checked with every move. */
    play("3c1k3/9/9/3r5/5P3/9/5R3/9/9/3K1C3 w - - 0 1", "f3d3 d6f6 d3f3 f6d6");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[BLACK], REP_CHECK);
    assert_int_equal(j.conduct[RED], REP_IDLE);
    assert_int_equal(j.verdict, REP_WIN); /* Red to move, Black loses */
}

static void horse_chasing_an_unprotected_chariot_loses(void **state) {
    (void)state;
    /* The horse attacks e6 from d4 and e7 from f5; the chariot flees. */
    play("5k3/9/9/4r4/5N3/9/9/9/9/3K5 w - - 0 1", "f5d4 e6e7 d4f5 e7e6");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[RED], REP_CHASE);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_LOSS); /* Red to move and Red chased */
    assert_false(j.idle_for_good[RED]);
    assert_true(j.idle_for_good[BLACK]);
    pos_make_move(&Pos, move_from_text("f5d4", 0));
    assert_int_equal(rep_judge(&Pos), REP_WIN); /* Black to move: the opponent chased */
}

static void cannon_chasing_an_unprotected_chariot_loses(void **state) {
    (void)state;
    /* The cannon on e2/g2 shoots over the pawns e4/g4 at the chariot on e6/g6. */
    play("5k3/9/9/4r4/9/4P1P2/9/6C2/9/3K5 w - - 0 1", "g2e2 e6g6 e2g2 g6e6");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[RED], REP_CHASE);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_LOSS);
}

static void attacking_a_protected_piece_is_no_chase(void **state) {
    (void)state;
    /* As the horse chase, but of a cannon, which the chariot on e9 guards
     * on e6 and e7. */
    play("4rk3/9/9/4c4/5N3/9/9/9/9/3K5 w - - 0 1", "f5d4 e6e7 d4f5 e7e6");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[RED], REP_IDLE);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_DRAW);
}

static void horse_chasing_a_protected_chariot_loses(void **state) {
    (void)state;
    /* A chariot is worth more than a horse: attacking it is a chase even
     * when the chariot on e9 guards it (AXF D18-D25, D42). */
    play("4rk3/9/9/4r4/5N3/9/9/9/9/3K5 w - - 0 1", "f5d4 e6e7 d4f5 e7e6");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[RED], REP_CHASE);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_LOSS);
}

static void an_unmoving_threat_is_no_chase(void **state) {
    (void)state;
    /* The chariot on a4 attacks the crossed pawn on e4 all along (and the one
     * on a5 the uncrossed pawn on i5, which never counts): the kings'
     * shuffling creates no new threat, so nobody chases. */
    play("3k5/9/9/9/R7p/R3p4/9/9/9/4K4 w - - 0 1", "e0f0 d9d8 f0e0 d8d9");
    RepJudgement j = rep_judge_cycle(&Pos, 0);
    assert_int_equal(j.conduct[RED], REP_IDLE);
    assert_int_equal(j.verdict, REP_DRAW);
}

static void mutual_attack_of_chariots_is_no_chase(void **state) {
    (void)state;
    /* Red's chariot offers itself to Black's: each can take the other. */
    play("5k3/9/9/9/4r4/9/9/9/9/R2K5 w - - 0 1", "a0a5 e5e6 a5a6 e6e5 a6a5 e5e6 a5a6 e6e5");
    int first = -1;
    assert_int_equal(rep_count(&Pos, &first), 2);
    assert_int_equal(first, 4);
    RepJudgement j = rep_judge_cycle(&Pos, 4);
    assert_int_equal(j.conduct[RED], REP_IDLE);
    assert_int_equal(j.conduct[BLACK], REP_IDLE);
    assert_int_equal(j.verdict, REP_DRAW);
}

static void judge_leaves_the_position_alone(void **state) {
    (void)state;
    play("5k3/9/9/4r4/5N3/9/9/9/9/3K5 w - - 0 1", "f5d4 e6e7 d4f5 e7e6");
    char before[FEN_MAX], after[FEN_MAX];
    fen_write(&Pos, before);
    Key key = pos_key(&Pos);
    int ply = Pos.game_ply;
    rep_judge(&Pos);
    fen_write(&Pos, after);
    assert_string_equal(before, after);
    assert_int_equal(pos_key(&Pos), key);
    assert_int_equal(Pos.game_ply, ply);
    assert_true(pos_is_ok(&Pos));
}

/* One example of the rule book: the position, the moves and the ruling. */
typedef struct {
    const char *id, *label, *fen, *moves, *ruling; /* pointers into the line read */
} BookCase;

/* Split a data line "id|label|fen|moves|ruling" into c; false if malformed. */
static bool parse_book_line(char *line, BookCase *c) {
    char *field[5];
    for (int i = 0; i < 5; i++) {
        if (!line) return false;
        field[i] = line;
        line = strchr(line, '|');
        if (line) *line++ = '\0';
    }
    field[4][strcspn(field[4], "\r\n ")] = '\0';
    *c = (BookCase){field[0], field[1], field[2], field[3], field[4]};
    return true;
}

static RepVerdict verdict_of(const char *ruling) {
    if (!strcmp(ruling, "win")) return REP_WIN;
    if (!strcmp(ruling, "loss")) return REP_LOSS;
    if (!strcmp(ruling, "draw")) return REP_DRAW;
    if (!strcmp(ruling, "none")) return REP_NONE;
    fail_msg("unknown ruling '%s'", ruling);
    return REP_NONE;
}

static const char *verdict_name(RepVerdict v) {
    static const char *const names[] = {"none", "draw", "win", "loss"};
    return names[v];
}

/* Every example of the rule book: the judge must give the book's ruling,
 * both on the last cycle (what the search asks) and on the whole span since
 * the first occurrence (what tuong-match asks when it adjudicates). */
static void rule_book_examples(void **state) {
    (void)state;
    FILE *f = fopen(TUONG_DATA_DIR "/axf_repetition.txt", "r");
    assert_non_null(f);
    char line[1200];
    int cases = 0, failures = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        BookCase c = {0};
        assert_true(parse_book_line(line, &c));
        play(c.fen, c.moves);
        RepVerdict want = verdict_of(c.ruling), got = rep_judge(&Pos);
        int first;
        rep_count(&Pos, &first);
        RepVerdict span = first < Pos.game_ply ? rep_judge_cycle(&Pos, first).verdict : REP_NONE;
        cases++;
        if (got != want || span != want) {
            failures++;
            print_message("%s (%s): want %s, last cycle %s, whole span %s\n", c.id, c.label, verdict_name(want),
                          verdict_name(got), verdict_name(span));
        }
    }
    fclose(f);
    print_message("rule book examples: %d, wrong: %d\n", cases, failures);
    assert_true(cases >= 150);
    assert_int_equal(failures, 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_repetition_is_a_draw),
        cmocka_unit_test(a_capture_cuts_the_lookback),
        cmocka_unit_test(perpetual_check_loses_for_the_checker),
        cmocka_unit_test(a_threat_standing_through_checks_is_no_chase),
        cmocka_unit_test(perpetual_check_by_blocking_with_discovered_checks),
        cmocka_unit_test(horse_chasing_an_unprotected_chariot_loses),
        cmocka_unit_test(cannon_chasing_an_unprotected_chariot_loses),
        cmocka_unit_test(attacking_a_protected_piece_is_no_chase),
        cmocka_unit_test(horse_chasing_a_protected_chariot_loses),
        cmocka_unit_test(an_unmoving_threat_is_no_chase),
        cmocka_unit_test(mutual_attack_of_chariots_is_no_chase),
        cmocka_unit_test(judge_leaves_the_position_alone),
        cmocka_unit_test(rule_book_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
