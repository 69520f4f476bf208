// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-egtb's command line: build, verify, probe, sample (and sample
 * --en-prise) and rulefacts work end to end, and bad input (unknown signature, missing, corrupt or
 * truncated table, bad FEN, empty directory, bad sample options) gives one
 * clear line on stderr and a non-zero exit. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egtb/egtb_sig.h"
#include "egtb_table.h"
#include "egtb_xq.h"
#include "fen.h"
#include "notation.h"

static char Dir[64], Empty[64], Bad[64];

static int setup_dirs(void **state) {
    (void)state;
    snprintf(Dir, sizeof Dir, "/tmp/tuong-egtb-cli-XXXXXX");
    snprintf(Empty, sizeof Empty, "/tmp/tuong-egtb-empty-XXXXXX");
    snprintf(Bad, sizeof Bad, "/tmp/tuong-egtb-bad-XXXXXX");
    return mkdtemp(Dir) && mkdtemp(Empty) && mkdtemp(Bad) ? 0 : -1;
}

static int remove_dirs(void **state) {
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", Dir, Empty, Bad);
    return system(cmd) == 0 ? 0 : -1;
}

/* Run tuong-egtb with args; status, and stderr only in err. */
static int run_egtb_err(const char *args, char *err, size_t size) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/null", TUONG_EGTB, args);
    return run_command(cmd, err, size);
}

static int run_egtb_out(const char *args, char *out, size_t size) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", TUONG_EGTB, args);
    return run_command(cmd, out, size);
}

static int lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* One error line containing `want`, and a non-zero status. */
static void expect_error(const char *args, const char *want) {
    char err[2048];
    int rc = run_egtb_err(args, err, sizeof err);
    if (rc == 0) fail_msg("tuong-egtb %s: exit 0", args);
    if (lines(err) != 1 || !strstr(err, want)) fail_msg("tuong-egtb %s: stderr '%s', want one line with '%s'", args, err, want);
}

/* Where both sides attack: build runs the rule loop and says what it found
 * (KRKN: xiangqitb's 312 + 1 285 entries of order 1, all perpetual
 * checks), compare counts the orders, verify passes, and probe marks the
 * worked example's win (docs/egtb.md) and the loss Kd2 leads to as settled
 * by rule round 1. */
static void test_build_rule_loop(void **state) {
    (void)state;
    char args[512], out[16384];
    snprintf(args, sizeof args, "build --out %s KRKN", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "1 order(s) with verdicts (315 perpetual check, 0 perpetual chase); decided red 312, "
                                "black 1285"));
    snprintf(args, sizeof args, "compare %s %s KRKN", Dir, Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(
        strstr(out, "KRKN: DTC of 417414 legal positions compared (1597 from rule rounds, order > 0), 0 differ"));
    snprintf(args, sizeof args, "verify %s KRKN", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_string_equal(out, "KRKN: ok (364500 positions per side)\n");
    snprintf(args, sizeof args, "probe %s '9/9/5k3/9/9/1R7/9/4K4/9/3n5 w - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_string_equal(out, "win dtc 1 order 1\n  e2e1 then win dtc 3\n  e2d2 then loss dtc 0 order 1\n");
}

/* --max-memory bounds the rule loop's children cache instead of refusing
 * the table: KNKP (222 750 positions per side, 6 bytes each to solve, 2.5
 * MiB) lists 53 616 nodes, whose children take about 1.4 MiB; with 3.5
 * MiB-ish allowed (0.0035 GiB) the cache gets the 1 MiB left and keeps
 * only part of them, and the files are the same bytes as with the whole
 * cache. */
static void test_max_memory_bounds_the_loop_cache(void **state) {
    (void)state;
    char whole[sizeof Dir + 8], part[sizeof Dir + 8], args[512], out[16384];
    snprintf(whole, sizeof whole, "%s/whole", Dir);
    snprintf(part, sizeof part, "%s/part", Dir);
    snprintf(args, sizeof args, "build --out %s KNKP", whole);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "53616 nodes marked"));
    assert_non_null(strstr(out, "children kept for 53616 nodes"));
    snprintf(args, sizeof args, "build --out %s --max-memory 0.0035 KNKP", part);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    const char *kept = strstr(out, "children kept for ");
    assert_non_null(kept);
    unsigned long long nodes = 0;
    double mib = 0;
    assert_int_equal(sscanf(kept, "children kept for %llu nodes in %lf MiB", &nodes, &mib), 2);
    assert_true(nodes > 0 && nodes < 53616);
    assert_true(mib <= 1.04);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmp %s/KNKP.lzw %s/KNKP.lzw && cmp %s/KNKP.lzdtc %s/KNKP.lzdtc", whole, part, whole,
             part);
    assert_int_equal(system(cmd), 0);
}

/* DTM where both sides attack: build --dtm writes it (xiangqitb's longest
 * wins, 18 plies for each side to move), verify checks its signs against
 * DTC and says so, compare reads it back equal, and probe prints an odd
 * win (9, "dtm 8") and an even loss (8, "dtm 7"). */
static void test_build_dtm_both_sides(void **state) {
    (void)state;
    char args[512], out[16384];
    snprintf(args, sizeof args, "build --out %s/dtm2 --dtm KRKN", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "one thread; files"));
    assert_non_null(strstr(out, "longest red 18, black 18"));
    snprintf(args, sizeof args, "verify %s/dtm2 KRKN", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKN: DTM ok (both sides attack: signs against DTC only)"));
    snprintf(args, sizeof args, "compare %s/dtm2 %s/dtm2 KRKN", Dir, Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKN: DTM of 417414 legal positions compared, 0 differ"));
    snprintf(args, sizeof args, "probe %s/dtm2 '9/9/4k4/9/9/9/9/3R1K3/9/n8 w - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "win dtc 9 dtm 8\n", strlen("win dtc 9 dtm 8\n"));
    snprintf(args, sizeof args, "probe %s/dtm2 '9/9/3k5/9/9/9/9/9/9/n1R2K3 b - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "loss dtc 8 dtm 7\n", strlen("loss dtc 8 dtm 7\n"));
}

/* A symmetric signature: build solves both colours and writes one table
 * (Red to move), its Black side the turned Red; compare reads one table;
 * verify passes; probe turns a Black-to-move position (a loss in 6 plies
 * drawn by sample) onto the stored side. */
static void test_build_symmetric(void **state) {
    (void)state;
    char args[512], out[16384];
    snprintf(args, sizeof args, "build --out %s KRKR", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "symmetric: red to move written; black to move differs from the turned red at 0 "
                                "positions"));
    snprintf(args, sizeof args, "compare %s %s KRKR", Dir, Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKR: WDL of 188160 legal positions compared (1 table), 0 differ"));
    snprintf(args, sizeof args, "verify %s KRKR", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_string_equal(out, "KRKR: ok (364500 positions per side)\n");
    snprintf(args, sizeof args, "probe %s '3k5/5r3/9/9/9/9/9/9/3R5/3K5 b - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "loss dtc 6\n", strlen("loss dtc 6\n"));
}

static void test_build_verify_probe(void **state) {
    (void)state;
    char args[512], out[8192];
    snprintf(args, sizeof args, "build --out %s --threads 2 KRKA KPK", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRK:")); /* the smaller table is built first */
    assert_non_null(strstr(out, "KRKA:"));
    snprintf(args, sizeof args, "verify %s", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKA: ok"));
    assert_non_null(strstr(out, "KPK: ok"));
    /* Only the tables named, on two threads. */
    snprintf(args, sizeof args, "verify %s --threads 2 KAKR", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_string_equal(out, "KRKA: ok (17010 positions per side)\n");
    /* build writes xiangqitb's files too; compare reads them back. */
    snprintf(args, sizeof args, "compare %s %s KRKA KPK", Dir, Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(
        strstr(out, "KRKA: DTC of 21888 legal positions compared (0 from rule rounds, order > 0), 0 differ"));
    snprintf(args, sizeof args, "probe %s '4ka3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "win dtc ", 8);
    /* Black heavy: the board is turned and the colours swapped to probe. */
    snprintf(args, sizeof args, "probe %s '4k4/9/9/9/7r1/9/9/9/4A4/3K5 b - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "win dtc ", 8);
    /* A second build reuses what is there. */
    snprintf(args, sizeof args, "build --out %s KRKA", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRK: reused"));
}

/* sample prints FEN lines with the value as an EPD comment; tuong-match's
 * opening reader keeps what comes before the ';'. Each line's position,
 * probed by `probe`, has the value its comment names; a seed gives the
 * same lines again. Runs after test_build_verify_probe (its tables). */
/* build --dtm writes NAME.lzdtm beside the DTC files and says so per
 * table; a second run reuses the smaller tables with their DTM. */
static void test_build_dtm(void **state) {
    (void)state;
    char args[512], out[8192], path[128];
    snprintf(args, sizeof args, "build --out %s/dtm --dtm KRKA", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "dtm:"));
    const char *names[] = {"KRK", "KRKA"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/dtm/%s.lzdtm", Dir, names[i]);
        assert_int_equal(access(path, R_OK), 0);
    }
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRK: reused"));
    /* verify checks the DTM files too, move by move. */
    snprintf(args, sizeof args, "verify %s/dtm", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKA: DTM ok"));
    assert_non_null(strstr(out, "KRK: DTM ok"));
    /* compare reads the DTM files back (here our own, as xiangqitb's would be). */
    snprintf(args, sizeof args, "compare %s/dtm %s/dtm KRKA", Dir, Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "KRKA: DTM of 21888 legal positions compared, 0 differ"));
    /* ... and finds a difference: a copy of the WDL and DTC files beside a
     * DTM file with one white-to-move win made 2 plies longer. */
    char xq[128], err[256], cmd[512];
    snprintf(xq, sizeof xq, "%s/xq", Dir);
    snprintf(cmd, sizeof cmd, "mkdir %s && cp %s/dtm/KRKA.lzw %s/dtm/KRKA.lzdtc %s", xq, Dir, Dir, xq);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    snprintf(path, sizeof path, "%s/dtm", Dir);
    EgtbSet set;
    egtb_set_init(&set, path);
    EgtbMaterial mat;
    assert_true(egtb_sig_parse(&mat, "KRKA", err, sizeof err));
    EgtbTable *t = egtb_set_get_dtm(&set, &mat, err, sizeof err);
    assert_non_null(t);
    uint64_t i = 0;
    while (i < t->lay.positions && !egtb_is_win(t->dtm[RED][i])) i++;
    assert_true(i < t->lay.positions);
    unsigned v = t->dtm[RED][i];
    t->dtm[RED][i] = (uint16_t)(v + 2);
    assert_true(egtb_xq_write_dtm(t, xq, err, sizeof err));
    egtb_set_free(&set);
    snprintf(args, sizeof args, "compare %s %s/dtm KRKA", xq, Dir);
    assert_int_not_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_non_null(
        strstr(out, "KRKA: DTC of 21888 legal positions compared (0 from rule rounds, order > 0), 0 differ"));
    assert_non_null(strstr(out, "KRKA: DTM of 21888 legal positions compared, 1 differ"));
    char want[128];
    snprintf(want, sizeof want, "KRKA: index %llu white to move: ours DTM %u, xiangqitb entry %04x",
             (unsigned long long)i, v, (v + 2) | 0x800);
    if (!strstr(out, want)) fail_msg("compare printed '%s', want a line with '%s'", out, want);
    /* probe reads the DTM file through the engine's prober: Ra2-d2 mates
     * (DTC and DTM both 1 ply). */
    snprintf(args, sizeof args, "probe %s/dtm '3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1'", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_memory_equal(out, "win dtc 1 dtm 1\n", 16);
    /* A truncated DTM file: one clear line, a non-zero exit, no crash. */
    snprintf(cmd, sizeof cmd, "truncate -s 100 %s/dtm/KRK.lzdtm", Dir);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    expect_error(args, "KRK.lzdtm: not a xiangqitb file");
}

static void test_sample(void **state) {
    (void)state;
    char args[512], out[8192], again[8192], probed[8192];
    snprintf(args, sizeof args, "sample %s KRKA KPK --count 6 --seed 5", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    assert_int_equal(lines(out), 12);
    assert_int_equal(run_egtb_out(args, again, sizeof again), 0);
    assert_string_equal(out, again);
    snprintf(args, sizeof args, "sample %s KRKA KPK --count 6 --seed 6", Dir);
    assert_int_equal(run_egtb_out(args, again, sizeof again), 0);
    assert_string_not_equal(out, again);
    snprintf(args, sizeof args, "sample %s KRKA --value loss --side-to-move weak --count 5", Dir);
    assert_int_equal(run_egtb_out(args, again, sizeof again), 0);
    strcat(out, again);
    int seen = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), seen++) {
        char *semi = strstr(line, " ; ");
        assert_non_null(semi);
        *semi = '\0';
        const char *value = strchr(semi + 3, ' ') + 1; /* after the table's name */
        snprintf(args, sizeof args, "probe %s '%s'", Dir, line);
        assert_int_equal(run_egtb_out(args, probed, sizeof probed), 0);
        *strchr(probed, '\n') = '\0';
        if (strcmp(probed, value)) fail_msg("%s: probe says '%s', sample said '%s'", line, probed, value);
        if (seen >= 12) {
            assert_memory_equal(value, "loss", 4);
            assert_non_null(strstr(line, " b - - 0 1"));
        } else {
            assert_memory_equal(value, "win", 3);
        }
    }
    assert_int_equal(seen, 17);
}

/* sample --en-prise: a black pawn Red can take into a lost KRKA position
 * with Black to move. Each line has Red to move, and its comment says
 * `KRKA+p win dtc D after MOVE`: MOVE takes the pawn and `probe` of the
 * position after it says `loss dtc D`. And bad --en-prise arguments in
 * test_bad_input_is_one_clear_error. */
static void test_sample_en_prise(void **state) {
    (void)state;
    char args[512], out[8192], probed[256], err[256], fen[FEN_MAX];
    static Position pos;
    engine_init(); /* the move tables, for reading the captures */
    snprintf(args, sizeof args, "sample %s KRKA --en-prise p --value win --count 5 --seed 3", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    int seen = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), seen++) {
        char *semi = strstr(line, " ; ");
        assert_non_null(semi);
        *semi = '\0';
        char dtc[32], move[16];
        if (sscanf(semi + 3, "KRKA+p win dtc %31s after %15s", dtc, move) != 2) fail_msg("comment '%s'", semi + 3);
        if (!fen_parse(&pos, line, err, sizeof err)) fail_msg("%s: %s", line, err);
        assert_int_equal(pos.side, RED);
        Move m = move_parse_legal(&pos, move, 0, err, sizeof err);
        if (m == MOVE_NONE) fail_msg("%s: %s", line, err);
        assert_int_equal(pos.board[move_to(m)], make_piece(BLACK, PAWN));
        pos_make_move(&pos, m);
        snprintf(args, sizeof args, "probe %s '%s'", Dir, fen_write(&pos, fen));
        assert_int_equal(run_egtb_out(args, probed, sizeof probed), 0);
        char want[64];
        snprintf(want, sizeof want, "loss dtc %s", dtc);
        *strchr(probed, '\n') = '\0'; /* the value; the children's lines follow */
        assert_string_equal(probed, want);
    }
    assert_int_equal(seen, 5);
    /* A piece of which its side already has as many as the rules allow
     * cannot be added: one clear message, not "0 positions found". */
    snprintf(args, sizeof args, "build --out %s/full KRKAA", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "sample %s/full KRKAA --en-prise a", Dir);
    expect_error(args, "--en-prise a: KRKAA's side already has as many a as the rules allow");
    snprintf(args, sizeof args, "sample %s/full KRKAA --en-prise P --value loss --count 2", Dir);
    assert_int_equal(run_egtb_out(args, out, sizeof out), 0);
}

static void test_bad_input_is_one_clear_error(void **state) {
    (void)state;
    char args[512], cmd[1024], out[256];
    expect_error("build --out /tmp/never-made KXK", "unknown piece letter");
    expect_error("build --out /tmp/never-made KAK", "always a draw");
    expect_error("build --out /tmp/never-made KAABBRNKAABB", "GiB, more than --max-memory 8");
    expect_error("build --out /tmp/never-made --max-memory 0.01 KRNKAB", "more than --max-memory 0.01");
    /* both-sides DTM only where it was compared with xiangqitb's */
    expect_error("build --out /tmp/never-made --dtm KCPKC", "not yet compared with xiangqitb's DTM");
    expect_error("build --out /tmp/never-made --dtm KRCKR", "not yet compared with xiangqitb's DTM");
    snprintf(args, sizeof args, "probe %s '4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1'", Empty);
    expect_error(args, "KRK.lzdtc");
    snprintf(args, sizeof args, "probe %s 'this is no fen'", Dir);
    expect_error(args, "FEN");
    snprintf(args, sizeof args, "probe %s '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1'", Dir); /* kings face */
    expect_error(args, "FEN");
    snprintf(args, sizeof args, "verify %s", Empty);
    expect_error(args, "no tables");
    expect_error("verify /nonexistent-dir-of-tuong", "No such file");
    /* A corrupt copy (one byte changed), a foreign table under the name, a
     * truncated file and a text file are refused. */
    snprintf(cmd, sizeof cmd,
             "cp %s/KRK.lzdtc %s/KRK.lzdtc && printf '\\007' | dd of=%s/KRK.lzdtc bs=1 seek=100 conv=notrunc 2>/dev/null",
             Dir, Bad, Bad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    snprintf(args, sizeof args, "probe %s '4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1'", Bad);
    expect_error(args, "checksum");
    snprintf(cmd, sizeof cmd, "verify %s", Bad);
    expect_error(cmd, "checksum");
    snprintf(cmd, sizeof cmd, "cp %s/KPK.lzdtc %s/KRK.lzdtc", Dir, Bad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    expect_error(args, "material key");
    snprintf(cmd, sizeof cmd, "head -c 100 %s/KRK.lzdtc > %s/KRK.lzdtc", Dir, Bad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    expect_error(args, "not a xiangqitb file");
    snprintf(cmd, sizeof cmd, "printf 'not a table' > %s/KRK.lzdtc", Bad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    expect_error(args, "not a xiangqitb file");
    snprintf(args, sizeof args, "sample %s KRKA --value maybe", Dir);
    expect_error(args, "--value maybe: want win, draw or loss");
    snprintf(args, sizeof args, "sample %s KRKA --count 0", Dir);
    expect_error(args, "--count 0: want a count");
    snprintf(args, sizeof args, "sample %s KRKA --count 5x", Dir);
    expect_error(args, "--count 5x: want a count");
    snprintf(args, sizeof args, "sample %s KRKA --seed -1", Dir);
    expect_error(args, "--seed -1: want a number");
    snprintf(args, sizeof args, "sample %s KRKA --side-to-move red", Dir);
    expect_error(args, "--side-to-move red: want strong, weak or any");
    snprintf(args, sizeof args, "sample %s KRKA --count", Dir);
    expect_error(args, "--count (nothing)");
    snprintf(args, sizeof args, "sample %s KRKA --value win --side-to-move weak", Dir);
    expect_error(args, "KRKA: 0 won positions with the weaker side to move, 10 asked for");
    snprintf(args, sizeof args, "sample %s KRKA --en-prise k", Dir);
    expect_error(args, "--en-prise k: want one of A B N R C P");
    snprintf(args, sizeof args, "sample %s KRKA --en-prise p --side-to-move weak", Dir);
    expect_error(args, "--en-prise sets the side to move");
    snprintf(args, sizeof args, "sample %s KXK", Dir);
    expect_error(args, "unknown piece letter");
    snprintf(args, sizeof args, "sample %s KNK", Empty);
    expect_error(args, "KNK.lzdtc");
}

/* list: issue 32's signatures, fewest positions first (ties by name). */
static void test_list(void **state) {
    (void)state;
    static char out[1 << 15];
    assert_int_equal(run_egtb_out("list --max-positions 5000", out, sizeof out), 0);
    assert_string_equal(out, "KPK\nKCK\nKNK\nKRK\n");
    assert_int_equal(run_egtb_out("list", out, sizeof out), 0);
    assert_int_equal(lines(out), 1134);
    assert_non_null(strstr(out, "\nKRNKAABB\n"));
    assert_non_null(strstr(out, "\nKAABBRNKAABB\n"));
    assert_null(strstr(out, "KRKN")); /* attackers on both sides: not built */
    expect_error("list --max-positions lots", "want a count");
}

/* rulefacts: random positions of a signature, the same ones for a seed
 * and others for another, each with its fen line; the facts of a FEN read
 * from stdin (values as test_egtb_rule has them); and its bad input. */
static void test_rulefacts(void **state) {
    (void)state;
    char cmd[1024], out[16384], again[16384];
    assert_int_equal(run_egtb_out("rulefacts KRKN 5 3", out, sizeof out), 0);
    assert_int_equal(run_egtb_out("rulefacts KRKN 5 3", again, sizeof again), 0);
    assert_string_equal(out, again);
    int fens = 0;
    for (const char *p = out; (p = strstr(p, "fen ")) != NULL; p++) fens += p == out || p[-1] == '\n';
    assert_int_equal(fens, 5);
    assert_int_equal(run_egtb_out("rulefacts KRKN 5 4", again, sizeof again), 0);
    assert_string_not_equal(out, again);
    snprintf(cmd, sizeof cmd, "printf 'fen 2rk5/9/9/9/2C6/9/R8/9/9/4K4 w\\n' | %s rulefacts --fens -", TUONG_EGTB);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "fen 2rk5/9/9/9/2C6/9/R8/9/9/4K4 w - - 0 1\nattacks r -\nattacks b c9c5\n"));
    assert_non_null(strstr(out, "\nmove a3a5 escape c5 marking 1 new - check 0\n"));
    assert_non_null(strstr(out, "\nmove c5c3 escape - marking 1 new - check 0\n"));
    expect_error("rulefacts KXK 5", "unknown piece letter");
    expect_error("rulefacts --fens /nonexistent-file-of-tuong", "No such file");
    snprintf(cmd, sizeof cmd, "printf 'this is no fen\\n' > %s/fens.txt", Bad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "rulefacts --fens %s/fens.txt", Bad);
    expect_error(cmd, "FEN");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_verify_probe),
        cmocka_unit_test(test_build_dtm),
        cmocka_unit_test(test_sample),
        cmocka_unit_test(test_sample_en_prise),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_rulefacts),
        cmocka_unit_test(test_bad_input_is_one_clear_error),
        cmocka_unit_test(test_build_rule_loop),
        cmocka_unit_test(test_max_memory_bounds_the_loop_cache),
        cmocka_unit_test(test_build_dtm_both_sides),
        cmocka_unit_test(test_build_symmetric),
    };
    return cmocka_run_group_tests(tests, setup_dirs, remove_dirs);
}
