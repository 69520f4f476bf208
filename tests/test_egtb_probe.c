// SPDX-License-Identifier: GPL-3.0-or-later
/* The engine's prober (engine/egtb/egtb_probe.h) against the generator's
 * tables (bench/egtb), every legal position of a few small signatures in
 * every form a game can show it; bad files refused with one message each;
 * and the engine end to end: the options in both dialects, the table move
 * at the root, a won ending played out to mate, tbhits reported, and a
 * corrupt table refused while the engine still answers. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egtb/egtb_probe.h"
#include "egtb/egtb_sig.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "egtb_verify.h"
#include "egtb_xq.h"
#include "engine_proc.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

/* Smaller tables first: the solver reads them after captures. */
static const char *const Built[] = {"KRK", "KNK", "KPK", "KRKA", "KNKA", "KPKA", "KRKAA", "KPPK"};
enum { BUILT_NB = sizeof Built / sizeof Built[0] };

static EgtbSet Set;
static char Dir[64], Bad[64], DtmDir[80], DtmBad[80];
static int T5s;

static EgtbTable *table(const char *name) { return egtb_test_table(&Set, name); }

static int setup(void **state) {
    (void)state;
    engine_init();
    T5s = eng_slow(5000);
    snprintf(Dir, sizeof Dir, "/tmp/tuong-egtb-probe-XXXXXX");
    snprintf(Bad, sizeof Bad, "/tmp/tuong-egtb-probe-bad-XXXXXX");
    if (!mkdtemp(Dir) || !mkdtemp(Bad)) return -1;
    /* DTM files in directories of their own (as xiangqitb keeps them in
     * dtm/), so that the tests of the DTC root see none. */
    snprintf(DtmDir, sizeof DtmDir, "%s/dtm", Dir);
    snprintf(DtmBad, sizeof DtmBad, "%s/dtm", Bad);
    if (mkdir(DtmDir, 0777) || mkdir(DtmBad, 0777)) return -1;
    egtb_set_init(&Set, "");
    if (!egtb_test_build_dtm(&Set, Built, BUILT_NB, 2)) return -1;
    for (int i = 0; i < BUILT_NB; i++) {
        char err[256];
        EgtbTable *t = table(Built[i]);
        if (!egtb_xq_write_wdl(t, Dir, err, sizeof err) || !egtb_xq_write_dtc(t, Dir, err, sizeof err) ||
            !egtb_xq_write_dtm(t, DtmDir, err, sizeof err)) {
            fprintf(stderr, "writing %s: %s\n", Built[i], err);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    egtb_unload();
    egtb_set_free(&Set);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", Dir, Bad);
    return system(cmd) == 0 ? 0 : -1;
}

/* Load reports: errors counted, the last line kept. */
typedef struct {
    int errors, lines;
    char errors_text[4000], last[600]; /* every error, one per line; the last other line */
} Reports;

static void collect(void *ctx, bool error, const char *text) {
    Reports *r = ctx;
    r->lines++;
    if (error) {
        size_t n = strlen(r->errors_text);
        snprintf(r->errors_text + n, sizeof r->errors_text - n, "%s\n", text);
    } else {
        snprintf(r->last, sizeof r->last, "%s", text);
    }
    r->errors += error;
}

/* The board turned a <-> i. */
static void file_mirror(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Square s = 0; s < SQUARE_NB; s++)
        if (src->board[s] != NO_PIECE) pos_put_piece(dst, src->board[s], make_square(8 - file_of(s), rank_of(s)));
    dst->side = src->side;
    pos_finish_setup(dst);
}

/* The prober's WDL and DTC of pos equal the generator's value v. */
static void expect_probe(const Position *pos, uint16_t v, const char *what) {
    EgtbWdl wdl;
    EgtbDtc dtc;
    char fen[FEN_MAX];
    if (!egtb_probe_wdl(pos, &wdl) || !egtb_probe_dtc(pos, &dtc)) fail_msg("%s %s: no probe", what, fen_write(pos, fen));
    int want = egtb_is_win(v) ? EGTB_WIN : egtb_is_loss(v) ? EGTB_LOSS : EGTB_DRAW;
    if ((int)wdl != want || dtc.v != v || dtc.order != 0)
        fail_msg("%s %s: wdl %d dtc %u, the generator says %u", what, fen_write(pos, fen), (int)wdl, dtc.v, v);
}

/* Every legal position of every built table, as it stands, with the
 * colours swapped and mirrored a <-> i: expect(pos, v) with v the
 * generator's value from DTC (val) or DTM (dtm). */
typedef void ExpectFn(const Position *pos, uint16_t v, const char *what);
static void expect_every_position(bool dtm, ExpectFn *expect) {
    static Position pos, twin;
    uint64_t probed = 0;
    for (int i = 0; i < BUILT_NB; i++) {
        const EgtbTable *t = table(Built[i]);
        for (int c = 0; c < COLOR_NB; c++)
            for (uint64_t idx = 0; idx < t->lay.positions; idx++) {
                if (!egtb_decode(&t->lay, idx, (Color)c, &pos) || !egtb_decoded_legal(&pos)) continue;
                uint16_t v = dtm ? t->dtm[c][idx] : t->val[c][idx];
                expect(&pos, v, Built[i]);
                colour_mirror(&pos, &twin);
                expect(&twin, v, "colour-swapped");
                file_mirror(&pos, &twin);
                expect(&twin, v, "file-mirrored");
                probed++;
            }
    }
    assert_true(probed > 100000);
}

/* Every legal position of every table, with either side to move, as it
 * stands, with the colours swapped (the board turned through the river)
 * and mirrored a <-> i: the prober finds the generator's value. */
static void test_probe_equals_generator(void **state) {
    (void)state;
    Reports r = {0};
    assert_int_equal(egtb_load(Dir, collect, &r), BUILT_NB);
    assert_int_equal(r.errors, 0);
    assert_int_equal(egtb_dtc_count(), BUILT_NB);
    assert_int_equal(EgtbMaxPieces, 3);
    assert_non_null(strstr(r.last, "8 with WDL, 8 with DTC"));
    expect_every_position(false, expect_probe);
    static Position pos;
    /* Outside the tables: no table (KCK, four pieces), or none needed. */
    EgtbWdl wdl;
    must_parse(&pos, "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1");
    assert_false(egtb_probe_wdl(&pos, &wdl));
    must_parse(&pos, "3ak4/4a4/9/9/9/9/9/9/4R4/R3K4 w - - 0 1");
    assert_false(egtb_probe_wdl(&pos, &wdl));
    must_parse(&pos, "3ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_true(egtb_probe_wdl(&pos, &wdl)); /* no attacker: a draw without a table */
    assert_int_equal(wdl, EGTB_DRAW);
}

/* Copy src to Bad/name, then run a shell fix-up on it. */
static void bad_file(const char *src, const char *name, const char *fixup) {
    char cmd[512], out[64];
    snprintf(cmd, sizeof cmd, "cp %s/%s %s/%s %s", Dir, src, Bad, name, fixup);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
}

/* A flipped byte, a truncated file, another table's file under a name and
 * a text file: each refused with one message naming it, the rest loaded. */
static void test_bad_files_refused(void **state) {
    (void)state;
    char fix[256];
    bad_file("KRK.lzw", "KRK.lzw", "");
    bad_file("KRK.lzdtc", "KRK.lzdtc", "");
    snprintf(fix, sizeof fix, "&& printf '\\007' | dd of=%s/KRKA.lzw bs=1 seek=40 conv=notrunc 2>/dev/null", Bad);
    bad_file("KRKA.lzw", "KRKA.lzw", fix);
    snprintf(fix, sizeof fix, "&& truncate -s 64 %s/KNK.lzw", Bad);
    bad_file("KNK.lzw", "KNK.lzw", fix);
    bad_file("KPK.lzdtc", "KNKA.lzdtc", "");
    snprintf(fix, sizeof fix, "&& printf 'not a table' > %s/KPK.lzw", Bad);
    bad_file("KPK.lzdtc", "README.txt", fix);
    Reports r = {0};
    assert_int_equal(egtb_load(Bad, collect, &r), 1); /* KRK only */
    assert_int_equal(r.errors, 4);
    assert_int_equal(r.lines, 5);
    static const char *const Refused[] = {"KRKA.lzw: XXH64", "KNK.lzw: not a xiangqitb file", "KNKA.lzdtc: material key",
                                          "KPK.lzw: not a xiangqitb file"};
    for (size_t i = 0; i < sizeof Refused / sizeof Refused[0]; i++)
        if (!strstr(r.errors_text, Refused[i])) fail_msg("no '%s' in:\n%s", Refused[i], r.errors_text);
    assert_non_null(strstr(r.last, "1 with WDL, 1 with DTC"));
    static Position pos;
    EgtbWdl wdl;
    must_parse(&pos, "3k5/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert_false(egtb_probe_wdl(&pos, &wdl)); /* KRKA was refused */
    must_parse(&pos, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert_true(egtb_probe_wdl(&pos, &wdl));
    assert_int_equal(wdl, EGTB_WIN);
    /* Nothing there, and no such directory. */
    memset(&r, 0, sizeof r);
    assert_int_equal(egtb_load("/tmp;/nonexistent-tuong-dir", collect, &r), 0);
    assert_int_equal(r.errors, 1);
    assert_non_null(strstr(r.errors_text, "/nonexistent-tuong-dir"));
    assert_non_null(strstr(r.last, "no endgame tables"));
    assert_int_equal(EgtbMaxPieces, 0);
}

/* The prober's DTM of pos equals the generator's DTM v (win from the
 * flag, never the parity; the same v). */
static void expect_dtm(const Position *pos, uint16_t v, const char *what) {
    EgtbDtm d;
    char fen[FEN_MAX];
    if (!egtb_probe_dtm(pos, &d)) fail_msg("%s %s: no DTM probe", what, fen_write(pos, fen));
    if (d.v != v || d.win != egtb_is_win(v) || d.rule != 0)
        fail_msg("%s %s: dtm %u win %d rule %u, the generator says %u", what, fen_write(pos, fen), d.v, d.win,
                 d.rule, v);
}

/* DTM files loaded beside WDL and DTC (from a second directory): every
 * legal position of every table, as it stands, colour-swapped and
 * mirrored, probes the generator's DTM; KRKAA's longest mate is longer
 * than its longest conversion, so the captures were counted through. */
static void test_probe_dtm_equals_generator(void **state) {
    (void)state;
    char paths[200];
    snprintf(paths, sizeof paths, "%s;%s", Dir, DtmDir);
    Reports r = {0};
    assert_int_equal(egtb_load(paths, collect, &r), BUILT_NB);
    assert_int_equal(r.errors, 0);
    assert_int_equal(egtb_dtm_count(), BUILT_NB);
    assert_non_null(strstr(r.last, "8 with WDL, 8 with DTC, 8 with DTM"));
    expect_every_position(true, expect_dtm);
    static Position pos;
    uint16_t dtc = 0, dtm = 0;
    const EgtbTable *t = table("KRKAA");
    for (uint64_t idx = 0; idx < t->lay.positions; idx++)
        if (t->val[RED][idx] != EGTB_ILLEGAL) {
            if (t->val[RED][idx] > dtc) dtc = t->val[RED][idx];
            if (t->dtm[RED][idx] > dtm) dtm = t->dtm[RED][idx];
        }
    assert_true(dtm > dtc);
    /* No attacker left: a draw without a table, as for WDL. */
    EgtbDtm d;
    must_parse(&pos, "3ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_true(egtb_probe_dtm(&pos, &d));
    assert_int_equal(d.v, 0);
    egtb_unload();
}

/* Bad DTM files: a flipped byte, a truncated file, a DTC file under a DTM
 * name (its magic) are each refused with one message naming the file; the
 * good one loads, and a refused table gives no DTM probe. */
static void test_bad_dtm_files_refused(void **state) {
    (void)state;
    char cmd[1200], out[64];
    snprintf(cmd, sizeof cmd,
             "cp %s/KRK.lzdtm %s/KNKA.lzdtm %s/KPK.lzdtm %s/ && cp %s/KRKA.lzdtc %s/KRKA.lzdtm && "
             "printf '\\007' | dd of=%s/KNKA.lzdtm bs=1 seek=300 conv=notrunc 2>/dev/null && "
             "truncate -s 100 %s/KPK.lzdtm",
             DtmDir, DtmDir, DtmDir, DtmBad, Dir, DtmBad, DtmBad, DtmBad);
    assert_int_equal(run_command(cmd, out, sizeof out), 0);
    Reports r = {0};
    egtb_load(DtmBad, collect, &r);
    assert_int_equal(r.errors, 3);
    static const char *const Refused[] = {"KNKA.lzdtm: XXH64", "KPK.lzdtm: not a xiangqitb file",
                                          "KRKA.lzdtm: not a xiangqitb DTM file"};
    for (size_t i = 0; i < sizeof Refused / sizeof Refused[0]; i++)
        if (!strstr(r.errors_text, Refused[i])) fail_msg("no '%s' in:\n%s", Refused[i], r.errors_text);
    assert_int_equal(egtb_dtm_count(), 1);
    static Position pos;
    EgtbDtm d;
    must_parse(&pos, "3k5/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    assert_false(egtb_probe_dtm(&pos, &d)); /* KRKA refused */
    must_parse(&pos, "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert_true(egtb_probe_dtm(&pos, &d));
    assert_true(d.win);
    assert_int_equal(d.v, 2); /* Ra2-d2 mates */
    egtb_unload();
}

/* The moves of pos that keep the best table result by DTC: the child the
 * generator scores as the shortest loss for the opponent. */
static int best_moves(Position *pos, Move *out) {
    MoveList ml;
    gen_legal(pos, &ml);
    int n = 0, best = 1 << 20;
    for (int i = 0; i < ml.count; i++) {
        uint16_t v;
        char err[256];
        if (!egtb_child_value(&Set, pos, ml.moves[i], &v, err, sizeof err)) fail_msg("%s", err);
        if (!egtb_is_loss(v) || v > best) continue;
        if (v < best) n = 0, best = v;
        out[n++] = ml.moves[i];
    }
    return n;
}

/* Read to bestmove (or UCCI's nobestmove, copied whole); the move text
 * into best, whether some info line had tbhits above 0 into *tbhits. */
static void read_bestmove(Engine *e, char *best, bool *tbhits) {
    char line[ENG_LINE];
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        const char *h = strstr(line, " tbhits ");
        if (h && atoi(h + 8) > 0) *tbhits = true;
        if (!strcmp(line, "nobestmove")) {
            strcpy(best, line);
            return;
        }
        if (!strncmp(line, "bestmove ", 9)) break;
    }
    sscanf(line + 9, "%15s", best);
}

/* Won KRKAA positions far from conversion where few moves keep the
 * shortest win: at depth 1 (too shallow to see it) the engine plays one of
 * them, and reports tbhits (UCI). Picked from the generator's table: Red to
 * move, v >= 9, at most two best moves of ten or more. */
static void test_root_plays_table_move(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, "info string endgame tables: 8 with WDL", T5s, NULL, 0);
    const EgtbTable *t = table("KRKAA");
    static Position pos;
    int tried = 0;
    for (uint64_t idx = 0; idx < t->lay.positions && tried < 8; idx += 37) {
        uint16_t v = t->val[RED][idx];
        if (!egtb_is_win(v) || v < 9 || !egtb_decode(&t->lay, idx, RED, &pos) || !egtb_decoded_legal(&pos)) continue;
        MoveList legal;
        gen_legal(&pos, &legal);
        Move want[MAX_MOVES];
        int n = best_moves(&pos, want);
        if (n == 0 || n > 2 || legal.count < 10) continue;
        char fen[FEN_MAX], best[16], text[8];
        eng_send(&e, "position fen %s", fen_write(&pos, fen));
        eng_send(&e, "go depth 1");
        bool tbhits = false, found = false;
        read_bestmove(&e, best, &tbhits);
        for (int k = 0; k < n; k++) found |= !strcmp(best, move_to_text(want[k], 0, text));
        if (!found) fail_msg("%s: bestmove %s is not a shortest win (%d of %d moves)", fen, best, n, legal.count);
        assert_true(tbhits);
        tried++;
    }
    assert_int_equal(tried, 8);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The generator's DTM (dtm) or DTC of the child after m, for the
 * opponent: 1 when it has no reply; 0 (a draw) when no attacker is left. */
static uint16_t child_of(const Position *pos, Move m, bool dtm) {
    static Position c;
    memcpy(&c, pos, sizeof c);
    pos_make_move(&c, m);
    if (gen_count_legal(&c) == 0) return 1;
    EgtbMaterial mat;
    char err[256];
    egtb_sig_of_position(&c, &mat);
    egtb_sig_normalise(&mat);
    if (!egtb_sig_has_attackers(&mat, RED) && !egtb_sig_has_attackers(&mat, BLACK)) return 0;
    EgtbTable *t = egtb_set_get(&Set, &mat, err, sizeof err);
    if (!t) fail_msg("%s", err);
    return dtm ? egtb_table_dtm(t, &c) : egtb_table_value(t, &c);
}

/* The moves the DTM ranking keeps at a won root: to the lost child of
 * least DTM, ties to the least DTC; *w that DTM. */
static int dtm_best_moves(const Position *pos, Move *out, uint16_t *w) {
    MoveList ml;
    gen_legal(pos, &ml);
    uint16_t dtm[MAX_MOVES], dtc[MAX_MOVES], best_dtc = 0;
    *w = 0;
    for (int i = 0; i < ml.count; i++) {
        dtm[i] = child_of(pos, ml.moves[i], true);
        dtc[i] = child_of(pos, ml.moves[i], false);
        if (egtb_is_loss(dtm[i]) && (!*w || dtm[i] < *w)) *w = dtm[i];
    }
    for (int i = 0; i < ml.count; i++)
        if (dtm[i] == *w && (!best_dtc || dtc[i] < best_dtc)) best_dtc = dtc[i];
    int n = 0;
    for (int i = 0; i < ml.count; i++)
        if (dtm[i] == *w && dtc[i] == best_dtc) out[n++] = ml.moves[i];
    return n;
}

/* Read to bestmove; the last score seen into score ("" if none). */
static void read_best_and_score(Engine *e, char *best, char *score, size_t size) {
    char line[ENG_LINE];
    score[0] = '\0';
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, eng_slow(20000))) {
            eng_dump(e);
            fail_msg("no bestmove");
        }
        const char *sc = strstr(line, " score ");
        if (sc) {
            snprintf(score, size, "%s", sc + 7);
            char *end = strstr(score, " ");
            if (end && (end = strstr(end + 1, " "))) *end = '\0'; /* "mate N" or "cp N" */
        }
        if (!strncmp(line, "bestmove ", 9)) break;
    }
    sscanf(line + 9, "%15s", best);
}

/* With DTM files beside DTC (UCI, depth 1): at won KRKAA roots whose mate
 * is longer than their conversion, the engine plays a move to the lost
 * child of least DTM w and reports `score mate (w + 1) / 2`; the same
 * root with a no-capture count under which the conversion fits the move
 * limit but the whole mate does not ranks by DTC as before: no mate
 * score, a shortest-conversion move. */
static void test_root_ranks_by_dtm(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s;%s", Dir, DtmDir);
    eng_expect(&e, "info string endgame tables: 8 with WDL, 8 with DTC, 8 with DTM", T5s, NULL, 0);
    const EgtbTable *t = table("KRKAA");
    static Position pos;
    int tried = 0;
    for (uint64_t idx = 0; idx < t->lay.positions && tried < 6; idx += 37) {
        uint16_t v = t->val[RED][idx], m = t->dtm[RED][idx];
        if (!egtb_is_win(v) || m < v + 4 || m > 40 || !egtb_decode(&t->lay, idx, RED, &pos) ||
            !egtb_decoded_legal(&pos))
            continue;
        Move want[MAX_MOVES], dtc_want[MAX_MOVES];
        uint16_t w;
        int n = dtm_best_moves(&pos, want, &w), dn = best_moves(&pos, dtc_want);
        assert_int_equal(w + 1, m);
        char fen[FEN_MAX], best[16], score[32], text[8], expect[32];
        fen_write(&pos, fen);
        eng_send(&e, "position fen %s", fen);
        eng_send(&e, "go depth 1");
        read_best_and_score(&e, best, score, sizeof score);
        bool found = false;
        for (int k = 0; k < n; k++) found |= !strcmp(best, move_to_text(want[k], 0, text));
        if (!found) fail_msg("%s: bestmove %s is not a least-DTM move (%d)", fen, best, n);
        snprintf(expect, sizeof expect, "mate %d", (w + 1) / 2);
        if (strcmp(score, expect)) fail_msg("%s: score %s, want %s", fen, score, expect);
        /* The mate no longer fits 120 plies, the conversion still does. */
        char *clock = strstr(fen, " - - ");
        assert_non_null(clock);
        snprintf(clock, sizeof fen - (size_t)(clock - fen), " - - %d 1", 120 - (m - 1) + 1);
        eng_send(&e, "position fen %s", fen);
        eng_send(&e, "go depth 1");
        read_best_and_score(&e, best, score, sizeof score);
        if (strstr(score, "mate")) fail_msg("%s: score %s past the limit", fen, score);
        found = false;
        for (int k = 0; k < dn; k++) found |= !strcmp(best, move_to_text(dtc_want[k], 0, text));
        if (!found) fail_msg("%s: bestmove %s is not a shortest conversion", fen, best);
        tried++;
    }
    assert_int_equal(tried, 6);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* A won root one of whose table-lost children repeats a position of the
 * game (so the repetition judge, not the table, values it) still ranks by
 * DTM through the other children. KPPK, Red to move after 1. a7b7 e7e8 2.
 * b7c7 e8e7: c7b7 would bring back the position after 1. a7b7 (a table
 * loss for Black, judged a draw here), and the king's moves mate two plies
 * sooner than d9e9, the first of the shortest conversions. Before the fix
 * the repeated child made the root fall back to DTC (d9e9, a table-band
 * score; found by egtb_convert.sh with DTM files). */
static void test_dtm_root_with_a_repeated_child(void **state) {
    (void)state;
    static const char Start[] = "3P5/9/P3k4/9/9/9/9/9/5K3/9 w - - 0 1", Now[] = "3P5/9/2P1k4/9/9/9/9/9/5K3/9 w - - 4 3";
    static Position pos;
    must_parse(&pos, Now);
    Move want[MAX_MOVES];
    uint16_t w;
    int n = dtm_best_moves(&pos, want, &w);
    char text[8], best[16], score[32], expect[32];
    assert_true(egtb_is_loss(child_of(&pos, move_from_text("c7b7", 0), true))); /* a table loss for Black */
    assert_true(n >= 1);
    for (int k = 0; k < n; k++) assert_string_not_equal(move_to_text(want[k], 0, text), "d9e9");
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s;%s", Dir, DtmDir);
    eng_expect(&e, "info string endgame tables: 8 with WDL, 8 with DTC, 8 with DTM", T5s, NULL, 0);
    snprintf(expect, sizeof expect, "mate %d", (w + 1) / 2);
    for (int history = 0; history < 2; history++) {
        if (history)
            eng_send(&e, "position fen %s moves a7b7 e7e8 b7c7 e8e7", Start);
        else
            eng_send(&e, "position fen %s", Now);
        eng_send(&e, "go depth 1");
        read_best_and_score(&e, best, score, sizeof score);
        bool found = false;
        for (int k = 0; k < n; k++) found |= !strcmp(best, move_to_text(want[k], 0, text));
        if (!found) fail_msg("history %d: bestmove %s is not a least-DTM move (%d)", history, best, n);
        if (strcmp(score, expect)) fail_msg("history %d: score %s, want %s", history, score, expect);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* A lost root keeps the DTC ranking with DTM files loaded (resisting the
 * conversion longest gives the move limit its best chance): at lost KRKAA
 * roots (Black to move) where the moves resisting longest by DTC and by
 * DTM differ, the engine plays one of DTC's. UCI, depth 1. */
static void test_lost_root_keeps_dtc(void **state) {
    (void)state;
    Engine e;
    eng_start_dialect(&e, "uci");
    eng_send(&e, "setoption name EGTBPath value %s;%s", Dir, DtmDir);
    eng_expect(&e, "info string endgame tables: 8 with WDL, 8 with DTC, 8 with DTM", T5s, NULL, 0);
    const EgtbTable *t = table("KRKAA");
    static Position pos;
    int tried = 0;
    for (uint64_t idx = 0; idx < t->lay.positions && tried < 4; idx += 7) {
        uint16_t v = t->val[BLACK][idx];
        if (!egtb_is_loss(v) || v < 5 || !egtb_decode(&t->lay, idx, BLACK, &pos) || !egtb_decoded_legal(&pos))
            continue;
        MoveList ml;
        gen_legal(&pos, &ml);
        uint16_t dtc[MAX_MOVES], dtm[MAX_MOVES], most_dtc = 0, most_dtm = 0;
        for (int i = 0; i < ml.count; i++) {
            dtc[i] = child_of(&pos, ml.moves[i], false);
            dtm[i] = child_of(&pos, ml.moves[i], true);
            if (dtc[i] > most_dtc) most_dtc = dtc[i];
            if (dtm[i] > most_dtm) most_dtm = dtm[i];
        }
        bool differ = true; /* no move is longest by both */
        for (int i = 0; i < ml.count; i++) differ &= !(dtc[i] == most_dtc && dtm[i] == most_dtm);
        if (!differ) continue;
        char fen[FEN_MAX], best[16], score[32], text[8];
        eng_send(&e, "position fen %s", fen_write(&pos, fen));
        eng_send(&e, "go depth 1");
        read_best_and_score(&e, best, score, sizeof score);
        bool found = false;
        for (int i = 0; i < ml.count; i++)
            found |= dtc[i] == most_dtc && !strcmp(best, move_to_text(ml.moves[i], 0, text));
        if (!found) fail_msg("%s: bestmove %s does not resist longest by DTC", fen, best);
        tried++;
    }
    assert_int_equal(tried, 4);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* Two pawns, one move from the conversion, with the no-capture count one
 * ply short of the limit (119 of 120): pushing the d-pawn to d8 wins in the
 * table (Black must take it, into a lost KPK) but the taking would be the
 * 121st ply, a draw by the limit; the mates and stalemates end the game at
 * once (h8g8, e1e0, ...). All are v = 1 for Black, so the root ranking must
 * prefer the moves after which Black has no reply, whatever the search
 * (which sees only draws past the limit) says. UCCI, depth 1 and 20000
 * nodes. */
static void test_converts_at_the_move_limit(void **state) {
    (void)state;
    const char *fen = "3k5/7P1/3P5/9/9/9/9/9/4K4/9 w - - 119 1";
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption egtbpaths %s", Dir);
    eng_expect(&e, "info message endgame tables: 8 with WDL", T5s, NULL, 0);
    static const char *const Go[] = {"depth 1", "nodes 20000"};
    for (int i = 0; i < 2; i++) {
        eng_send(&e, "position fen %s", fen);
        eng_send(&e, "go %s", Go[i]);
        char best[16];
        bool tbhits = false;
        read_bestmove(&e, best, &tbhits);
        static Position pos;
        must_parse(&pos, fen);
        char err[256];
        Move m = move_parse_legal(&pos, best, 0, err, sizeof err);
        if (m == MOVE_NONE) fail_msg("go %s: bestmove %s: %s", Go[i], best, err);
        pos_make_move(&pos, m);
        if (gen_count_legal(&pos) != 0) fail_msg("go %s: %s leaves Black a reply: a draw by the move limit", Go[i], best);
        assert_true(tbhits);
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The engine plays both sides of a won chariot against two advisors: Red
 * mates, within the plies the tables allow, whatever Black tries (UCCI, two
 * threads: they share the block cache, which ThreadSanitizer then sees). */
static void test_plays_won_ending_to_mate(void **state) {
    (void)state;
    const char *fen = "3ak4/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    Engine e;
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption threads 2");
    eng_send(&e, "setoption egtbpaths %s", Dir);
    eng_expect(&e, "info message endgame tables: 8 with WDL", T5s, NULL, 0);
    char moves[2048] = "";
    bool tbhits = false;
    int plies = 0;
    for (; plies < 80; plies++) {
        eng_send(&e, "position fen %s%s%s", fen, plies ? " moves" : "", moves);
        eng_send(&e, "go depth 4");
        char best[16];
        read_bestmove(&e, best, &tbhits);
        if (!strcmp(best, "nobestmove")) break;
        size_t len = strlen(moves);
        snprintf(moves + len, sizeof moves - len, " %s", best);
    }
    if (plies >= 40) fail_msg("no mate after %d plies:%s", plies, moves);
    assert_int_equal(plies % 2, 1); /* Black to move, mated */
    assert_true(tbhits);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

/* The options in both dialects: advertised, a bad path and a corrupt table
 * get an error line, the engine still answers; UseEGTB off: no tbhits. */
static void test_options_end_to_end(void **state) {
    (void)state;
    char fix[256], line[ENG_LINE];
    snprintf(fix, sizeof fix, "&& printf '\\007' | dd of=%s/KRKAA.lzw bs=1 seek=70 conv=notrunc 2>/dev/null", Bad);
    bad_file("KRKAA.lzw", "KRKAA.lzw", fix);
    Engine e;
    eng_start(&e);
    eng_send(&e, "ucci");
    assert_true(eng_seen_before(&e, "option useegtb type check default true", "ucciok", T5s));
    eng_finish(&e);
    eng_start(&e);
    eng_send(&e, "ucci");
    assert_true(eng_seen_before(&e, "option egtbpaths type string", "ucciok", T5s));
    eng_finish(&e);
    eng_start(&e);
    eng_send(&e, "uci");
    assert_true(eng_seen_before(&e, "option name EGTBPath type string", "uciok", T5s));
    eng_finish(&e);
    eng_start(&e);
    eng_send(&e, "uci");
    assert_true(eng_seen_before(&e, "option name UseEGTB type check default true", "uciok", T5s));
    eng_send(&e, "setoption name EGTBPath value /nonexistent-tuong-dir");
    eng_expect(&e, "info string error: egtb: cannot open directory /nonexistent-tuong-dir", T5s, NULL, 0);
    eng_expect(&e, "info string no endgame tables found", T5s, NULL, 0);
    eng_send(&e, "setoption name EGTBPath value %s", Bad);
    bool krkaa = false;
    for (;;) { /* one error line per bad file, then the summary */
        if (!eng_read_line(&e, line, sizeof line, T5s)) fail_msg("no summary line");
        krkaa |= !strncmp(line, "info string error: egtb: ", 25) && strstr(line, "KRKAA.lzw: XXH64");
        if (!strncmp(line, "info string endgame tables: ", 28)) break;
    }
    assert_true(krkaa);
    eng_send(&e, "position fen 3ak4/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    /* The good tables, then UseEGTB off: no tbhits. */
    eng_send(&e, "setoption name EGTBPath value %s", Dir);
    eng_expect(&e, "info string endgame tables: 8", T5s, NULL, 0);
    eng_send(&e, "setoption name UseEGTB value false");
    eng_send(&e, "go depth 3");
    for (;;) {
        if (!eng_read_line(&e, line, sizeof line, eng_slow(20000))) fail_msg("no bestmove");
        if (strstr(line, " tbhits ")) fail_msg("'%s' with UseEGTB off", line);
        if (!strncmp(line, "bestmove ", 9)) break;
    }
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);

    /* UCCI: the corrupt table refused as an info message, bestmove all the same. */
    eng_start_dialect(&e, "ucci");
    eng_send(&e, "setoption egtbpaths %s", Bad);
    eng_expect(&e, "info message error: egtb: ", T5s, line, sizeof line);
    eng_send(&e, "setoption useegtb true");
    eng_send(&e, "position fen 3ak4/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    eng_send(&e, "go depth 3");
    eng_expect(&e, "bestmove ", eng_slow(20000), NULL, 0);
    eng_send(&e, "quit");
    assert_int_equal(eng_wait(&e, T5s), 0);
    eng_finish(&e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_equals_generator),
        cmocka_unit_test(test_bad_files_refused),
        cmocka_unit_test(test_probe_dtm_equals_generator),
        cmocka_unit_test(test_bad_dtm_files_refused),
        cmocka_unit_test(test_root_plays_table_move),
        cmocka_unit_test(test_root_ranks_by_dtm),
        cmocka_unit_test(test_dtm_root_with_a_repeated_child),
        cmocka_unit_test(test_lost_root_keeps_dtc),
        cmocka_unit_test(test_plays_won_ending_to_mate),
        cmocka_unit_test(test_converts_at_the_move_limit),
        cmocka_unit_test(test_options_end_to_end),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
