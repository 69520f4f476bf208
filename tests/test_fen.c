// SPDX-License-Identifier: GPL-3.0-or-later
/* FEN parsing, printing and validation. */
#include "test_support.h"

#include <string.h>

#include "fen.h"
#include "movegen.h"

static void test_start_round_trip(void **state) {
    (void)state;
    static Position pos;
    char out[FEN_MAX];
    must_parse(&pos, START_FEN);
    assert_string_equal(fen_write(&pos, out), START_FEN);
    assert_int_equal(pos.side, RED);
    assert_int_equal(pos.king_sq[RED], 4);
    assert_int_equal(pos.king_sq[BLACK], 85);
}

static void test_perft_positions_round_trip(void **state) {
    (void)state;
    static Position pos;
    FILE *f = open_data("perft.epd");
    PerftRecord rec;
    int n = 0;
    while (read_perft_record(f, &rec)) {
        char out[FEN_MAX];
        must_parse(&pos, rec.fen);
        assert_string_equal(fen_write(&pos, out), rec.fen);
        n++;
    }
    fclose(f);
    assert_true(n >= 16);
}

static void test_accepts_variants(void **state) {
    (void)state;
    static Position a, b;
    char fa[FEN_MAX], fb[FEN_MAX];
    /* E and H letters, side r, no counters. */
    must_parse(&a, "rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    must_parse(&b, START_FEN);
    assert_string_equal(fen_write(&a, fa), fen_write(&b, fb));
    assert_int_equal(pos_key(&a), pos_key(&b));
    /* Black to move with counters. */
    must_parse(&a, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert_int_equal(a.side, BLACK);
    assert_int_equal(pos_state(&a)->rule60, 1);
    assert_string_equal(fen_write(&a, fa), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    /* Side keys differ. */
    must_parse(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 1 1");
    assert_int_not_equal(pos_key(&a), pos_key(&b));
}

typedef struct {
    const char *fen;
    const char *message; /* a substring the error must contain */
} BadFen;

static const BadFen BadFens[] = {
    {"", "empty"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks instead of 10"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "11 ranks instead of 10"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 4 is 8 points wide"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w", "rank 2 is wider than 9"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "rank 0 is 8 points wide"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece letter 'X'"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", "too many red chariots"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CC4C1/9/RNBAKAB1R w", "too many red cannons"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "too many red pawns"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "missing red king"},
    {"rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "missing black king"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move 'x'"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "halfmove clock 'x'"},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3", "fullmove number '-3'"},
    {"3k5/9/9/9/9/9/9/9/9/K8 w", "red king on a0, a point it can never reach"},
    {"3k5/9/9/9/9/9/9/9/9/3KA4 w", "red advisor on e0, a point it can never reach"},
    {"3k5/9/9/9/9/9/9/9/9/3KB4 w", "red elephant on e0, a point it can never reach"},
    {"3k5/9/9/9/2B6/9/9/9/9/3K5 w", "red elephant on c5, a point it can never reach"},
    {"3k5/9/9/9/9/9/9/9/P8/4K4 w", "red pawn on a1, a point it can never reach"},
    {"3k5/9/9/9/9/9/1P7/9/9/4K4 w", "red pawn on b3, a point it can never reach"},
    {"3k5/9/9/9/9/9/9/9/p8/4K4 b", NULL},      /* a black pawn deep in red's half is fine */
    {"4k4/9/9/9/9/9/9/9/9/4K4 w", "kings face each other"},
    {"3k5/9/9/9/9/9/9/9/9/3RK4 b", NULL},       /* black to move, in check: legal */
    {"3k5/9/9/9/9/9/9/9/9/3RK4 w", "side not to move (black) is in check"},
    {"3k5/9/4H4/9/9/9/9/9/9/4K4 w", "side not to move (black) is in check"},
    {"3k5/4a4/4H4/9/9/9/9/9/9/4K4 w", NULL}, /* the horse's leg is blocked: no check */
    {"3k5/9/3P5/9/9/9/9/9/9/4K4 w", NULL},   /* a pawn does not attack backwards or diagonally */
    {"3k5/9/9/3C5/9/9/9/9/9/4K4 w", NULL},   /* a cannon with no screen gives no check */
    {"3k5/9/3P5/3C5/9/9/9/9/9/4K4 w", "side not to move (black) is in check"}, /* with one it does */
};

static void test_bad_fens_rejected(void **state) {
    (void)state;
    static Position pos, before;
    must_parse(&pos, START_FEN);
    for (size_t i = 0; i < sizeof BadFens / sizeof BadFens[0]; i++) {
        char err[200] = "";
        memcpy(&before, &pos, sizeof pos);
        bool ok = fen_parse(&pos, BadFens[i].fen, err, sizeof err);
        if (!BadFens[i].message) {
            if (!ok) fail_msg("'%s' wrongly rejected: %s", BadFens[i].fen, err);
            must_parse(&pos, START_FEN);
            continue;
        }
        if (ok) fail_msg("'%s' accepted, expected '%s'", BadFens[i].fen, BadFens[i].message);
        if (!strstr(err, BadFens[i].message)) fail_msg("'%s': message '%s' lacks '%s'", BadFens[i].fen, err, BadFens[i].message);
        /* A rejected FEN changes nothing. */
        assert_memory_equal(&pos, &before, offsetof(Position, history) + sizeof(StateInfo));
    }
}

static void test_rejects_overlong_and_garbage(void **state) {
    (void)state;
    static Position pos;
    char big[2000], err[200];
    memset(big, '9', sizeof big - 1);
    big[sizeof big - 1] = 0;
    assert_false(fen_parse(&pos, big, err, sizeof err));
    assert_false(fen_parse(&pos, "   ", err, sizeof err));
    assert_false(fen_parse(&pos, "\x01\x02/\xff", err, sizeof err));
    assert_false(fen_parse(&pos, NULL, err, sizeof err));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_round_trip),
        cmocka_unit_test(test_perft_positions_round_trip),
        cmocka_unit_test(test_accepts_variants),
        cmocka_unit_test(test_bad_fens_rejected),
        cmocka_unit_test(test_rejects_overlong_and_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
