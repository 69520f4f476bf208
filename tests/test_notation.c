// SPDX-License-Identifier: GPL-3.0-or-later
/* ICCS move text in both rank conventions. */
#include "test_support.h"

#include <string.h>

#include "fen.h"
#include "notation.h"

static void test_print_and_parse(void **state) {
    (void)state;
    char buf[MOVE_TEXT_MAX];
    Move m = make_move(make_square(7, 2), make_square(4, 2));
    assert_string_equal(move_to_text(m, 0, buf), "h2e2");
    assert_string_equal(move_to_text(m, 1, buf), "h3e3");
    assert_int_equal(move_from_text("h2e2", 0), m);
    assert_int_equal(move_from_text("H2E2", 0), m);
    assert_int_equal(move_from_text("h3e3", 1), m);
    Move top = make_move(make_square(0, 9), make_square(0, 8));
    assert_string_equal(move_to_text(top, 1, buf), "a10a9");
    assert_int_equal(move_from_text("a10a9", 1), top);
    assert_int_equal(move_from_text("a9a8", 0), top);
    assert_string_equal(move_to_text(MOVE_NONE, 0, buf), "(none)");
}

static void test_malformed(void **state) {
    (void)state;
    static const char *const Bad[] = {"", "h2", "h2e", "h2e2x", "j2e2", "h2e10", "a10a9", "h2h2", "2h2e", "h-2e2"};
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++)
        if (move_from_text(Bad[i], 0) != MOVE_NONE) fail_msg("'%s' parsed", Bad[i]);
    assert_int_equal(move_from_text("a0a1", 1), MOVE_NONE); /* no rank 0 with base 1 */
    assert_int_equal(move_from_text("a11a9", 1), MOVE_NONE);
}

static void test_legality(void **state) {
    (void)state;
    static Position pos;
    char err[100];
    must_parse(&pos, START_FEN);
    assert_int_not_equal(move_parse_legal(&pos, "h2e2", 0, err, sizeof err), MOVE_NONE);
    assert_int_not_equal(move_parse_legal(&pos, "b0c2", 0, err, sizeof err), MOVE_NONE);
    assert_int_equal(move_parse_legal(&pos, "h2e3", 0, err, sizeof err), MOVE_NONE);
    assert_non_null(strstr(err, "illegal move 'h2e3'"));
    assert_int_equal(move_parse_legal(&pos, "h9g7", 0, err, sizeof err), MOVE_NONE); /* black's move */
    assert_int_equal(move_parse_legal(&pos, "zz", 0, err, sizeof err), MOVE_NONE);
    assert_non_null(strstr(err, "malformed move"));
    assert_int_equal(move_parse_legal(&pos, "e0e1", 0, err, sizeof err), make_move(4, 13));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_print_and_parse),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_legality),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
