// SPDX-License-Identifier: GPL-3.0-or-later
/* Regression tests for bugs the fuzz harnesses (tests/fuzz) found, one per
 * bug, so the suite catches them without a fuzzer. */
#include "test_support.h"

#include "fen.h"
#include "movegen.h"
#include "notation.h"

/* fuzz_move: move_is_legal() ignored bits 14-15 of a 16-bit move, so a
 * corrupted hash move 0x8901 passed as b0a2 without equalling the generated
 * b0a2 (0x0901). */
static void test_move_with_stray_high_bits_is_not_legal(void **state) {
    (void)state;
    static Position pos;
    must_parse(&pos, START_FEN);
    Move m = move_from_text("b0a2", 0);
    assert_true(move_is_legal(&pos, m));
    for (unsigned bit = 14; bit < 16; bit++) {
        assert_false(move_is_pseudo_legal(&pos, (Move)(m | 1u << bit)));
        assert_false(move_is_legal(&pos, (Move)(m | 1u << bit)));
    }
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_with_stray_high_bits_is_not_legal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
