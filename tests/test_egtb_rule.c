// SPDX-License-Identifier: GPL-3.0-or-later
/* The rule loop's chess facts (bench/egtb/egtb_rule.h) on hand-made
 * positions: which captures are attacks (a chase by each piece type, a
 * protected piece, a blocked horse leg, a cannon's screen, a pinned
 * attacker, an attacker in check, exchange offers, pawns on either side of
 * the river), which quiet moves escape and what they rescue, which attacks
 * a quiet move creates (the moved piece, a line or leg opened, a screen
 * placed, a protector cut off), and which moves give check (xiangqitb's
 * blind spot included). Every expected value is what a harness built from
 * xiangqitb's own functions printed for the same position (docs/egtb.md,
 * "Rule loop in Tuong"); lists are written as tuong-egtb rulefacts prints
 * them. Each helper must also leave the position as it found it. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "egtb_rule.h"
#include "fen.h"
#include "movegen.h"

/* Text of a list: comma-separated, in square order, "-" when empty. */
enum { LIST_TEXT_MAX = 512 };

typedef struct {
    const char *fen;
    const char *mover;    /* the side to move's attacks */
    const char *opponent; /* the other side's, were it to move */
    const char *why;
} AttackCase;

static const AttackCase Attacks[] = {
    {"4k4/n8/9/9/9/R4np2/9/9/9/3K5 w", "a4a8", "-",
     "a chariot chases an unprotected horse, not one a crossed pawn protects"},
    {"4k4/4r4/9/3N5/9/9/9/9/9/3K5 w", "d6e8", "-", "a horse chases a chariot even when its king protects it"},
    {"4k4/4r4/3a5/3N5/9/9/9/9/9/3K5 w", "-", "-", "the same horse with its leg blocked"},
    {"3k5/9/9/9/9/9/9/3r5/4A4/4K4 w", "e1d2", "-", "an advisor chases an unprotected chariot"},
    {"3k5/9/9/9/3c5/3p5/9/3r5/4A4/4K4 w", "-", "-", "not one a cannon protects over a screen"},
    {"3k2r2/9/9/9/9/2n3n2/9/4B4/9/4K4 w", "e2c4", "-", "an elephant chases the unprotected horse only"},
    {"3k5/9/2r6/9/2P6/9/9/2C6/9/4K4 w", "c2c7", "c7c5",
     "a cannon over a screen chases a chariot; the chariot chases the crossed pawn"},
    {"3k5/9/2c6/9/2p6/9/9/2C6/9/4K4 w", "-", "-", "two cannons on one line offer an exchange"},
    {"3k5/r8/9/9/9/R8/9/9/9/4K4 w", "-", "-", "two chariots on one line offer an exchange"},
    {"4k4/R2r5/3N5/9/9/9/9/9/9/3K5 w", "a8d8", "d8d7", "but a chariot pinned by a horse cannot take back"},
    {"3k5/9/4r4/9/9/3n5/9/4N4/9/4K4 w", "-", "d4e2,e7e2",
     "a pinned horse chases nothing, and cannot take back the horse that chases it"},
    {"n2k5/9/9/9/R8/9/9/5n3/9/4K4 w", "a5a9", "-", "a chariot chases while its own king is in check"},
    {"3k5/9/9/6p2/9/9/2p6/9/2R3R2/4K4 w", "c1c3", "-", "a crossed pawn is chased, one at home is not"},
    {"3k5/9/9/3n5/3P5/9/9/4n4/4K4/9 w", "-", "-", "kings and pawns never chase"},
};

typedef struct {
    const char *fen;
    const char *move;
    const char *escape; /* rescued points */
    int marking;        /* the first marking's escape test */
    const char *fresh;  /* newly attacked points */
    int check;
} MoveCase;

/* The first marking is not asked in check, so no position here is. */
static const MoveCase Moves[] = {
    /* Red's cannon c5 is chased by the chariot c9. */
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "c5b5", "b5", 1, "-", 0}, /* steps off the line */
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "c5c3", "-", 1, "-", 0},  /* along it: no escape; re-tested: protected */
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "c5c4", "-", 0, "-", 0},  /* along it, still chased */
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "a3c3", "c5", 1, "-", 0}, /* another piece protects it */
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "a3a5", "c5", 1, "-", 0},
    {"2rk5/9/9/9/2C6/9/R8/9/9/4K4 w", "a3d3", "-", 0, "-", 1},
    /* The king steps off the pin: the horse can take back, and chases. */
    {"3k5/9/4r4/9/9/3n5/9/4N4/9/4K4 w", "e0d0", "e2", 1, "d4", 0},
    /* The moved chariot: a new line counts, sliding along its line not. */
    {"3k5/9/9/6p2/9/9/2p6/9/2R3R2/4K4 w", "g1g3", "-", 0, "c3", 0},
    {"3k5/9/9/6p2/9/9/2p6/9/2R3R2/4K4 w", "c1c2", "-", 0, "-", 0},
    {"3k5/7n1/n8/1r7/4c4/9/1N7/7C1/R8/4K1B2 w", "a1a5", "-", 0, "e5", 0},
    {"3k5/7n1/n8/1r7/4c4/9/1N7/7C1/R8/4K1B2 w", "h2b2", "-", 0, "b6", 0}, /* a cannon behind a screen */
    {"3k5/7n1/n8/1r7/4c4/9/1N7/7C1/R8/4K1B2 w", "b3c5", "c5", 1, "-", 0},
    {"3k5/7n1/n8/1r7/4c4/9/1N7/7C1/R8/4K1B2 w", "a1b1", "b3", 1, "-", 0},
    /* Another piece's attack made possible: a line, a leg, a screen. */
    {"3k5/9/n8/9/9/9/N8/9/R8/4K4 w", "a3c4", "-", 0, "a7", 0},
    {"3k5/9/9/9/3r5/2P6/2N6/9/9/4K4 w", "c4c5", "-", 0, "d5", 0},
    {"3k5/r8/9/9/9/2N6/9/C8/9/4K4 w", "c4a5", "a2", 1, "a8", 0},
    {"3k5/r8/9/9/9/2N6/9/C8/9/4K4 w", "c4b6", "-", 0, "a8", 0},
    /* The horse e4 loses its protector: cut off, or unable to recapture
     * legally from check. */
    {"3k5/9/3Nr4/9/9/R3n4/9/9/9/4K4 w", "d7e5", "e5", 1, "e4", 0},
    {"3k5/9/3Nr4/9/9/R3n4/9/9/9/4K4 w", "d7b8", "b8", 1, "e4", 1},
    /* A check by placing one's own cannon's screen: xiangqitb sees none. */
    {"4k4/9/3c5/9/9/1n7/9/9/9/3K5 b", "b4d3", "-", 0, "-", 0},
    {"4k4/9/3c5/9/9/1n7/9/9/9/3K5 b", "b4c2", "-", 0, "-", 1},
    {"4k4/9/3c5/9/3n5/9/3p5/9/9/3K5 b", "d5f6", "-", 0, "-", 1}, /* discovered */
};

enum { ATTACK_CASES = sizeof Attacks / sizeof Attacks[0], MOVE_CASES = sizeof Moves / sizeof Moves[0] };

static Position *Pos;

static int setup(void **state) {
    (void)state;
    engine_init();
    Pos = malloc(sizeof *Pos);
    return Pos ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    free(Pos);
    return 0;
}

static Square point(const char *s) { return make_square(s[0] - 'a', s[1] - '0'); }
static Move move_of(const char *s) { return make_move(point(s), point(s + 2)); }

static void append_point(char *buf, Square s) {
    size_t n = strlen(buf);
    snprintf(buf + n, LIST_TEXT_MAX - n, "%s%c%d", n ? "," : "", 'a' + file_of(s), rank_of(s));
}

static const char *points_text(Bitboard b, char *buf) {
    buf[0] = 0;
    while (b)
        append_point(buf, bb_pop_lsb(&b));
    return buf[0] ? buf : "-";
}

static int move_order(const void *a, const void *b) {
    Move x = *(const Move *)a, y = *(const Move *)b;
    int d = move_from(x) - move_from(y);
    return d ? d : move_to(x) - move_to(y);
}

static const char *attacks_text(Position *pos, char *buf) {
    MoveList list;
    egtb_rule_attacks(pos, &list);
    qsort(list.moves, (size_t)list.count, sizeof list.moves[0], move_order);
    buf[0] = 0;
    for (int i = 0; i < list.count; i++) {
        Square from = move_from(list.moves[i]), to = move_to(list.moves[i]);
        size_t n = strlen(buf);
        snprintf(buf + n, LIST_TEXT_MAX - n, "%s%c%d%c%d", n ? "," : "", 'a' + file_of(from), rank_of(from),
                 'a' + file_of(to), rank_of(to));
    }
    return buf[0] ? buf : "-";
}

/* Compare got with want, both shown with the position and what is
 * looked at, so a failure names its case. */
static void expect(const char *fen, const char *what, const char *got, const char *want) {
    char g[2 * LIST_TEXT_MAX], w[2 * LIST_TEXT_MAX];
    snprintf(g, sizeof g, "%s | %s: %s", fen, what, got);
    snprintf(w, sizeof w, "%s | %s: %s", fen, what, want);
    assert_string_equal(g, w);
}

/* The case's move must be a legal quiet move of the position. */
static Move quiet_move(const MoveCase *c) {
    must_parse(Pos, c->fen);
    Move m = move_of(c->move);
    assert_true(move_is_legal(Pos, m));
    assert_int_equal(Pos->board[move_to(m)], NO_PIECE);
    return m;
}

static void test_attacks(void **state) {
    (void)state;
    char buf[LIST_TEXT_MAX];
    for (int i = 0; i < ATTACK_CASES; i++) {
        const AttackCase *c = &Attacks[i];
        must_parse(Pos, c->fen);
        expect(c->fen, c->why, attacks_text(Pos, buf), c->mover);
        pos_make_null(Pos);
        expect(c->fen, c->why, attacks_text(Pos, buf), c->opponent);
        pos_unmake_null(Pos);
    }
}

/* A move that is no capture (to an empty point, onto one's own piece,
 * through a blocked line) is no attack. */
static void test_non_captures_are_no_attacks(void **state) {
    (void)state;
    must_parse(Pos, "4k4/n8/9/9/9/R4np2/9/9/9/3K5 w");
    assert_false(egtb_rule_is_attack(Pos, move_of("a4a5"))); /* empty point */
    assert_false(egtb_rule_is_attack(Pos, move_of("a4g4"))); /* through the horse f4 */
    assert_true(egtb_rule_is_attack(Pos, move_of("a4a8")));
    must_parse(Pos, "4k4/9/9/9/9/9/9/9/9/3K4R w");
    assert_false(egtb_rule_is_attack(Pos, move_of("i0d0"))); /* own king */
}

static void test_escape(void **state) {
    (void)state;
    char buf[LIST_TEXT_MAX];
    for (int i = 0; i < MOVE_CASES; i++) {
        const MoveCase *c = &Moves[i];
        Move m = quiet_move(c);
        expect(c->fen, c->move, points_text(egtb_rule_escape(Pos, m), buf), c->escape);
        expect(c->fen, c->move, egtb_rule_marking_escape(Pos, m) ? "marking escape" : "no marking escape",
               c->marking ? "marking escape" : "no marking escape");
    }
}

static void test_new_attacks(void **state) {
    (void)state;
    char buf[LIST_TEXT_MAX];
    for (int i = 0; i < MOVE_CASES; i++) {
        const MoveCase *c = &Moves[i];
        Move m = quiet_move(c);
        expect(c->fen, c->move, points_text(egtb_rule_new_attacks(Pos, m), buf), c->fresh);
    }
}

static void test_gives_check(void **state) {
    (void)state;
    for (int i = 0; i < MOVE_CASES; i++) {
        const MoveCase *c = &Moves[i];
        Move m = quiet_move(c);
        expect(c->fen, c->move, egtb_rule_gives_check(Pos, m) ? "check" : "no check", c->check ? "check" : "no check");
    }
}

/* Each helper makes and takes back moves: the board, the key and the
 * history depth must come back unchanged. */
static void test_position_left_as_found(void **state) {
    (void)state;
    for (int i = 0; i < MOVE_CASES; i++) {
        Move m = quiet_move(&Moves[i]);
        char before[FEN_MAX], after[FEN_MAX];
        fen_write(Pos, before);
        Key key = pos_key(Pos);
        int ply = Pos->game_ply;
        MoveList list;
        egtb_rule_attacks(Pos, &list);
        (void)egtb_rule_escape(Pos, m);
        (void)egtb_rule_marking_escape(Pos, m);
        (void)egtb_rule_new_attacks(Pos, m);
        (void)egtb_rule_gives_check(Pos, m);
        assert_string_equal(fen_write(Pos, after), before);
        assert_true(pos_key(Pos) == key);
        assert_int_equal(Pos->game_ply, ply);
        assert_true(pos_is_ok(Pos));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attacks),     cmocka_unit_test(test_non_captures_are_no_attacks),
        cmocka_unit_test(test_escape),      cmocka_unit_test(test_new_attacks),
        cmocka_unit_test(test_gives_check), cmocka_unit_test(test_position_left_as_found),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
