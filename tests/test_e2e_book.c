// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end, both dialects: the built tuong binary playing from an
 * opening book made by the test. */
#include "test_support.h"

#include <stdlib.h>
#include <unistd.h>

#include "book/book_key.h"
#include "book/book_write.h"
#include "engine_proc.h"
#include "fen.h"
#include "notation.h"

#define AFTER_H2E2 "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"

static char Dir[] = "/tmp/tuong_test_e2e_book_XXXXXX";
static char BookPath[300], CutPath[300], ForeignPath[300];
static int T5s;

/* Start: h2e2 (50), b0c2 (10), c3c4 (5); after h2e2: h9g7 (20). */
static void make_book(void) {
    static Position pos;
    static const struct {
        const char *fen, *move;
        uint32_t weight;
    } Lines[] = {
        {START_FEN, "h2e2", 50},
        {START_FEN, "b0c2", 10},
        {START_FEN, "c3c4", 5},
        {AFTER_H2E2, "h9g7", 20},
    };
    BookEntry e[4];
    for (int i = 0; i < 4; i++) {
        must_parse(&pos, Lines[i].fen);
        e[i] = (BookEntry){book_keys(&pos).key, move_from_text(Lines[i].move, 0), Lines[i].weight, 1, 0, 0};
    }
    char err[300];
    snprintf(BookPath, sizeof BookPath, "%s/small.tbk", Dir);
    if (!book_write(BookPath, BOOK_FORMAT_TUONG, e, 4, err, sizeof err)) fail_msg("%s", err);
    /* The same book cut in the middle of an entry. */
    snprintf(CutPath, sizeof CutPath, "%s/cut.tbk", Dir);
    FILE *in = fopen(BookPath, "rb"), *out = fopen(CutPath, "wb");
    char buf[BOOK_HEADER_SIZE + 30];
    assert_int_equal(fread(buf, 1, sizeof buf, in), sizeof buf);
    assert_int_equal(fwrite(buf, 1, sizeof buf, out), sizeof buf);
    fclose(in);
    fclose(out);
    snprintf(ForeignPath, sizeof ForeignPath, "%s/notes.txt", Dir);
    out = fopen(ForeignPath, "w");
    fputs("This is not an opening book.\n", out); /* 29 bytes */
    fclose(out);
}

/* Was there a book move line before bestmove? The bestmove line goes to out. */
static bool book_answer(Engine *e, const char *book_line, char *out, size_t size) {
    char line[ENG_LINE];
    bool seen = false;
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        if (!strncmp(line, book_line, strlen(book_line))) seen = true;
        if (!strncmp(line, "bestmove", 8) || !strncmp(line, "nobestmove", 10)) {
            snprintf(out, size, "%s", line);
            return seen;
        }
    }
}

static void test_ucci_plays_from_book(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption bookfiles %s", BookPath);
    eng_expect(&e, "info message book '", T5s, line, sizeof line);
    assert_non_null(strstr(line, "Tuong book, 4 entries"));
    eng_send(&e, "position startpos");
    eng_send(&e, "go time 60 increment 0");
    eng_expect(&e, "info depth 0 score 0 pv h2e2", T5s, NULL, 0);
    eng_expect(&e, "info message book move h2e2", T5s, NULL, 0);
    eng_expect(&e, "bestmove", T5s, line, sizeof line);
    assert_string_equal(line, "bestmove h2e2 ponder h9g7"); /* randomness none: the heaviest */
    /* banmoves: the next book move. */
    eng_send(&e, "banmoves h2e2");
    eng_send(&e, "go depth 6");
    assert_true(book_answer(&e, "info message book move b0c2", line, sizeof line));
    assert_string_equal(line, "bestmove b0c2");
    /* Black's reply from the book, then a position it does not know. */
    eng_send(&e, "position startpos moves h2e2");
    eng_send(&e, "go nodes 5000");
    assert_true(book_answer(&e, "info message book move h9g7", line, sizeof line));
    assert_string_equal(line, "bestmove h9g7");
    eng_send(&e, "position startpos moves h2e2 h9g7");
    eng_send(&e, "go depth 2");
    assert_false(book_answer(&e, "info message book move", line, sizeof line));
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* Analysis and pondering search; usebook false searches. */
static void test_ucci_when_not_from_book(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption bookfiles %s", BookPath);
    eng_send(&e, "position startpos");
    eng_send(&e, "go infinite");
    eng_expect(&e, "info depth 1 ", eng_slow(20000), NULL, 0);
    eng_send(&e, "stop");
    assert_false(book_answer(&e, "info message book move", line, sizeof line));
    eng_send(&e, "go ponder time 60");
    eng_expect(&e, "info depth 1 ", eng_slow(20000), NULL, 0);
    eng_send(&e, "stop");
    assert_false(book_answer(&e, "info message book move", line, sizeof line));
    eng_send(&e, "setoption usebook false");
    eng_send(&e, "go depth 2");
    assert_false(book_answer(&e, "info message book move", line, sizeof line));
    eng_send(&e, "setoption usebook true");
    eng_send(&e, "go depth 2");
    assert_true(book_answer(&e, "info message book move", line, sizeof line));
    eng_sync(&e);
    eng_finish(&e);
}

/* A stop that crosses the book's answer gets no second answer. */
static void test_ucci_stop_after_book_move(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption bookfiles %s", BookPath);
    eng_send(&e, "position startpos");
    eng_send(&e, "go time 60");
    eng_send(&e, "stop");
    eng_expect(&e, "bestmove h2e2", T5s, line, sizeof line);
    assert_int_equal(eng_count_until_ready(&e, "nobestmove", T5s), 0);
    eng_finish(&e);
}

/* Missing, truncated and foreign files: one error line each, and the
 * engine plays on by searching. */
static void test_bad_book_files(void **state) {
    (void)state;
    static const char *const Words[] = {"cannot open", "truncated", "neither a Tuong book"};
    char missing[320], line[ENG_LINE];
    snprintf(missing, sizeof missing, "%s/missing.tbk", Dir);
    const char *paths[] = {missing, CutPath, ForeignPath};
    for (int dialect = 0; dialect < 2; dialect++) {
        Engine e;
        eng_start_dialect(&e, dialect ? "uci" : "ucci");
        const char *prefix = dialect ? "info string error: book: " : "info message error: book: ";
        for (int i = 0; i < 3; i++) {
            eng_send(&e, dialect ? "setoption name BookFile value %s" : "setoption bookfiles %s", paths[i]);
            eng_expect(&e, prefix, T5s, line, sizeof line);
            if (!strstr(line, Words[i])) fail_msg("'%s' lacks '%s'", line, Words[i]);
            assert_int_equal(eng_count_until_ready(&e, "info", T5s), 0); /* only the one line */
        }
        eng_send(&e, dialect ? "setoption name OwnBook value true" : "setoption usebook true");
        eng_send(&e, "position startpos");
        eng_send(&e, "go depth 2");
        assert_false(book_answer(&e, dialect ? "info string book move" : "info message book move", line, sizeof line));
        assert_int_equal(strncmp(line, "bestmove ", 9), 0);
        eng_sync(&e);
        eng_finish(&e);
    }
}

static void test_uci_plays_from_book(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start(&e);
    eng_send(&e, "uci");
    eng_expect(&e, "option name OwnBook type check default false", T5s, NULL, 0);
    eng_expect(&e, "option name BookFile type string", T5s, NULL, 0);
    eng_expect(&e, "uciok", T5s, NULL, 0);
    eng_send(&e, "setoption name BookFile value %s", BookPath);
    eng_expect(&e, "info string book '", T5s, NULL, 0);
    eng_send(&e, "position startpos");
    eng_send(&e, "go depth 2"); /* OwnBook is off by default in UCI */
    assert_false(book_answer(&e, "info string book move", line, sizeof line));
    eng_send(&e, "setoption name OwnBook value true");
    eng_send(&e, "go wtime 60000 btime 60000 winc 0 binc 0");
    eng_expect(&e, "info depth 0 score cp 0 pv h2e2", T5s, NULL, 0);
    assert_true(book_answer(&e, "info string book move h2e2", line, sizeof line));
    assert_string_equal(line, "bestmove h2e2 ponder h9g7");
    eng_send(&e, "go movetime 1000 searchmoves c3c4 b0c2"); /* analysis of chosen moves: search */
    assert_false(book_answer(&e, "info string book move", line, sizeof line));
    eng_send(&e, "setoption name Notation value fairy");
    eng_send(&e, "go movetime 1000");
    assert_true(book_answer(&e, "info string book move h3e3", line, sizeof line));
    assert_string_equal(line, "bestmove h3e3 ponder h10g8");
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static int setup(void **state) {
    (void)state;
    T5s = eng_slow(5000);
    engine_init();
    if (!mkdtemp(Dir)) return -1;
    make_book();
    return 0;
}

static int teardown(void **state) {
    (void)state;
    unlink(BookPath);
    unlink(CutPath);
    unlink(ForeignPath);
    return rmdir(Dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ucci_plays_from_book),      cmocka_unit_test(test_ucci_when_not_from_book),
        cmocka_unit_test(test_ucci_stop_after_book_move), cmocka_unit_test(test_bad_book_files),
        cmocka_unit_test(test_uci_plays_from_book),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
