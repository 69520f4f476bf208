// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-datagen end to end on tiny runs: the same seed gives the same
 * bytes whatever the number of workers, the records are quiet positions
 * with labels that agree with their games, the file grows by appending,
 * and bad files and flags are refused with one message; `from-pgn` turns
 * played games into records that rescore labels. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "datafile.h"
#include "fen.h"
#include "notation.h"
#include "score.h"
#include "selfplay.h"

static char Dir[1024];

/* Path of a scratch file in this test's directory. */
static const char *path_of(const char *name) {
    static char paths[8][1200];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", Dir, name);
    return p;
}

/* Run tuong-datagen with args (stderr to a file); returns its exit code. */
static int datagen(const char *args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>'%s/stderr'", TUONG_DATAGEN, args, Dir);
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Tiny games: few nodes a move, and short (the sanitizer builds are slow). */
static const char TinyGames[] = "--nodes 200 --max-plies 120 --hash 1 --progress 0";

/* A tiny self-play run into file out (removed first). */
static int tiny_run(const char *out, int threads, int seed, const char *target) {
    char args[2048];
    remove(out);
    snprintf(args, sizeof args, "--out '%s' %s %s --threads %d --seed %d --openings '%s/openings/xiangqi.epd'", out,
             target, TinyGames, threads, seed, TUONG_DATA_DIR);
    return datagen(args);
}

/* Exactly one line on stderr, containing `what`. */
static void expect_one_error(const char *what) {
    long n;
    char *text = test_slurp(path_of("stderr"), &n);
    if (!strstr(text, what)) fail_msg("stderr '%s' lacks '%s'", text, what);
    char *nl = strchr(text, '\n');
    assert_true(nl && nl[1] == '\0');
    free(text);
}

static void same_seed_same_bytes(void **state) {
    (void)state;
    const char *a = path_of("a.bin"), *b = path_of("b.bin"), *c = path_of("c.bin"), *d = path_of("d.bin");
    assert_int_equal(tiny_run(a, 2, 7, "--games 2"), 0);
    assert_int_equal(tiny_run(b, 2, 7, "--games 2"), 0);
    assert_int_equal(tiny_run(c, 1, 7, "--games 2"), 0);
    assert_int_equal(tiny_run(d, 2, 8, "--games 2"), 0);
    assert_true(test_same_bytes(a, b));
    assert_true(test_same_bytes(a, c)); /* one worker or two: the same games in the same order */
    assert_false(test_same_bytes(a, d));
    long n;
    free(test_slurp(a, &n));
    assert_true(n > DATAFILE_HEADER_SIZE + 20 * DATAFILE_RECORD_SIZE);
}

/* Split the records into games (the ply falls where a new game starts)
 * and check each game's labels against each other and the positions. */
static void records_are_quiet_and_labels_agree(void **state) {
    (void)state;
    const char *out = path_of("labels.bin");
    /* Early resignations: short games are mostly drawn by the length limit.
     * Twelve games, not six: the comparison of results below is statistical,
     * and six 200-node games were too few for it to hold for every net. */
    assert_int_equal(tiny_run(out, 2, 11, "--games 12 --resign-score 300 --resign-moves 2"), 0);
    char err[600], why[200];
    uint64_t count;
    FILE *f = datafile_open_read(out, &count, err, sizeof err);
    if (!f) fail_msg("%s", err);
    int games = 0, prev_ply = -1, red_result = 0;
    double sum_ahead = 0, sum_behind = 0;
    int n_ahead = 0, n_behind = 0;
    static Position pos;
    for (uint64_t i = 0; i < count; i++) {
        DataRecord rec;
        DataEntry e;
        assert_int_equal(datafile_read(f, &rec, 1), 1);
        if (!datafile_unpack(&rec, &e, why, sizeof why)) fail_msg("record %d: %s", (int)i, why);
        if (!datafile_to_position(&e, &pos, why, sizeof why)) fail_msg("record %d: %s", (int)i, why);
        assert_false(pos_in_check(&pos));
        assert_true(e.score > -2000 && e.score < 2000);
        int red = e.side == RED ? (int)e.result : DATA_WIN - (int)e.result;
        if (i == 0 || e.ply <= prev_ply) {
            games++;
            red_result = red;
        }
        assert_int_equal(red, red_result); /* one result per game, mirrored for Black */
        prev_ply = e.ply;
        if (e.score >= 100) {
            sum_ahead += e.result;
            n_ahead++;
        } else if (e.score <= -100) {
            sum_behind += e.result;
            n_behind++;
        }
    }
    fclose(f);
    assert_true(games >= 2 && games <= 12);
    /* The side the search likes scores better than the side it does not. */
    assert_true(n_ahead > 0 && n_behind > 0);
    assert_true(sum_ahead / n_ahead > sum_behind / n_behind);
    char args[1300];
    snprintf(args, sizeof args, "verify '%s'", out);
    assert_int_equal(datagen(args), 0);
    snprintf(args, sizeof args, "stats '%s' >/dev/null", out);
    assert_int_equal(datagen(args), 0);
}

static void positions_target_and_append(void **state) {
    (void)state;
    const char *out = path_of("append.bin"), *games = path_of("games.bin");
    assert_int_equal(tiny_run(out, 2, 3, "--positions 150"), 0);
    long n;
    free(test_slurp(out, &n));
    assert_int_equal(n, DATAFILE_HEADER_SIZE + 150 * DATAFILE_RECORD_SIZE);
    /* The first 150 positions of the seed's games, whatever the target. */
    assert_int_equal(tiny_run(games, 1, 3, "--games 8"), 0);
    char *a = test_slurp(out, &n), *g = test_slurp(games, &n);
    assert_true(n >= DATAFILE_HEADER_SIZE + 150 * DATAFILE_RECORD_SIZE);
    assert_memory_equal(a, g, DATAFILE_HEADER_SIZE + 150 * DATAFILE_RECORD_SIZE);
    free(a);
    free(g);
    char args[2048];
    snprintf(args, sizeof args,
             "--out '%s' --positions 50 %s --threads 2 --seed 4 --openings '%s/openings/xiangqi.epd'", out, TinyGames,
             TUONG_DATA_DIR);
    assert_int_equal(datagen(args), 0);
    free(test_slurp(out, &n));
    assert_int_equal(n, DATAFILE_HEADER_SIZE + 200 * DATAFILE_RECORD_SIZE);
}

static void refuses_bad_files_and_flags(void **state) {
    (void)state;
    const char *out = path_of("bad.bin");
    const char *note = "this is not a data file, it is a note\n";
    FILE *f = fopen(out, "wb");
    fputs(note, f);
    fclose(f);
    char args[2048];
    snprintf(args, sizeof args, "--out '%s' --games 1 --nodes 200 --openings '%s/openings/xiangqi.epd'", out,
             TUONG_DATA_DIR);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("not a Tuong training data file");
    long n;
    free(test_slurp(out, &n));
    assert_int_equal(n, (long)strlen(note)); /* untouched */

    uint8_t bytes[DATAFILE_HEADER_SIZE + 7];
    memset(bytes, 0, sizeof bytes);
    datafile_header(bytes);
    f = fopen(out, "wb");
    fwrite(bytes, 1, sizeof bytes, f);
    fclose(f);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("truncated");
    snprintf(args, sizeof args, "verify '%s'", out);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("truncated");
    snprintf(args, sizeof args, "stats '%s'", out);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("truncated");

    remove(out);
    const char *flags[] = {"--games 1 --nodes 0",
                           "--games 1 --nodes many",
                           "--games 1 --threads 0",
                           "--games 1 --positions 5",
                           "",
                           "--games 1 --hard-nodes 10",
                           "--games 1 --bogus 1",
                           "--games 1 --openings /nonexistent/x.epd",
                           "--games"};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
        snprintf(args, sizeof args, "--out '%s' %s", out, flags[i]);
        assert_int_not_equal(datagen(args), 0);
        expect_one_error("error");
    }
}

/* Shard K/N of --games G into file name; its exit code. */
static int shard_run(const char *name, const char *shard, int games) {
    char args[2048];
    snprintf(args, sizeof args,
             "--out '%s' --games %d %s --threads 1 --seed 5 --shard %s --openings '%s/openings/xiangqi.epd'",
             path_of(name), games, TinyGames, shard, TUONG_DATA_DIR);
    return datagen(args);
}

/* merge OUT SHARD... (names in Dir; OUT removed first); its exit code. */
static int merge(const char *out, const char *a, const char *b, const char *c, const char *d) {
    char args[3000];
    remove(path_of(out));
    int n = snprintf(args, sizeof args, "merge '%s'", path_of(out));
    const char *names[] = {a, b, c, d};
    for (int i = 0; i < 4; i++)
        if (names[i]) n += snprintf(args + n, sizeof args - (size_t)n, " '%s'", path_of(names[i]));
    return datagen(args);
}

/* Three shards, merged in any order, are the unsharded file byte for byte;
 * a shard file already whole is not played again. */
static void shards_merge_into_the_unsharded_file(void **state) {
    (void)state;
    const char *whole = path_of("whole.bin");
    char args[2048];
    remove(whole);
    snprintf(args, sizeof args, "--out '%s' --games 5 %s --threads 2 --seed 5 --openings '%s/openings/xiangqi.epd'",
             whole, TinyGames, TUONG_DATA_DIR);
    assert_int_equal(datagen(args), 0);
    const char *names[] = {"s0.bin", "s1.bin", "s2.bin"}, *specs[] = {"0/3", "1/3", "2/3"};
    for (int k = 0; k < 3; k++) {
        remove(path_of(names[k]));
        assert_int_equal(shard_run(names[k], specs[k], 5), 0);
    }
    assert_int_equal(merge("merged.bin", "s2.bin", "s0.bin", "s1.bin", NULL), 0);
    assert_true(test_same_bytes(whole, path_of("merged.bin")));
    long before, after;
    free(test_slurp(path_of("s1.bin"), &before));
    assert_int_equal(shard_run("s1.bin", "1/3", 5), 0); /* whole already: nothing to do */
    free(test_slurp(path_of("s1.bin"), &after));
    assert_int_equal(before, after);
    assert_int_equal(merge("merged.bin", "s0.bin", "s1.bin", "s2.bin", NULL), 0);
    assert_true(test_same_bytes(whole, path_of("merged.bin")));
}

/* Missing, duplicated, foreign, truncated and damaged shards: one line
 * naming the file, no output file. */
static void merge_refuses_bad_shard_sets(void **state) {
    (void)state;
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", NULL, NULL), 1);
    expect_one_error("shard 2/3 is missing");
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "s1.bin", "s2.bin"), 1);
    expect_one_error("s1.bin and ");
    remove(path_of("other.bin"));
    assert_int_equal(shard_run("other.bin", "2/3", 6), 0); /* another run: 6 games */
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "other.bin", NULL), 1);
    expect_one_error("other.bin is a shard of another run");
    remove(path_of("four.bin"));
    assert_int_equal(shard_run("four.bin", "3/4", 5), 0);
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "four.bin", NULL), 1);
    expect_one_error("four.bin is shard 3/4");
    long n;
    char *bytes = test_slurp(path_of("s2.bin"), &n);
    FILE *f = fopen(path_of("cut.bin"), "wb");
    fwrite(bytes, 1, (size_t)n - 7, f);
    fclose(f);
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "cut.bin", NULL), 1);
    expect_one_error("cut.bin: truncated");
    bytes[n - 3] ^= 1; /* a flipped bit in the last record */
    f = fopen(path_of("bad.bin"), "wb");
    fwrite(bytes, 1, (size_t)n, f);
    fclose(f);
    free(bytes);
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "bad.bin", NULL), 1);
    expect_one_error("bad.bin: damaged");
    assert_int_equal(merge("m.bin", "s0.bin", "s1.bin", "whole.bin", NULL), 1);
    expect_one_error("whole.bin: not a tuong-datagen shard file");
    FILE *probe = fopen(path_of("m.bin"), "rb");
    assert_null(probe);
    assert_int_equal(merge("merged.bin", "s0.bin", "s1.bin", "s2.bin", NULL), 0);
    char args[2048];
    snprintf(args, sizeof args, "merge '%s' '%s' '%s' '%s'", path_of("merged.bin"), path_of("s0.bin"),
             path_of("s1.bin"), path_of("s2.bin"));
    assert_int_equal(datagen(args), 1);
    expect_one_error("exists");
    /* --shard needs --games; K/N must be a shard; no shard without a game */
    assert_int_not_equal(shard_run("x.bin", "3/3", 5), 0);
    expect_one_error("--shard 3/3");
    remove(path_of("x.bin"));
    assert_int_not_equal(shard_run("x.bin", "0/6", 5), 0); /* games [0, 5/6) */
    expect_one_error("holds no game");
    snprintf(args, sizeof args, "--out '%s' --positions 50 --shard 0/2", path_of("x.bin"));
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("--games N only");
}

/* The recording filter on hand-made cases: each condition can refuse. */
static void only_quiet_positions_are_recorded(void **state) {
    (void)state;
    static Position pos;
    SelfplaySettings s = {.score_cap = 2000, .skip_plies = 0};
    must_parse(&pos, START_FEN);
    Move quiet = move_from_text("h2e2", 0), capture = move_from_text("h2h9", 0);
    assert_true(selfplay_recordable(&pos, &s, quiet, 10));
    assert_true(selfplay_recordable(&pos, &s, quiet, -1999));
    assert_false(selfplay_recordable(&pos, &s, capture, 10));
    assert_false(selfplay_recordable(&pos, &s, MOVE_NONE, 10));
    assert_false(selfplay_recordable(&pos, &s, quiet, 2000));
    assert_false(selfplay_recordable(&pos, &s, quiet, -2000));
    assert_false(selfplay_recordable(&pos, &s, quiet, SCORE_MATE - 5));
    s.skip_plies = 1;
    assert_false(selfplay_recordable(&pos, &s, quiet, 10));
    pos_make_move(&pos, quiet);
    assert_true(selfplay_recordable(&pos, &s, move_from_text("h7e7", 0), 10));
    s.skip_plies = 0;
    must_parse(&pos, "4k4/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1"); /* Red in check, d0 is a quiet escape */
    assert_false(selfplay_recordable(&pos, &s, move_from_text("e0d0", 0), 10));
}

/* Every line of the book leaves Black to move; the random plies must leave
 * each side to move first in half the games (the side that makes the last
 * random move hands its opponent the first search, a colour skew of about
 * 11 points of wins when the count was fixed). */
static void last_random_move_alternates_between_sides(void **state) {
    (void)state;
    char err[600];
    OpeningBook book;
    snprintf(err, sizeof err, "%s/openings/xiangqi.epd", TUONG_DATA_DIR);
    if (!openings_load(&book, err, err, sizeof err)) fail_msg("%s", err);
    SelfplaySettings s = {
        .nodes = 50, .hard_nodes = 100, .hash_mb = 1, .random_plies = 2, .score_cap = 2000, .max_plies = 6};
    assert_int_equal(selfplay_random_plies(&s, 0), 2);
    assert_int_equal(selfplay_random_plies(&s, 7), 3);
    selfplay_init(&s);
    static DataRecord records[8];
    atomic_int stop = 0;
    int red_first = 0;
    for (uint64_t g = 0; g < 8; g++) {
        SelfplayGame game = {.records = records};
        assert_true(selfplay_game(&book, &s, 5, g, &game, &stop));
        assert_int_equal(game.start_side, g & 1 ? RED : BLACK);
        red_first += game.start_side == RED;
    }
    assert_int_equal(red_first, 4);
    openings_free(&book);
}

/* Read every record of a data file into e[] (at most cap); the count. */
static int read_entries(const char *path, DataEntry *e, int cap) {
    char err[600], why[200];
    uint64_t count;
    FILE *f = datafile_open_read(path, &count, err, sizeof err);
    if (!f) fail_msg("%s", err);
    assert_true(count <= (uint64_t)cap);
    for (uint64_t i = 0; i < count; i++) {
        DataRecord rec;
        assert_int_equal(datafile_read(f, &rec, 1), 1);
        if (!datafile_unpack(&rec, &e[i], why, sizeof why)) fail_msg("record %d: %s", (int)i, why);
    }
    fclose(f);
    return (int)count;
}

/* Does entry e hold the position pos, with this label? */
static void expect_entry(const DataEntry *e, const Position *pos, DataResult result, int ply) {
    static Position got;
    char why[200];
    if (!datafile_to_position(e, &got, why, sizeof why)) fail_msg("%s", why);
    assert_true(pos_key(&got) == pos_key(pos));
    assert_int_equal(e->side, pos->side);
    assert_int_equal(e->result, result);
    assert_int_equal(e->ply, ply);
    assert_int_equal(e->score, 0);
}

/* Games for from-pgn: a mate in one from a FEN at move 5 (its one position
 * not in check is Red's, before the mate), four moves from the start drawn,
 * a game without a result and one with a move that is not a move. */
static const char FromPgnFen[] = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 5";
static const char *const DrawnLine[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};
enum { DRAWN_PLIES = 6 };

static void write_from_pgn_games(const char *path) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[Event \"a\"]\n[Result \"1-0\"]\n[FEN \"%s\"]\n[SetUp \"1\"]\n\n5. a0d0 1-0\n\n", FromPgnFen);
    fprintf(f, "[Event \"b\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1/2-1/2\n\n");
    fprintf(f, "[Event \"c\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 *\n\n");
    fprintf(f, "[Event \"d\"]\n[Result \"0-1\"]\n\n1. h2e2 zz99 0-1\n\n");
    fclose(f);
}

/* The games file, written, and two more scratch paths (copies: path_of
 * reuses its buffers), the output removed. */
typedef struct {
    char pgn[1200], out[1200], other[1200];
} FromPgnFiles;

static void from_pgn_files(FromPgnFiles *f, const char *out, const char *other) {
    snprintf(f->pgn, sizeof f->pgn, "%s", path_of("games.pgn"));
    snprintf(f->out, sizeof f->out, "%s", path_of(out));
    snprintf(f->other, sizeof f->other, "%s", path_of(other));
    write_from_pgn_games(f->pgn);
    remove(f->out);
}

static void from_pgn_positions_and_results(void **state) {
    (void)state;
    static FromPgnFiles files;
    from_pgn_files(&files, "frompgn.bin", "frompgn-r.bin");
    const char *pgn = files.pgn, *out = files.out, *labelled = files.other;
    char args[4800];
    snprintf(args, sizeof args, "from-pgn --out '%s' --skip-plies 0 '%s'", out, pgn);
    assert_int_equal(datagen(args), 0);
    char *summary = test_slurp(path_of("stderr"), &(long){0});
    if (!strstr(summary, "2 games, 8 positions") || !strstr(summary, "1 in check left out") ||
        !strstr(summary, "1 games without a result, 1 unreadable"))
        fail_msg("summary: %s", summary);
    free(summary);

    static DataEntry e[16];
    assert_int_equal(read_entries(out, e, 16), 1 + DRAWN_PLIES + 1);
    static Position pos;
    char err[200];
    assert_true(fen_parse(&pos, FromPgnFen, err, sizeof err));
    expect_entry(&e[0], &pos, DATA_WIN, 8); /* move 5, Red to move: ply 8 */
    assert_true(fen_parse(&pos, START_FEN, err, sizeof err));
    for (int i = 0; i <= DRAWN_PLIES; i++) {
        expect_entry(&e[1 + i], &pos, DATA_DRAW, i);
        if (i < DRAWN_PLIES) pos_make_move(&pos, move_parse_legal(&pos, DrawnLine[i], 0, err, sizeof err));
    }

    /* --skip-plies and --every: of the drawn game's plies 2..6, 2 and 5. */
    remove(out);
    snprintf(args, sizeof args, "from-pgn --out '%s' --skip-plies 2 --every 3 '%s'", out, pgn);
    assert_int_equal(datagen(args), 0);
    assert_int_equal(read_entries(out, e, 16), 2);
    assert_int_equal(e[0].ply, 2);
    assert_int_equal(e[1].ply, 5);

    /* The records are what rescore takes: it labels them. */
    remove(out);
    remove(labelled);
    snprintf(args, sizeof args, "from-pgn --out '%s' --skip-plies 0 '%s'", out, pgn);
    assert_int_equal(datagen(args), 0);
    snprintf(args, sizeof args, "rescore '%s' '%s' --nodes 200 --hash 1 --threads 1 --progress 0", out, labelled);
    assert_int_equal(datagen(args), 0);
    int kept = read_entries(labelled, e, 16);
    assert_true(kept >= 1 && kept <= DRAWN_PLIES + 1); /* the mate in one is dropped */
    for (int i = 0; i < kept; i++)
        assert_int_equal(e[i].result, DATA_DRAW);
}

static void from_pgn_refuses_bad_input(void **state) {
    (void)state;
    static FromPgnFiles files;
    from_pgn_files(&files, "frompgn-bad.bin", "junk.pgn");
    const char *pgn = files.pgn, *out = files.out, *junk = files.other;
    FILE *f = fopen(junk, "w");
    fputs("this is no PGN at all\n", f);
    fclose(f);
    char args[4800];
    remove(out);
    /* A missing input: one message, and no output file left behind. */
    snprintf(args, sizeof args, "from-pgn --out '%s' '%s' '%s/missing.pgn'", out, pgn, Dir);
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("cannot open");
    assert_null(fopen(out, "rb"));
    /* Nothing to write (junk, and games shorter than the default 8 plies
     * skipped): no file made. */
    snprintf(args, sizeof args, "from-pgn --out '%s' '%s' '%s'", out, junk, pgn);
    assert_int_not_equal(datagen(args), 0);
    char *text = test_slurp(path_of("stderr"), &(long){0});
    if (!strstr(text, "no position to write")) fail_msg("stderr: %s", text);
    free(text);
    assert_null(fopen(out, "rb"));
    /* An existing output is not overwritten. */
    snprintf(args, sizeof args, "from-pgn --out '%s' --skip-plies 0 '%s'", out, pgn);
    assert_int_equal(datagen(args), 0);
    long before, after;
    free(test_slurp(out, &before));
    assert_int_not_equal(datagen(args), 0);
    expect_one_error("exists");
    free(test_slurp(out, &after));
    assert_int_equal(before, after);
    char pgn_arg[1300];
    snprintf(pgn_arg, sizeof pgn_arg, "'%s'", pgn);
    const char *tails[][2] = {
        {"--every 0", pgn_arg}, {"--skip-plies -1", pgn_arg}, {"--bogus 1", pgn_arg}, {pgn_arg, "--every"}, {"", ""}};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        remove(out);
        snprintf(args, sizeof args, "from-pgn --out '%s' %s %s", out, tails[i][0], tails[i][1]);
        assert_int_not_equal(datagen(args), 0);
        expect_one_error("error");
        assert_null(fopen(out, "rb"));
    }
}

static int setup(void **state) {
    (void)state;
    snprintf(Dir, sizeof Dir, "%s/test_nnue_datagen.d", TUONG_BUILD_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", Dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(only_quiet_positions_are_recorded),
        cmocka_unit_test(same_seed_same_bytes),
        cmocka_unit_test(records_are_quiet_and_labels_agree),
        cmocka_unit_test(positions_target_and_append),
        cmocka_unit_test(refuses_bad_files_and_flags),
        cmocka_unit_test(last_random_move_alternates_between_sides),
        cmocka_unit_test(shards_merge_into_the_unsharded_file),
        cmocka_unit_test(merge_refuses_bad_shard_sets),
        cmocka_unit_test(from_pgn_positions_and_results),
        cmocka_unit_test(from_pgn_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
