// SPDX-License-Identifier: GPL-3.0-or-later
/* End to end: bad and awkward input. Each bad line gets one error line and
 * the engine keeps running. Also the command line (tuong --help ...). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_proc.h"
#include "fen.h"
#include "notation.h"
#include "version.h"

static int T5s;

static int count_until_ready(Engine *e, const char *prefix) { return eng_count_until_ready(e, prefix, T5s); }

static void test_garbage_lines(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start(&e);
    /* Before the handshake errors use the UCI form. */
    eng_send(&e, "xyzzy plugh");
    eng_expect(&e, "info string error: unknown command 'xyzzy'", T5s, NULL, 0);
    eng_send(&e, "ucci");
    eng_expect(&e, "ucciok", T5s, NULL, 0);
    eng_send(&e, "xyzzy");
    eng_expect(&e, "info message error: ", T5s, line, sizeof line);
    eng_send(&e, "");
    eng_send(&e, "   ");
    eng_send(&e, "\t\r");
    assert_int_equal(count_until_ready(&e, ""), 0); /* blank lines: no reply at all */
    eng_send(&e, "go depth 2 bogus");
    eng_expect(&e, "info message error: go: ignored unknown word 'bogus'", T5s, NULL, 0);
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "perft");
    eng_expect(&e, "info message error: ", T5s, NULL, 0);
    eng_send(&e, "quit");
    eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_crlf_case_spaces(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start(&e);
    eng_write(&e, "UCI\r\n", 5);
    eng_expect(&e, "uciok", T5s, NULL, 0);
    eng_write(&e, "  IsReady  \r\n", 13);
    eng_expect(&e, "readyok", T5s, NULL, 0);
    static const char Pos[] = "  POSITION   StartPos\tMoves  H2E2   h9g7 \r\n";
    eng_write(&e, Pos, sizeof Pos - 1);
    eng_write(&e, "D\r\n", 3);
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    static const char Opt[] = "setoption   name   Hash   value   8  \r\n";
    eng_write(&e, Opt, sizeof Opt - 1);
    assert_int_equal(count_until_ready(&e, "info string"), 0);
    eng_finish(&e);
}

static void test_nul_bytes(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    static const char Bad[] = "isr\0eady\n";
    eng_write(&e, Bad, sizeof Bad - 1);
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    static const char Bad2[] = "\0\0\0\n";
    eng_write(&e, Bad2, sizeof Bad2 - 1);
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_sync(&e);
    eng_finish(&e);
}

/* A line of `count` legal moves from the start: horses out and back. */
static char *shuffle_line(const char *head, size_t count) {
    static const char *const Cycle[] = {" b0c2", " b9c7", " c2b0", " c7b9"};
    char *line = malloc(strlen(head) + count * 5 + 1);
    strcpy(line, head);
    char *p = line + strlen(line);
    for (size_t i = 0; i < count; i++, p += 5)
        memcpy(p, Cycle[i % 4], 5);
    *p = '\0';
    return line;
}

static void test_long_lines(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    /* 100 KB of garbage: one error line, nothing split into commands. */
    size_t big = 100 * 1024;
    char *garbage = malloc(big + 1);
    for (size_t i = 0; i < big; i++)
        garbage[i] = i % 7 == 6 ? ' ' : (char)('a' + i % 26);
    garbage[big] = '\n';
    eng_write(&e, garbage, big + 1);
    assert_int_equal(count_until_ready(&e, "info string error: "), 1);
    /* 100 KB garbage made of real commands words: still one line, one error. */
    for (size_t i = 0; i + 8 < big; i += 8)
        memcpy(garbage + i, "isready ", 8);
    memcpy(garbage, "bogus   ", 8);
    eng_write(&e, garbage, big + 1);
    assert_int_equal(count_until_ready(&e, "info string error: "), 1);
    free(garbage);
    /* 3000 legal moves (15 KB): accepted whole. */
    char *ok = shuffle_line("position startpos moves", 3000);
    eng_send(&e, "%s", "position startpos moves h2e2");
    eng_write(&e, ok, strlen(ok));
    eng_write(&e, "\n", 1);
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 3000 1501");
    eng_send(&e, "go depth 2");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    free(ok);
    /* 20000 moves (100 KB): too many; rejected, the old position kept. */
    eng_send(&e, "position startpos moves h2e2");
    char *many = shuffle_line("position startpos moves", 20000);
    eng_write(&e, many, strlen(many));
    eng_write(&e, "\n", 1);
    eng_expect(&e, "info string error: ", T5s, NULL, 0);
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    free(many);
    /* Beyond the reader's limit: dropped with one error line. */
    size_t huge = (2u << 20) + 3;
    char *h = malloc(huge + 1);
    memset(h, 'q', huge);
    h[huge] = '\n';
    eng_write(&e, h, huge + 1);
    free(h);
    assert_int_equal(count_until_ready(&e, "info string error: "), 1);
    eng_finish(&e);
}

static void test_bad_positions_uci(void **state) {
    (void)state;
    Engine e;
    char line[ENG_LINE];
    eng_start_dialect(&e, "uci");
    eng_send(&e, "position startpos moves b0c2");
    static const char *const Bad[] = {
        "position fen xyz",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w", /* kings face each other */
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 e2e9",
        "position startpos moves b9c7", /* Black's move with Red to play */
        "position startpos moves h2e2 h2e2",
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        eng_send(&e, "%s", Bad[i]);
        eng_expect(&e, "info string error: position: ", T5s, NULL, 0);
    }
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 1 1");
    /* E and H letters, side r, missing counters. */
    eng_send(&e, "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r");
    eng_send(&e, "d");
    eng_expect(&e, "Fen: ", T5s, line, sizeof line);
    assert_string_equal(line, "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    eng_finish(&e);
}

/* Run tuong with arguments; its output into out, the exit code back. */
static int run_cli(const char *const *args, char *out, size_t size) {
    Engine e;
    eng_start_args(&e, args);
    eng_close_input(&e);
    size_t used = 0;
    char line[ENG_LINE];
    while (eng_read_line(&e, line, sizeof line, eng_slow(60000))) {
        int n = snprintf(out + used, size - used, "%s\n", line);
        if (n > 0 && used + (size_t)n < size) used += (size_t)n;
    }
    int code = eng_wait(&e, T5s);
    eng_finish(&e);
    return code;
}

static void test_command_line(void **state) {
    (void)state;
    static char out[1 << 16];
    assert_int_equal(run_cli((const char *const[]){"--version", NULL}, out, sizeof out), 0);
    assert_true(!strncmp(out, "Tuong ", 6));
    assert_int_equal(run_cli((const char *const[]){"--help", NULL}, out, sizeof out), 0);
    assert_non_null(strstr(out, "usage: tuong"));
    assert_int_equal(run_cli((const char *const[]){"perft", "2", NULL}, out, sizeof out), 0);
    assert_non_null(strstr(out, "h2e2: 45\n"));
    assert_non_null(strstr(out, "\nNodes searched: 1920\n"));
    assert_int_equal(
        run_cli((const char *const[]){"perft", "1", "4k4/9/9/9/9/9/9/9/9/3K5", "w", NULL}, out, sizeof out), 0);
    assert_non_null(strstr(out, "Nodes searched: 1\n"));
    assert_int_equal(run_cli((const char *const[]){"perft", "x", NULL}, out, sizeof out), 2);
    assert_int_equal(run_cli((const char *const[]){"--frobnicate", NULL}, out, sizeof out), 2);
    assert_int_equal(run_cli((const char *const[]){"bench", "0", NULL}, out, sizeof out), 2);
    assert_int_equal(run_cli((const char *const[]){"bench", "2", NULL}, out, sizeof out), 0);
    assert_non_null(strstr(out, "Nodes searched: "));
}

/* tuong perft with threads and a table, and --epd: verdicts and exit status. */
static void test_command_line_perft(void **state) {
    (void)state;
    static char out[1 << 16];
    assert_int_equal(
        run_cli((const char *const[]){"perft", "4", "--threads", "2", "--hash", "1", NULL}, out, sizeof out), 0);
    assert_non_null(strstr(out, "h2e2: 66333\n"));
    assert_non_null(strstr(out, "\nNodes searched: 3290240\n"));
    /* Options anywhere, a FEN in several words. */
    static const char *const Scattered[] = {
        "perft", "--threads", "3", "3", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2", "w", "--hash", "0", NULL};
    assert_int_equal(run_cli(Scattered, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nNodes searched: 9850\n"));
    static const char *const Bad[][8] = {
        {"perft", "3", "--threads", "0"},   {"perft", "3", "--threads", "257"}, {"perft", "3", "--hash", "-1"},
        {"perft", "3", "--hash", "x"},      {"perft", "3", "--threads"},        {"perft", "3", "--frob", "1"},
        {"perft", "3", "--depth", "2"},     {"perft", "--threads", "2"},        {"perft", "--epd", "/nonexistent"},
        {"perft", "--epd", "/dev/null"},    {"perft", "--epd", TUONG_DATA_DIR "/perft.epd", "3"},
        {"perft", "--epd", TUONG_DATA_DIR "/perft.epd", "--depth", "0"},
    };
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++)
        if (run_cli(Bad[i], out, sizeof out) != 2) fail_msg("case %zu (%s %s) did not exit 2", i, Bad[i][1], Bad[i][2]);
    assert_int_equal(
        run_cli((const char *const[]){"perft", "--epd", TUONG_DATA_DIR "/perft.epd", "--depth", "2", "--threads", "2",
                                      NULL},
                out, sizeof out),
        0);
    assert_non_null(strstr(out, " ok, 0 failed, "));
    assert_non_null(strstr(out, "ok    line 1: 2 counts to D2 match ("));
    /* One count wrong: a FAIL line and exit status 1. */
    char path[] = "/tmp/tuong-test-epd-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1 ;D1 25 ;D2 425\n", f);
    fclose(f);
    assert_int_equal(run_cli((const char *const[]){"perft", "--epd", path, "--hash", "1", NULL}, out, sizeof out), 1);
    unlink(path);
    assert_non_null(strstr(out, "FAIL  line 1: D2 424, expected 425 ("));
    assert_non_null(strstr(out, "1 position: 0 ok, 1 failed, 0 skipped; 2 counts checked, "));
}

/* `tuong --version` says the version, the commit and the build flavour,
 * and both protocols' id name say the same. */
static void test_version_and_id_name(void **state) {
    (void)state;
    static char out[1 << 12];
    assert_int_equal(run_cli((const char *const[]){"--version", NULL}, out, sizeof out), 0);
    out[strcspn(out, "\n")] = '\0';
    char version[32], commit[64], flavour[32], os[32];
    assert_int_equal(sscanf(out, "Tuong %31s (git %63[^,], %31[^,], %31[^)])", version, commit, flavour, os), 4);
    assert_string_equal(version, TUONG_VERSION);
    assert_true(strlen(commit) >= 7 || !strcmp(commit, "unknown"));
    assert_true(!strcmp(flavour, "native") || !strcmp(flavour, "x86-64") || !strcmp(flavour, "avx2") ||
                !strcmp(flavour, "generic"));
#ifdef __linux__
    assert_string_equal(os, "linux");
#endif
    char want[sizeof out + 16], line[ENG_LINE];
    snprintf(want, sizeof want, "id name %s", out);
    for (int d = 0; d < 2; d++) {
        Engine e;
        eng_start(&e);
        eng_send(&e, d ? "uci" : "ucci");
        eng_expect(&e, "id name ", T5s, line, sizeof line);
        assert_string_equal(line, want);
        eng_finish(&e);
    }
}

/* A whole GUI session with CRLF line ends, as Windows GUIs send them: the
 * handshake, options, a position with moves, a search that ends in a legal
 * move, a stop, and quit with exit status 0. */
static void crlf_session(bool uci) {
    Engine e;
    char line[ENG_LINE], err[200];
    eng_start(&e);
    static const char *const Ucci[] = {"ucci\r\n", "setoption usemillisec true\r\n", "setoption hashsize 16\r\n",
                                       "isready\r\n", "position startpos moves h2e2 h9g7\r\n", "go depth 4\r\n"};
    static const char *const Uci[] = {"uci\r\n", "setoption name UCI_Variant value xiangqi\r\n",
                                      "setoption name Hash value 16\r\n", "isready\r\n",
                                      "position startpos moves h2e2 h9g7\r\n", "go depth 4\r\n"};
    const char *const *lines = uci ? Uci : Ucci;
    for (int i = 0; i < 6; i++) {
        eng_write(&e, lines[i], strlen(lines[i]));
        if (i == 0) eng_expect(&e, uci ? "uciok" : "ucciok", T5s, NULL, 0);
        if (i == 3) eng_expect(&e, "readyok", T5s, NULL, 0);
    }
    eng_expect(&e, "bestmove ", eng_slow(20000), line, sizeof line);
    Position pos;
    must_parse(&pos, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    char move[16];
    assert_int_equal(sscanf(line, "bestmove %15s", move), 1);
    if (move_parse_legal(&pos, move, 0, err, sizeof err) == MOVE_NONE) fail_msg("%s: %s", line, err);
    eng_write(&e, "go infinite\r\n", 13);
    eng_send(&e, "isready");
    eng_expect(&e, "readyok", T5s, NULL, 0);
    eng_write(&e, "stop\r\n", 6);
    eng_expect(&e, "bestmove ", T5s, NULL, 0);
    eng_write(&e, "quit\r\n", 6);
    if (!uci) eng_expect(&e, "bye", T5s, NULL, 0);
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

static void test_crlf_session_ucci(void **state) {
    (void)state;
    crlf_session(false);
}

static void test_crlf_session_uci(void **state) {
    (void)state;
    crlf_session(true);
}

int main(void) {
    engine_init(); /* the move checks here use the engine's tables */
    T5s = eng_slow(5000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_garbage_lines),     cmocka_unit_test(test_crlf_case_spaces),
        cmocka_unit_test(test_nul_bytes),         cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_bad_positions_uci), cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_command_line_perft),
        cmocka_unit_test(test_version_and_id_name), cmocka_unit_test(test_crlf_session_ucci),
        cmocka_unit_test(test_crlf_session_uci),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
