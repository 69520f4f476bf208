// SPDX-License-Identifier: GPL-3.0-or-later
/* Evaluation: colour and left-right symmetry over many positions, bounds,
 * the trace's completeness, and the traced score agreeing with eval_classical(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "eval_terms.h"
#include "fen.h"
#include "movegen.h"
#include "nnue/nnue.h"
#include "score.h"
#include "test_support.h"

/* The twin reflected left to right (file a <-> file i). */
static void file_mirror(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos_piece_on(src, s);
        if (p) pos_put_piece(dst, p, make_square(8 - file_of(s), rank_of(s)));
    }
    dst->side = src->side;
    pos_finish_setup(dst);
}

static Position twin; /* Positions are large: keep them off the stack */
static EvalTrace trace;

static void check_symmetry(const Position *pos) {
    char fen[FEN_MAX];
    Score s = eval_classical(pos);
    if (s <= -10000 || s >= 10000) fail_msg("score %d out of range: %s", s, fen_write(pos, fen));
    /* The fast path (combined tables) and the traced path agree. */
    Score traced = eval_traced(pos, &trace);
    if (traced != s) fail_msg("traced %d != evaluate %d: %s", traced, s, fen_write(pos, fen));
    colour_mirror(pos, &twin);
    Score m = eval_classical(&twin);
    if (m != s) fail_msg("colour mirror %d != %d: %s", m, s, fen_write(pos, fen));
    file_mirror(pos, &twin);
    m = eval_classical(&twin);
    if (m != s) fail_msg("left-right mirror %d != %d: %s", m, s, fen_write(pos, fen));
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 32);
}

/* Random playout from pos, checking symmetry at every ply. */
static int playout(Position *pos, int plies) {
    int checked = 0;
    MoveList list;
    for (int i = 0; i < plies; i++) {
        gen_legal(pos, &list);
        if (list.count == 0) break;
        pos_make_move(pos, list.moves[next_random() % (unsigned)list.count]);
        check_symmetry(pos);
        checked++;
    }
    return checked;
}

static void test_symmetry_openings_and_playouts(void **state) {
    (void)state;
    static Position pos;
    FILE *f = open_data("openings/xiangqi.epd");
    char line[256];
    int lines = 0, checked = 0;
    int stride = running_slow() ? 97 : 13;
    while (fgets(line, sizeof line, f)) {
        if (lines++ % stride) continue;
        line[strcspn(line, "\r\n")] = 0;
        must_parse(&pos, line);
        check_symmetry(&pos);
        checked++;
        if (lines % (stride * 8) == 1) checked += playout(&pos, 160);
    }
    fclose(f);
    assert_true(checked > 300);
}

static void test_start_position_is_balanced(void **state) {
    (void)state;
    static Position pos;
    must_parse(&pos, START_FEN);
    Score s = eval_classical(&pos);
    /* Only the tempo separates the sides. */
    assert_int_equal(s, (EvalW.Tempo.mg));
    eval_traced(&pos, &trace);
    assert_int_equal(trace.phase, PHASE_MAX);
}

static void test_material_scale(void **state) {
    (void)state;
    static Position pos;
    /* Red a chariot up in an otherwise full position: roughly a chariot. */
    must_parse(&pos, "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    Score s = eval_classical(&pos);
    assert_true(s > 150 && s < 320);
    /* A horse up at the start, where horses are undeveloped: clearly ahead. */
    must_parse(&pos, "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    s = eval_classical(&pos);
    assert_true(s < -30 && s > -160);
}

/* The knowledge grades (UCCI knowledge): material only, + piece-square
 * tables and tempo, + everything but king safety, everything. */
static void test_knowledge_grades(void **state) {
    (void)state;
    static Position pos, mirrored;
    assert_int_equal(eval_knowledge(), KNOWLEDGE_LARGE);
    must_parse(&pos, START_FEN);
    if (!nnue_active()) assert_int_equal(evaluate(&pos), eval_classical(&pos));
    eval_set_knowledge(KNOWLEDGE_NONE);
    assert_int_equal(evaluate(&pos), 0); /* no tempo either */
    must_parse(&pos, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1");
    assert_int_equal(evaluate(&pos), 0); /* a cannon moved: material is all it sees */
    must_parse(&pos, "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    Score chariot = evaluate(&pos);
    assert_true(chariot >= EvalW.Material[ROOK].mg && chariot <= EvalW.Material[ROOK].eg);
    eval_set_knowledge(KNOWLEDGE_SMALL);
    must_parse(&pos, START_FEN);
    assert_int_equal(evaluate(&pos), EvalW.Tempo.mg);
    /* Each grade adds terms that matter somewhere, and stays symmetric. */
    FILE *f = open_data("openings/xiangqi.epd");
    char line[256];
    int differ[3] = {0}, lines = 0;
    while (fgets(line, sizeof line, f) && lines++ < 400) {
        line[strcspn(line, "\r\n")] = 0;
        must_parse(&pos, line);
        colour_mirror(&pos, &mirrored);
        Score grade[4];
        for (EvalKnowledge k = KNOWLEDGE_NONE; k <= KNOWLEDGE_LARGE; k++) {
            eval_set_knowledge(k);
            grade[k] = evaluate(&pos);
            if (evaluate(&mirrored) != grade[k]) fail_msg("knowledge %d not symmetric: %s", k, line);
        }
        if (!nnue_active()) assert_int_equal(grade[KNOWLEDGE_LARGE], eval_classical(&pos));
        for (int k = 0; k < 3; k++) differ[k] += grade[k] != grade[k + 1];
    }
    fclose(f);
    eval_set_knowledge(KNOWLEDGE_LARGE);
    print_message("grades differ in %d, %d, %d of %d positions\n", differ[0], differ[1], differ[2], lines);
    /* King safety only counts once attackers have crossed: in openings, less often. */
    assert_true(differ[0] > lines / 2 && differ[1] > lines / 2 && differ[2] > lines / 10);
}

static void test_trace_agrees_and_lists_every_term(void **state) {
    (void)state;
    static Position pos;
    must_parse(&pos, "2bakab2/9/1cn1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1");
    Score s = eval_traced(&pos, &trace);
    assert_int_equal(s, eval_classical(&pos));
    double fromtrace = eval_from_trace(&trace, (const Weight *)&EvalW);
    assert_true(fromtrace - trace.red < 2 && trace.red - fromtrace < 2);

    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    eval_trace(&pos, "info string ", out);
    fclose(out);
    for (int i = 0; i < EvalTermCount; i++) {
        char want[80];
        snprintf(want, sizeof want, "info string %s ", EvalTerms[i].name);
        if (!strstr(buf, want)) fail_msg("term %s missing from the trace:\n%s", EvalTerms[i].name, buf);
    }
    assert_non_null(strstr(buf, "info string phase "));
    assert_non_null(strstr(buf, "info string final "));
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        assert_int_equal(strncmp(line, "info string ", 12), 0);
    free(buf);
}

static void test_term_table_covers_the_weights(void **state) {
    (void)state;
    int total = 0;
    for (int i = 0; i < EvalTermCount; i++) {
        assert_int_equal(EvalTerms[i].offset, total);
        total += EvalTerms[i].length;
    }
    assert_int_equal(total, EVAL_WEIGHT_COUNT);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_position_is_balanced),
        cmocka_unit_test(test_material_scale),
        cmocka_unit_test(test_knowledge_grades),
        cmocka_unit_test(test_trace_agrees_and_lists_every_term),
        cmocka_unit_test(test_term_table_covers_the_weights),
        cmocka_unit_test(test_symmetry_openings_and_playouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
