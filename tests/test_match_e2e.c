// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-match end to end: games between two tuong instances at tiny depth,
 * and the clear errors for bad engines and bad opening files. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char Output[1 << 16];

/* Run tuong-match with args (stderr folded in); returns its exit status. */
static int run_match(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s/tuong-match %s 2>&1", TUONG_BUILD_DIR, args);
    return run_command(cmd, Output, sizeof Output);
}

static void tuong_plays_itself_in_both_dialects(void **state) {
    (void)state;
    char pgn[1024], args[4096];
    snprintf(pgn, sizeof pgn, "%s/test_match_e2e.pgn", TUONG_BUILD_DIR);
    remove(pgn);
    snprintf(args, sizeof args,
             "-engine name=UCCI cmd=%s proto=ucci -engine name=UCI cmd=%s proto=uci option.Notation=iccs "
             "-openings %s/openings/ecco10.epd -games 4 -depth 1 -concurrency 2 -pgnout %s",
             TUONG_BINARY, TUONG_BINARY, TUONG_DATA_DIR, pgn);
    int rc = run_match(args);
    if (rc != 0 && strstr(Output, "ucciok")) skip(); /* the protocol front end is not there */
    if (rc != 0) fail_msg("tuong-match failed (%d):\n%s", rc, Output);
    assert_non_null(strstr(Output, "=== 4 games, depth 1 ==="));
    assert_non_null(strstr(Output, "UCCI vs UCI: games 4"));
    assert_null(strstr(Output, "illegal"));
    assert_null(strstr(Output, "crashed"));
    FILE *f = fopen(pgn, "r");
    assert_non_null(f);
    static char text[1 << 18];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    int games = 0;
    for (const char *s = text; (s = strstr(s, "[Variant \"xiangqi\"]")); s++) games++;
    assert_int_equal(games, 4);
    assert_non_null(strstr(text, "[FEN \""));
}

static void bad_engine_command_is_reported(void **state) {
    (void)state;
    int rc = run_match("-engine name=Ghost cmd=/nonexistent/engine -engine name=B cmd=/nonexistent/too -games 2");
    assert_int_equal(rc, 2);
    assert_non_null(strstr(Output, "engine 'Ghost'"));
    assert_non_null(strstr(Output, "exited with status 127"));
}

static void silent_engine_times_out_in_the_handshake(void **state) {
    (void)state;
    /* `cat` echoes "ucci" back but never says ucciok. */
    int rc = run_match("-engine name=Mute cmd=cat -engine name=B cmd=cat -handshake 300 -games 2");
    assert_int_equal(rc, 2);
    assert_non_null(strstr(Output, "engine 'Mute'"));
    assert_non_null(strstr(Output, "answering 'ucci' with 'ucciok' within 300 ms"));
}

static void bad_openings_file_is_reported(void **state) {
    (void)state;
    char path[1024], args[4096];
    snprintf(path, sizeof path, "%s/test_match_bad.epd", TUONG_BUILD_DIR);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1\n",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ; ok");
    fclose(f);
    snprintf(args, sizeof args, "-engine cmd=cat -engine cmd=cat -openings %s", path);
    assert_int_equal(run_match(args), 2);
    assert_non_null(strstr(Output, "test_match_bad.epd:2: not a xiangqi position"));
    assert_int_equal(run_match("-engine cmd=cat -engine cmd=cat -openings /nonexistent.epd"), 2);
    assert_non_null(strstr(Output, "/nonexistent.epd: cannot open"));
}

/* Write a fake UCCI engine whose answer to `go` is `on_go` (shell code);
 * `extra` may add case branches before it. */
static void write_fake_cases(const char *path, const char *extra, const char *on_go) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "while read -r line; do\n"
            "  case \"$line\" in\n"
            "    ucci) echo ucciok ;;\n"
            "    isready) echo readyok ;;\n"
            "    quit) exit 0 ;;\n"
            "%s"
            "    go*) %s ;;\n"
            "  esac\n"
            "done\n",
            extra, on_go);
    fclose(f);
}

static void write_fake(const char *path, const char *on_go) { write_fake_cases(path, "", on_go); }

static void draw_offers_are_accepted_by_agreement(void **state) {
    (void)state;
    char path[1024], args[4096];
    snprintf(path, sizeof path, "%s/test_match_fake_draw.sh", TUONG_BUILD_DIR);
    /* Red offers with its first move; Black, asked with `go draw`, accepts. */
    write_fake_cases(path, "    'go draw'*) echo 'bestmove h9g7 draw' ;;\n", "echo 'bestmove h2e2 draw'");
    snprintf(args, sizeof args, "-engine name=X cmd='sh %s' -engine name=Y cmd='sh %s' -games 2 -drawoffers -concurrency 1",
             path, path);
    assert_int_equal(run_match(args), 0);
    assert_non_null(strstr(Output, "Game 1/2 X vs Y: 1/2-1/2 {draw by agreement}, 1 plies"));
    /* Without -drawoffers the offer is ignored and Black's move is played. */
    snprintf(args, sizeof args, "-engine name=X cmd='sh %s' -engine name=Y cmd='sh %s' -games 2 -concurrency 1", path,
             path);
    assert_int_equal(run_match(args), 0);
    assert_null(strstr(Output, "draw by agreement"));
}

static void illegal_moves_crashes_and_hangs_lose(void **state) {
    (void)state;
    char illegal[1024], hang[1024], crash[1024], args[4096];
    snprintf(illegal, sizeof illegal, "%s/test_match_fake_illegal.sh", TUONG_BUILD_DIR);
    snprintf(hang, sizeof hang, "%s/test_match_fake_hang.sh", TUONG_BUILD_DIR);
    snprintf(crash, sizeof crash, "%s/test_match_fake_crash.sh", TUONG_BUILD_DIR);
    write_fake(illegal, "echo 'info depth 1 score 5 pv a0a5'; echo 'bestmove a0a5'"); /* through the a3 pawn */
    write_fake(hang, ":");
    write_fake(crash, "exit 3");
    /* Game 1: the illegal mover is Red; game 2: the hanging engine is Red. */
    snprintf(args, sizeof args,
             "-engine name=Bad cmd='sh %s' -engine name=Slow cmd='sh %s' -games 2 -st 0.2 -timemargin 100 "
             "-concurrency 1",
             illegal, hang);
    assert_int_equal(run_match(args), 0);
    assert_non_null(strstr(Output, "0-1 {Red (Bad) played an illegal move 'a0a5'}"));
    assert_non_null(strstr(Output, "0-1 {Red (Slow) forfeits on time"));
    assert_non_null(strstr(Output, "Bad vs Slow: games 2, +1 =0 -1"));
    snprintf(args, sizeof args, "-engine name=Crash cmd='sh %s' -engine name=Bad cmd='sh %s' -games 2 -concurrency 1",
             crash, illegal);
    assert_int_equal(run_match(args), 0);
    assert_non_null(strstr(Output, "0-1 {Red (Crash) crashed: exited with status 3}"));
}

/* A move over its time but within -timemargin is forgiven, and counted: the
 * summary shows what a referee without a margin would have forfeited. */
static void overruns_within_the_margin_are_counted(void **state) {
    (void)state;
    char slow[1024], args[4096];
    snprintf(slow, sizeof slow, "%s/test_match_fake_slow.sh", TUONG_BUILD_DIR);
    write_fake(slow, "sleep 0.15; echo 'bestmove h2e2'"); /* legal only as Red's first move */
    /* Slow answers three times, each 100 ms over: twice as Red (the second
     * h2e2 is illegal) and once as Black (illegal at once). */
    snprintf(args, sizeof args,
             "-engine name=Slow cmd='sh %s' -engine name=T cmd=%s/tuong -games 2 -st 0.05 -timemargin 400 "
             "-concurrency 1",
             slow, TUONG_BUILD_DIR);
    assert_int_equal(run_match(args), 0);
    assert_null(strstr(Output, "forfeits on time"));
    const char *line = strstr(Output, "Moves over the clock, forgiven by -timemargin 400 ms: Slow 3 (worst ");
    assert_non_null(line);
    long worst = strtol(strstr(line, "(worst ") + 7, NULL, 10);
    assert_true(worst >= 90 && worst <= 400);
}

/* Start tuong-match in the background, send it SIGTERM once a line
 * starting with `ready` shows (and `second` more signals), and return its
 * exit status; Output holds what it printed. */
static int interrupt_match(const char *args, const char *ready, int second) {
    char out[1024], cmd[8192];
    snprintf(out, sizeof out, "%s/test_match_interrupted.out", TUONG_BUILD_DIR);
    snprintf(cmd, sizeof cmd,
             "%s/tuong-match %s >%s 2>&1 & pid=$!; i=0; "
             "while ! grep -q '^%s' %s && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; sleep 0.2; "
             "kill -TERM $pid; for k in $(seq %d); do sleep 0.2; kill -TERM $pid; done; "
             "wait $pid; rc=$?; cat %s; exit $rc",
             TUONG_BUILD_DIR, args, out, ready, out, second, out);
    return run_command(cmd, Output, sizeof Output);
}

/* SIGTERM (like Ctrl-C) starts no more games and reports the finished ones
 * honestly; a second signal ends the match at once. */
static void a_signal_winds_the_match_down_with_a_summary(void **state) {
    (void)state;
    char quick[1024], hang[1024], args[4096];
    snprintf(quick, sizeof quick, "%s/test_match_fake_quick.sh", TUONG_BUILD_DIR);
    snprintf(hang, sizeof hang, "%s/test_match_fake_stuck.sh", TUONG_BUILD_DIR);
    write_fake(quick, "sleep 0.01; echo 'bestmove h2e2'"); /* Black's answer is illegal: short games */
    write_fake(hang, ":");
    snprintf(args, sizeof args, "-engine name=X cmd='sh %s' -engine name=Y cmd='sh %s' -games 100000 -concurrency 2",
             quick, quick);
    assert_int_equal(interrupt_match(args, "Game 1/", 0), 128 + 15);
    const char *summary = strstr(Output, "\n=== ");
    assert_non_null(summary);
    int done = atoi(summary + 5);
    assert_true(done >= 1 && done < 100000);
    int lines = 0;
    for (const char *s = Output; (s = strstr(s, "\nGame ")) && s < summary; s++) lines++;
    if (!strncmp(Output, "Game ", 5)) lines++;
    assert_int_equal(lines, done); /* every game played is in the summary, none twice */
    char expect[128];
    snprintf(expect, sizeof expect, "Interrupted by signal 15 after %d of 100000 games", done);
    assert_non_null(strstr(Output, expect));
    assert_non_null(strstr(Output, "stopping after the games in progress"));
    /* A game that never ends: the second signal does not wait for it. */
    snprintf(args, sizeof args,
             "-engine name=X cmd='sh %s' -engine name=Z cmd='sh %s' -games 100000 -st 30 -concurrency 2", quick,
             hang);
    assert_int_equal(interrupt_match(args, "tuong-match:", 1), 128 + 15);
    assert_null(strstr(Output, "\n=== "));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tuong_plays_itself_in_both_dialects),
        cmocka_unit_test(bad_engine_command_is_reported),
        cmocka_unit_test(silent_engine_times_out_in_the_handshake),
        cmocka_unit_test(bad_openings_file_is_reported),
        cmocka_unit_test(illegal_moves_crashes_and_hangs_lose),
        cmocka_unit_test(draw_offers_are_accepted_by_agreement),
        cmocka_unit_test(overruns_within_the_margin_are_counted),
        cmocka_unit_test(a_signal_winds_the_match_down_with_a_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
