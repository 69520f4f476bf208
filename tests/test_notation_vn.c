// SPDX-License-Identifier: GPL-3.0-or-later
/* Vietnamese move notation (engine/notation_vn.h): known texts, the
 * round trip write -> parse for every legal move of many positions for
 * both sides (random games, and random placements that stack pieces of
 * every kind on one file and pawns on one or two files), the variants
 * people type, a published opening beside its WXF text, and bad input. */
#include "test_support.h"

#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "notation_vn.h"

static const char *const BlackStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";

static uint64_t Rng = 0x9E3779B97F4A7C15u;

static unsigned rnd(unsigned n) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    return (unsigned)(Rng % n);
}

/* The text of the ICCS move in the position given by fen. */
static void expect_text(const char *fen, const char *iccs, const char *vn) {
    static Position pos;
    char buf[VN_TEXT_MAX], err[160];
    must_parse(&pos, fen);
    Move m = move_from_text(iccs, 0);
    assert_true(move_is_legal(&pos, m));
    assert_string_equal(vn_move_text(&pos, m, buf), vn);
    Move back = vn_move_parse(&pos, vn, err, sizeof err);
    if (back != m) fail_msg("'%s' parsed to %d, not %s: %s", vn, back, iccs, err);
}

static void test_known_texts(void **state) {
    (void)state;
    expect_text(START_FEN, "h2e2", "P2-5");
    expect_text(START_FEN, "b0c2", "M8.7");
    expect_text(START_FEN, "i0i1", "X1.1");
    expect_text(START_FEN, "c0e2", "T7.5");
    expect_text(START_FEN, "f0e1", "S4.5");
    expect_text(START_FEN, "e3e4", "B5.1");
    expect_text(START_FEN, "e0e1", "Tg5.1");
    expect_text(START_FEN, "h2h9", "P2.7");
    expect_text(BlackStart, "h9g7", "M8.7");
    expect_text(BlackStart, "b7b0", "P2.7");
    expect_text(BlackStart, "h7e7", "P8-5");
    expect_text(BlackStart, "a9a8", "X1.1");
    /* a chariot going back, and two chariots on one file */
    expect_text("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1", "a4a1", "Xt/3");
    expect_text("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1", "a0b0", "Xs-8");
    expect_text("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1", "a4a8", "Xt.4");
    expect_text("4k4/9/9/9/9/9/9/9/8R/3K4R w - - 0 1", "i1i5", "Xt.4");
    expect_text("4k4/9/9/9/9/9/9/9/8R/3K4R w - - 0 1", "i0h0", "Xs-2");
}

/* Five, three and two pawns on a file, and pawns on two files. */
static void test_pawn_files(void **state) {
    (void)state;
    /* Red pawns on c5..c9 (Red's file 7); kings on d0 and f9. */
    const char *five = "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";
    expect_text(five, "c9b9", "Bt-8");
    expect_text(five, "c8d8", "Bg1-6");
    expect_text(five, "c7b7", "Bg2-8");
    expect_text(five, "c6d6", "Bg3-6");
    expect_text(five, "c5b5", "Bs-8");
    /* three on c (c5 c6 c7) and two on g (g5 g6, Red's file 3) */
    const char *two_files = "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
    expect_text(two_files, "c7c8", "Bt7.1");
    expect_text(two_files, "c6b6", "Bg7-8");
    expect_text(two_files, "c5d5", "Bs7-6");
    expect_text(two_files, "g6g7", "Bt3.1");
    expect_text(two_files, "g5h5", "Bs3-2");
    static Position pos;
    char err[160];
    must_parse(&pos, two_files);
    assert_int_equal(vn_move_parse(&pos, "Bg-8", err, sizeof err), move_from_text("c6b6", 0)); /* one middle pawn */
    assert_int_equal(vn_move_parse(&pos, "Bt.1", err, sizeof err), MOVE_NONE); /* front of which file? */
    assert_non_null(strstr(err, "ambiguous"));
    assert_int_equal(vn_move_parse(&pos, "B7.1", err, sizeof err), move_from_text("c7c8", 0)); /* only one can */
    assert_int_equal(vn_move_parse(&pos, "B7-8", err, sizeof err), MOVE_NONE);                 /* which of three? */
    assert_non_null(strstr(err, "ambiguous"));
    /* Black: pawns on c4 c3 (Black's file 3; c3 is the front one) */
    const char *black = "3k5/9/9/9/9/2p6/2p6/9/9/5K3 b - - 0 1";
    expect_text(black, "c3c2", "Bt.1");
    expect_text(black, "c4b4", "Bs-2");
}

/* Legal squares of each piece type for Red, as (file, rank). */
static bool red_square_ok(PieceType t, int f, int r) {
    switch (t) {
    case KING: return f >= 3 && f <= 5 && r <= 2;
    case ADVISOR: return (f == 4 && r == 1) || ((f == 3 || f == 5) && (r == 0 || r == 2));
    case ELEPHANT: return (r == 0 || r == 4) ? (f == 2 || f == 6) : r == 2 && f % 4 == 0;
    case PAWN: return r >= 5 || ((r == 3 || r == 4) && f % 2 == 0);
    default: return true;
    }
}

/* Put a piece of c on a random free legal square, half the time on file hot. */
static void place(Position *pos, Color c, PieceType t, int hot) {
    for (int tries = 0; tries < 200; tries++) {
        int f = rnd(2) ? hot : (int)rnd(FILE_NB), r = (int)rnd(RANK_NB);
        if (!red_square_ok(t, f, r)) continue;
        Square s = make_square(f, c == RED ? r : 9 - r);
        if (pos_piece_on(pos, s)) continue;
        pos_put_piece(pos, make_piece(c, t), s);
        return;
    }
}

/* A random legal position with up to two of each piece and five pawns a side,
 * crowded onto a few files so that pieces of a kind often share one. */
static void random_placement(Position *pos) {
    static const int Most[TYPE_NB] = {0, 1, 2, 2, 2, 2, 2, 5};
    for (;;) {
        pos_clear(pos);
        for (Color c = RED; c <= BLACK; c++)
            for (PieceType t = KING; t < TYPE_NB; t++) {
                int hot = (int)rnd(FILE_NB), n = t == KING ? 1 : (int)rnd((unsigned)Most[t] + 1);
                for (int i = 0; i < n; i++)
                    place(pos, c, t, t == PAWN && i == 3 ? (hot + 2) % FILE_NB : hot);
            }
        pos->side = (Color)rnd(2);
        if (!pos_pieces(pos, RED, KING) || !pos_pieces(pos, BLACK, KING)) continue;
        pos_finish_setup(pos);
        if (!pos_kings_face(pos) && !pos_attackers_to(pos, pos->king_sq[!pos->side], pos->side)) {
            assert_true(pos_is_ok(pos));
            return;
        }
    }
}

/* Forms the round trip met, to show that it covered every kind of origin. */
enum { SEEN_TANDEM = 1 << TYPE_NB, SEEN_MIDDLE = 2 << TYPE_NB, SEEN_NTH = 4 << TYPE_NB, SEEN_TWO_FILES = 8 << TYPE_NB };

static unsigned form_of(const Position *pos, Move m, const char *text) {
    Square from = move_from(m);
    PieceType t = type_of(pos_piece_on(pos, from));
    const char *q = text + (t == KING ? 2 : 1);
    if (*q >= '1' && *q <= '9') return 0;
    int on_file = 0;
    for (int r = 0; r < RANK_NB; r++)
        on_file += pos_piece_on(pos, make_square(file_of(from), r)) == pos_piece_on(pos, from);
    unsigned seen = SEEN_TANDEM | 1u << t;
    bool digit = q[1] >= '1' && q[1] <= '9';
    if (*q == 'g')
        seen |= on_file > 3 ? SEEN_NTH : SEEN_MIDDLE;
    else if (digit)
        seen |= SEEN_TWO_FILES;
    return seen;
}

/* Every legal move of pos and of its colour mirror survives write -> parse. */
static unsigned round_trip(const Position *pos) {
    static Position mirror;
    colour_mirror(pos, &mirror);
    unsigned seen = 0;
    for (int side = 0; side < 2; side++) {
        const Position *p = side ? &mirror : pos;
        MoveList legal;
        gen_legal(p, &legal);
        for (int i = 0; i < legal.count; i++) {
            char text[VN_TEXT_MAX], err[160], fen[FEN_MAX];
            Move m = legal.moves[i];
            vn_move_text(p, m, text);
            Move back = vn_move_parse(p, text, err, sizeof err);
            if (back != m) fail_msg("%s: '%s' parsed to %d, not %d: %s", fen_write(p, fen), text, back, m, err);
            seen |= form_of(p, m, text);
        }
    }
    return seen;
}

static void test_round_trip_games(void **state) {
    (void)state;
    static Position pos;
    int games = running_slow() ? 10 : 60;
    for (int g = 0; g < games; g++) {
        must_parse(&pos, START_FEN);
        for (int ply = 0; ply < 120; ply++) {
            round_trip(&pos);
            MoveList legal;
            gen_legal(&pos, &legal);
            if (!legal.count) break;
            pos_make_move(&pos, legal.moves[rnd((unsigned)legal.count)]);
        }
    }
}

static void test_round_trip_stacked(void **state) {
    (void)state;
    static Position pos;
    unsigned seen = 0;
    int positions = running_slow() ? 800 : 4000;
    for (int i = 0; i < positions; i++) {
        random_placement(&pos);
        seen |= round_trip(&pos);
    }
    for (PieceType t = KING + 1; t < TYPE_NB; t++)
        if (!(seen & (1u << t))) fail_msg("no two pieces of type %d on one file", t);
    assert_true(seen & SEEN_MIDDLE);
    assert_true(seen & SEEN_NTH);
    assert_true(seen & SEEN_TWO_FILES);
}

/* Replace every from in s (in place, s has room) by to. */
static void replace_all(char *s, size_t cap, const char *from, const char *to) {
    char out[64];
    size_t n = 0, lf = strlen(from), lt = strlen(to);
    for (const char *p = s; *p && n + lt < sizeof out;) {
        if (!strncmp(p, from, lf)) {
            memcpy(out + n, to, lt);
            n += lt;
            p += lf;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    snprintf(s, cap, "%s", out);
}

/* "Xt.1" -> "TiềnX.1" or "trướcX.1", "Bs-2" -> "HậuB-2" or "sauB-2", "Bg..." ->
 * "TrungB..." or "giữaB..."; other texts are left alone. */
static void qualifier_as_word(char *text, size_t cap) {
    static const char *const Words[][2] = {{"Tiền", "trước"}, {"Hậu", "sau"}, {"Trung", "giữa"}};
    size_t letters = text[0] == 'T' && text[1] == 'g' ? 2 : 1;
    const char *q = strchr("tsg", text[letters]);
    if (!text[letters] || !q) return;
    char out[64];
    snprintf(out, sizeof out, "%s%.*s%s", Words[q - "tsg"][rnd(2)], (int)letters, text, text + letters + 1);
    snprintf(text, cap, "%s", out);
}

/* B/C, T/V, Tg/K, letter case, dashes, full-width digits and signs, words. */
static void test_variants(void **state) {
    (void)state;
    static Position pos;
    static const char *const Digits[] = {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
    for (int i = 0; i < 300; i++) {
        random_placement(&pos);
        MoveList legal;
        gen_legal(&pos, &legal);
        for (int j = 0; j < legal.count; j++) {
            char text[64], err[160];
            Move m = legal.moves[j];
            vn_move_text(&pos, m, text);
            switch (rnd(7)) {
            case 0:
                replace_all(text, sizeof text, "Tg", "K");
                replace_all(text, sizeof text, "B", "C");
                break;
            case 1:
                if (text[0] == 'T' && text[1] != 'g') text[0] = 'V';
                replace_all(text, sizeof text, "-", "–"); /* en dash */
                break;
            case 2:
                for (int d = 0; d < 10; d++)
                    replace_all(text, sizeof text, (char[]){(char)('0' + d), '\0'}, Digits[d]);
                break;
            case 3:
                replace_all(text, sizeof text, ".", "．");
                replace_all(text, sizeof text, "/", "／");
                replace_all(text, sizeof text, "-", "－");
                break;
            case 4:
                for (char *p = text; *p; p++)
                    *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
                break;
            case 5:
                replace_all(text, sizeof text, "-", "—"); /* em dash */
                break;
            default: /* the qualifier as a word in front: TiềnX, HậuP, TrungB, trướcM, sauS, giữaB */
                qualifier_as_word(text, sizeof text);
                break;
            }
            Move back = vn_move_parse(&pos, text, err, sizeof err);
            if (back != m) fail_msg("variant '%s' parsed to %d, not %d: %s", text, back, m, err);
        }
    }
}

/*
 * A published opening in both notations: the table "Đọc biên bản cờ tướng
 * bằng tiếng Anh/Trung/Việt" (hieponly.top, 10 November 2017,
 * https://www.hieponly.top/2017/11/oc-bien-ban-co-tuong-bang-tieng.html)
 * writes 1.P2-5 M8.7 2.M2.3 M2.3 3.X1-2 X9-8 4.C7.1 C7.1 beside the WXF
 * 1.C2=5 H8+7 2.H2+3 H2+3 3.R1=2 R9=8 4.P7+1 P7+1 (C is the pawn there).
 * The ICCS moves below are that WXF read on the board.
 */
static void test_published_opening(void **state) {
    (void)state;
    static const char *const Vn[] = {"P2-5", "M8.7", "M2.3", "M2.3", "X1-2", "X9-8", "C7.1", "C7.1"};
    static const char *const Iccs[] = {"h2e2", "h9g7", "h0g2", "b9c7", "i0h0", "i9h9", "c3c4", "g6g5"};
    static Position pos;
    must_parse(&pos, START_FEN);
    for (size_t i = 0; i < sizeof Vn / sizeof *Vn; i++) {
        char err[160];
        Move m = vn_move_parse(&pos, Vn[i], err, sizeof err);
        if (m != move_from_text(Iccs[i], 0)) fail_msg("ply %zu '%s': %s", i + 1, Vn[i], err);
        pos_make_move(&pos, m);
    }
    /* The Vietnamese Wikipedia's example (quoted on thanglongkydao.com,
     * thread 17 "Nguồn gốc cờ tướng", 2009): 1. P2-5 M8.7 2. P8/1 B7.1. */
    static const char *const Wiki[] = {"P2-5", "M8.7", "P8/1", "B7.1"};
    static const char *const WikiIccs[] = {"h2e2", "h9g7", "b2b1", "g6g5"};
    must_parse(&pos, START_FEN);
    for (size_t i = 0; i < 4; i++) {
        char err[160];
        Move m = vn_move_parse(&pos, Wiki[i], err, sizeof err);
        if (m != move_from_text(WikiIccs[i], 0)) fail_msg("ply %zu '%s': %s", i + 1, Wiki[i], err);
        pos_make_move(&pos, m);
    }
}

/*
 * A whole published game: Lư Huy against Tạ Hiệp Tốn, early 20th century,
 * as "\"Á vương\" Lư Huy ngũ thất pháo lực tỏa Kỳ đàn tổng tư lệnh Tạ hiệp
 * Tốn" gives it (hieponly.com, 14 November 2016,
 * http://www.hieponly.com/2016/11/a-vuong-lu-huy-ngu-that-phao-luc-toa-ky.html),
 * moves 1-23 with the commentary left out, written as there: C for the pawn,
 * `TiềnX/1` for the front chariot. The ICCS beside it is the game read on a
 * board; what says the reading is right: all 46 moves are legal and each
 * names one move, the front chariot has a rear one on its file at move 21,
 * and the commentary's "Red has won an elephant" after move 18 holds.
 */
static void test_published_game(void **state) {
    (void)state;
    static const char *const Vn[] = {"P2-5",    "M8.7", "M2.3", "C3.1", "M8.9", "X9.1", "P8-7", "X9-4", "X9-8", "C1.1",
                                     "X1-2",    "X4.3", "X2.6", "X4-7", "X8.4", "X7.2", "C7.1", "T3.1", "C7.1", "T1.3",
                                     "M9.7",    "M2.4", "M7.5", "X7-6", "M5.7", "P2-3", "X2-3", "X6/4", "P7.5", "X6-3",
                                     "X8.4",    "X1.2", "X8-6", "X3.2", "X6-3", "X3/2", "M3.4", "S4.5", "M4.2", "P8-9",
                                     "TiềnX/1", "X3-7", "X3.1", "X1-7", "M2.3", "P9.4"};
    static const char *const Iccs[] = {"h2e2", "h9g7", "h0g2", "c6c5", "b0a2", "i9i8", "b2c2", "i8d8", "a0b0", "a6a5",
                                       "i0h0", "d8d5", "h0h6", "d5g5", "b0b4", "g5g3", "c3c4", "c9a7", "c4c5", "a7c5",
                                       "a2c3", "b9d8", "c3e4", "g3f3", "e4c5", "b7c7", "h6g6", "f3f7", "c2c7", "f7c7",
                                       "b4b8", "a9a7", "b8d8", "c7c5", "d8g8", "c5c7", "g2f4", "d9e8", "f4h5", "h7i7",
                                       "g8g7", "c7g7", "g6g7", "a7g7", "h5g7", "i7i3"};
    static Position pos;
    must_parse(&pos, START_FEN);
    for (size_t i = 0; i < sizeof Vn / sizeof *Vn; i++) {
        char err[160];
        Move m = vn_move_parse(&pos, Vn[i], err, sizeof err);
        if (m != move_from_text(Iccs[i], 0)) fail_msg("ply %zu '%s': %s", i + 1, Vn[i], err);
        if (i == 36) { /* after 18... X3/2: Red has both elephants, Black one */
            assert_int_equal(bb_popcount(pos_pieces(&pos, RED, ELEPHANT)), 2);
            assert_int_equal(bb_popcount(pos_pieces(&pos, BLACK, ELEPHANT)), 1);
        }
        if (i == 40) /* TiềnX/1: the rear chariot stands on g6 */
            assert_int_equal(pos_piece_on(&pos, move_from(move_from_text("g6g7", 0))), make_piece(RED, ROOK));
        pos_make_move(&pos, m);
    }
}

static void expect_error(const char *fen, const char *text, const char *needle) {
    static Position pos;
    char err[160];
    must_parse(&pos, fen);
    Move m = vn_move_parse(&pos, text, err, sizeof err);
    if (m != MOVE_NONE) fail_msg("'%s' parsed", text);
    if (!strstr(err, needle)) fail_msg("'%s': error '%s' lacks '%s'", text, err, needle);
    (void)vn_move_parse(&pos, text, err, 1); /* a short buffer is never overrun */
    assert_int_equal(err[0], '\0');
}

static void test_bad_input(void **state) {
    (void)state;
    const char *rooks = "4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1";
    expect_error(START_FEN, "Q2-5", "unknown piece letter 'Q'");
    expect_error(START_FEN, "H8.7", "unknown piece letter 'H'");
    expect_error(START_FEN, "", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2-", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2-0", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2-55", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2+5", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P0-5", "not a move in Vietnamese notation");
    expect_error(START_FEN, "Pt2.2.", "not a move in Vietnamese notation");
    expect_error(START_FEN, "h2e2", "unknown piece letter 'h'");
    expect_error(START_FEN, "炮二平五", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P2\xff-5", "not a move in Vietnamese notation");
    expect_error(START_FEN, "P3-5", "Red has no cannon (P)");
    expect_error(START_FEN, "Xt.1", "Red has no chariot (X)");
    expect_error(START_FEN, "M8.6", "illegal move for Red"); /* the elephant blocks the leg */
    expect_error(START_FEN, "X1-2", "illegal move for Red");
    expect_error(BlackStart, "X1-2", "illegal move for Black");
    expect_error(rooks, "X9.1", "ambiguous, 2 legal moves");
    expect_error(rooks, "Xg.1", "Red has no chariot (X)");
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_texts),      cmocka_unit_test(test_pawn_files),
        cmocka_unit_test(test_round_trip_games), cmocka_unit_test(test_round_trip_stacked),
        cmocka_unit_test(test_variants),         cmocka_unit_test(test_published_opening),
        cmocka_unit_test(test_published_game),   cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
