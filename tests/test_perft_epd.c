// SPDX-License-Identifier: GPL-3.0-or-later
/* Perft EPD checking: the line parser, and the verdicts, summary and exit
 * status of a whole file (a wrong count, a depth limit, malformed files). */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fen.h"
#include "perft_epd.h"

static void test_parse_good_lines(void **state) {
    (void)state;
    PerftEpdRecord r;
    char err[200];
    assert_int_equal(perft_epd_parse_line(START_FEN " ;D1 44 ;D2 1920 ;D3 79666\n", &r, err, sizeof err),
                     EPD_LINE_RECORD);
    assert_string_equal(r.fen, START_FEN);
    assert_true(r.has[1] && r.has[2] && r.has[3] && !r.has[4] && !r.has[0]);
    assert_int_equal(r.nodes[3], 79666);
    /* Spacing, CRLF, a trailing ';' and depths out of order are fine. */
    assert_int_equal(perft_epd_parse_line("  4k4/9/9/9/9/9/9/9/9/3K5 w;D3   17 ; D1 3 ;\r\n", &r, err, sizeof err),
                     EPD_LINE_RECORD);
    assert_string_equal(r.fen, "4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_true(r.has[1] && r.has[3] && !r.has[2]);
    assert_int_equal(r.nodes[1], 3);
    assert_int_equal(r.nodes[3], 17);
    assert_int_equal(perft_epd_parse_line("x ;D20 18446744073709551615", &r, err, sizeof err), EPD_LINE_RECORD);
    assert_true(r.nodes[20] == UINT64_MAX);
    /* Blank lines and comments are no records. */
    assert_int_equal(perft_epd_parse_line("\n", &r, err, sizeof err), EPD_LINE_EMPTY);
    assert_int_equal(perft_epd_parse_line("   \t \r\n", &r, err, sizeof err), EPD_LINE_EMPTY);
    assert_int_equal(perft_epd_parse_line("# D1 44\n", &r, err, sizeof err), EPD_LINE_EMPTY);
}

static void test_parse_bad_lines(void **state) {
    (void)state;
    static const char *const Bad[] = {
        START_FEN,                             /* no field */
        START_FEN " ;",                        /* no field either */
        START_FEN " ;D1 44 ;id start",         /* not a count */
        START_FEN " ;D0 1",                    /* depth 0 */
        START_FEN " ;D21 1",                   /* beyond the deepest */
        START_FEN " ;D1",                      /* no count */
        START_FEN " ;D1 4 4",                  /* two counts */
        START_FEN " ;D1 -44",                  /* a sign */
        START_FEN " ;D1 0x2c",                 /* not decimal */
        START_FEN " ;D1 18446744073709551616", /* overflow */
        START_FEN " ;d1 44",                   /* lower case */
        START_FEN " ;D+1 44",                  /* a signed depth */
        START_FEN " ;D1 44 ;D1 44",            /* twice */
    };
    PerftEpdRecord r;
    char err[200];
    for (size_t i = 0; i < sizeof Bad / sizeof Bad[0]; i++) {
        err[0] = '\0';
        if (perft_epd_parse_line(Bad[i], &r, err, sizeof err) != EPD_LINE_ERROR) fail_msg("accepted: %s", Bad[i]);
        assert_true(strlen(err) > 10);
    }
    assert_int_equal(perft_epd_parse_line(START_FEN " ;D1 44 ;D1 45", &r, err, sizeof err), EPD_LINE_ERROR);
    assert_string_equal(err, "depth 1 is given twice");
    static char longline[PERFT_EPD_LINE_MAX + 10];
    memset(longline, 'p', sizeof longline - 1);
    assert_int_equal(perft_epd_parse_line(longline, &r, err, sizeof err), EPD_LINE_ERROR);
    memset(longline, 'p', 300);
    strcpy(longline + 300, " ;D1 1");
    assert_int_equal(perft_epd_parse_line(longline, &r, err, sizeof err), EPD_LINE_ERROR);
    assert_non_null(strstr(err, "FEN longer"));
}

/* A temporary EPD file holding `text`; the caller unlinks `path`. */
static void write_epd(char *path, size_t len, const char *text) {
    snprintf(path, len, "/tmp/tuong-test-perft-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

typedef struct {
    int status;
    char out[8192], err[1024];
} CheckRun;

static void read_all(FILE *f, char *buf, size_t len) {
    rewind(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static void run_check(const char *text, int max_depth, const PerftOptions *opt, CheckRun *run) {
    char path[64];
    write_epd(path, sizeof path, text);
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    run->status = perft_epd_check(path, max_depth, opt, out, err);
    unlink(path);
    read_all(out, run->out, sizeof run->out);
    read_all(err, run->err, sizeof run->err);
}

static const char Good[] = "# two positions with true counts, one with a wrong D3\n"
                           "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 44 ;D2 1920 ;D3 "
                           "79666\n"
                           "\n"
                           "3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1 ;D1 0 ;D2 0\n";
static const char Wrong[] = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1 ;D1 25 ;D2 424 ;D3 9851\n";

static void test_verdicts_and_status(void **state) {
    (void)state;
    static CheckRun run;
    PerftTable table = {0};
    assert_true(perft_table_init(&table, 1 << 16));
    PerftOptions plain = {.threads = 1, .table = NULL}, fast = {.threads = 2, .table = &table};
    const PerftOptions *opts[] = {&plain, &fast};
    for (int i = 0; i < 2; i++) {
        run_check(Good, PERFT_EPD_DEPTH_MAX, opts[i], &run);
        assert_int_equal(run.status, 0);
        assert_string_equal(run.err, "");
        assert_non_null(strstr(run.out, "ok    line 2: 3 counts to D3 match ("));
        assert_non_null(strstr(run.out, "ok    line 4: 2 counts to D2 match ("));
        assert_non_null(strstr(run.out, "2 positions: 2 ok, 0 failed, 0 skipped; 5 counts checked, 81630 nodes in "));

        static char both[sizeof Good + sizeof Wrong];
        snprintf(both, sizeof both, "%s%s", Good, Wrong);
        run_check(both, PERFT_EPD_DEPTH_MAX, opts[i], &run);
        assert_int_equal(run.status, 1);
        assert_non_null(strstr(run.out, "FAIL  line 5: D3 9850, expected 9851 ("));
        assert_non_null(strstr(run.out, "3 positions: 2 ok, 1 failed, 0 skipped; 8 counts checked, "));
        /* Up to depth 2 the wrong count is not looked at. */
        run_check(both, 2, opts[i], &run);
        assert_int_equal(run.status, 0);
        assert_non_null(strstr(run.out, "ok    line 5: 2 counts to D2 match ("));
        /* Nothing at depth 1 or less for a position: skipped, not failed. */
        run_check("4k4/9/9/9/9/9/9/9/9/3K5 w ;D2 9\n", 1, opts[i], &run);
        assert_int_equal(run.status, 0);
        assert_non_null(strstr(run.out, "skip  line 1: no count at depth 1 or less: "));
    }
    perft_table_free(&table);
}

static void test_malformed_files(void **state) {
    (void)state;
    static CheckRun run;
    PerftOptions opt = {.threads = 2, .table = NULL};
    static const struct {
        const char *text, *error;
    } Cases[] = {
        {"4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 3\n4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 x\n", ":2: field 'D1 x' is not"},
        {"4k4/9/9/9/9/9/9/9/9/3K5 w ;D1 3\nrnbakabnr/9 w ;D1 44\n", ":2: bad FEN: "},
        {"\n# only a comment\n", " holds no position"},
        {"", " holds no position"},
        {"4k4/9/9/9/9/9/9/9/9/3K5 w D1 3\n", ":1: no ';D<depth> <count>' field"},
    };
    for (size_t i = 0; i < sizeof Cases / sizeof Cases[0]; i++) {
        run_check(Cases[i].text, PERFT_EPD_DEPTH_MAX, &opt, &run);
        assert_int_equal(run.status, 2);
        if (!strstr(run.err, Cases[i].error)) fail_msg("case %zu: '%s'", i, run.err);
        assert_non_null(strstr(run.err, "tuong: error: /tmp/tuong-test-perft-"));
        assert_string_equal(run.out, ""); /* nothing is counted before the whole file is read */
        assert_int_equal(strchr(run.err, '\n') - run.err + 1, (long)strlen(run.err)); /* one line */
    }
    /* A line too long for the reader. */
    static char huge[PERFT_EPD_LINE_MAX * 2];
    memset(huge, 'r', sizeof huge - 2);
    huge[sizeof huge - 2] = '\n';
    run_check(huge, PERFT_EPD_DEPTH_MAX, &opt, &run);
    assert_int_equal(run.status, 2);
    assert_non_null(strstr(run.err, ":1: line longer than"));
    /* A file that is not there. */
    FILE *out = tmpfile(), *err = tmpfile();
    assert_int_equal(perft_epd_check("/nonexistent/perft.epd", 5, &opt, out, err), 2);
    read_all(out, run.out, sizeof run.out);
    read_all(err, run.err, sizeof run.err);
    assert_string_equal(run.out, "");
    assert_non_null(strstr(run.err, "tuong: error: cannot open /nonexistent/perft.epd: "));
}

/* The reference table itself, to depth 3. */
static void test_reference_file(void **state) {
    (void)state;
    static CheckRun run;
    char path[1024];
    snprintf(path, sizeof path, "%s/perft.epd", TUONG_DATA_DIR);
    PerftOptions opt = {.threads = 2, .table = NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    assert_int_equal(perft_epd_check(path, 3, &opt, out, err), 0);
    read_all(out, run.out, sizeof run.out);
    read_all(err, run.err, sizeof run.err);
    assert_string_equal(run.err, "");
    assert_non_null(strstr(run.out, " 0 failed, "));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good_lines),    cmocka_unit_test(test_parse_bad_lines),
        cmocka_unit_test(test_verdicts_and_status), cmocka_unit_test(test_malformed_files),
        cmocka_unit_test(test_reference_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
