// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * `tuong-datagen from-pgn --out FILE GAMES.pgn...`: the positions of played
 * games as data records, so a net can be judged on play other than the
 * pool's self-play (docs/nnue.md, "Held-out positions of other play").
 *
 * Every position of a finished game from --skip-plies on, whose side to
 * move is not in check, is written with the game's result and score 0;
 * `tuong-datagen rescore` then labels them with a search (and drops those
 * whose best move is a capture, as self-play records only quiet ones).
 * Games without a result, or whose moves cannot be read, are counted and
 * left out; the first such reason is printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "datafile.h"
#include "datagen.h"
#include "fen.h"
#include "pgn_read.h"

enum {
    DEFAULT_SKIP_PLIES = 8, /* as self-play: the opening line's first moves teach little */
    DEFAULT_EVERY = 1,
    SKIP_PLIES_MAX = 1000,
    EVERY_MAX = 1000,
    FILES_MAX = 4096,
};

typedef struct {
    int64_t skip_plies, every;
    const char *out;
    const char *files[FILES_MAX];
    int file_count;
} Args;

typedef struct {
    uint64_t games, written, in_check, unfinished, unreadable;
    char first_problem[400];
} Tally;

static const char Usage[] =
    "usage: tuong-datagen from-pgn --out FILE [options] GAMES.pgn...\n"
    "Writes the positions of the finished games of the PGN files to the new data file FILE, with the game's\n"
    "result and score 0, for `tuong-datagen rescore` to label (docs/nnue.md, \"Held-out positions of other\n"
    "play\"). Positions with the side to move in check are left out. Options:\n"
    "  --out FILE         the data file to write (must not exist, or be empty)\n"
    "  --skip-plies N     leave out each game's first N plies (default 8)\n"
    "  --every K          keep every K-th position of a game only (default 1: all)\n";

static bool parse_args(int argc, char **argv, Args *a) {
    for (int i = 0; i < argc; i++) {
        const char *name = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        datagen_help_if_asked(name, Usage);
        if (name[0] != '-' || !name[1]) {
            if (a->file_count == FILES_MAX) return datagen_error("from-pgn takes at most %d files", FILES_MAX);
            a->files[a->file_count++] = name;
            continue;
        }
        if (!v) return datagen_error("%s needs a value (from-pgn --help lists the options)", name);
        i++;
        if (!strcmp(name, "--out"))
            a->out = v;
        else if (!strcmp(name, "--skip-plies")) {
            if (!datagen_int_flag(name, v, 0, SKIP_PLIES_MAX, &a->skip_plies)) return false;
        } else if (!strcmp(name, "--every")) {
            if (!datagen_int_flag(name, v, 1, EVERY_MAX, &a->every)) return false;
        } else
            return datagen_error("unknown option %s (from-pgn --help lists them)", name);
    }
    if (!a->out) return datagen_error("from-pgn needs --out FILE (from-pgn --help)");
    if (!a->file_count) return datagen_error("from-pgn needs at least one PGN file (from-pgn --help)");
    return true;
}

static void note_problem(Tally *t, const char *path, long line, const char *why) {
    if (!t->first_problem[0]) snprintf(t->first_problem, sizeof t->first_problem, "%s:%ld: %s", path, line, why);
}

static DataResult result_for(GameResult r, Color side) {
    if (r == RES_DRAW) return DATA_DRAW;
    bool red_won = r == RES_RED_WINS;
    return red_won == (side == RED) ? DATA_WIN : DATA_LOSS;
}

/* Write the kept positions of one game; false on a write error. */
static bool put_game(const Args *a, const PgnGame *g, const char *path, FILE *out, Tally *t) {
    static Position pos;
    char err[300];
    if (!fen_parse(&pos, g->fen[0] ? g->fen : START_FEN, err, sizeof err)) {
        t->unreadable++;
        note_problem(t, path, g->line, err);
        return true;
    }
    /* The ply counts from the game's start position as the FEN numbers it. */
    int first_ply = 2 * (pos.root_fullmove > 0 ? pos.root_fullmove - 1 : 0) + (pos.side == BLACK);
    int kept = 0;
    t->games++;
    for (int i = 0; i <= g->ply_count; i++) {
        if (i >= a->skip_plies && pos_in_check(&pos)) t->in_check++;
        if (i >= a->skip_plies && !pos_in_check(&pos) && kept++ % a->every == 0) {
            DataRecord rec;
            if (!datafile_pack(&pos, 0, result_for(g->result, pos.side), first_ply + i, &rec)) {
                note_problem(t, path, g->line, "a position that does not fit a record");
            } else {
                if (!datafile_write(out, &rec, 1))
                    return datagen_error("%s: write failed: %s", a->out, strerror(errno));
                t->written++;
            }
        }
        if (i == g->ply_count || pos_history_full(&pos)) break;
        pos_make_move(&pos, g->moves[i]);
    }
    return true;
}

static bool read_file(const Args *a, const char *path, FILE *out, Tally *t) {
    FILE *f = fopen(path, "r");
    if (!f) return datagen_error("cannot open %s: %s", path, strerror(errno));
    static PgnGame g;
    PgnReader r;
    bool ok = pgn_open(&r, f, path, PGN_PLY_MAX);
    if (!ok) datagen_error("%s: out of memory", path);
    while (ok && pgn_next(&r, &g)) {
        if (g.error[0]) {
            t->unreadable++;
            note_problem(t, path, g.line, g.error);
        } else if (g.result == RES_NONE || g.truncated) {
            t->unfinished++;
            note_problem(t, path, g.line, g.truncated ? "longer than the reader's ply limit" : "no result");
        } else {
            ok = put_game(a, &g, path, out, t);
        }
    }
    pgn_close(&r);
    fclose(f);
    return ok;
}

int datagen_from_pgn(int argc, char **argv) {
    static Args a;
    a = (Args){.skip_plies = DEFAULT_SKIP_PLIES, .every = DEFAULT_EVERY};
    if (!parse_args(argc, argv, &a)) return 2;
    struct stat st;
    if (stat(a.out, &st) == 0 && st.st_size > DATAFILE_HEADER_SIZE) /* a header alone holds nothing */
        return !datagen_error("%s exists: from-pgn writes a new file", a.out);
    for (int i = 0; i < a.file_count; i++) { /* before OUT is made: a mistyped name leaves nothing behind */
        FILE *f = fopen(a.files[i], "r");
        if (!f) return !datagen_error("cannot open %s: %s", a.files[i], strerror(errno));
        fclose(f);
    }
    char err[600];
    uint64_t existing;
    FILE *out = datafile_open_append(a.out, &existing, err, sizeof err);
    if (!out) return !datagen_error("%s", err);
    Tally t = {0};
    bool ok = true;
    for (int i = 0; ok && i < a.file_count; i++)
        ok = read_file(&a, a.files[i], out, &t);
    if (fclose(out) != 0 && ok) ok = datagen_error("%s: write failed: %s", a.out, strerror(errno));
    if (ok)
        fprintf(stderr,
                "from-pgn: %" PRIu64 " games, %" PRIu64 " positions written to %s (%" PRIu64 " in check left out); "
                "%" PRIu64 " games without a result, %" PRIu64 " unreadable%s%s\n",
                t.games, t.written, a.out, t.in_check, t.unfinished, t.unreadable,
                t.first_problem[0] ? "; the first: " : "", t.first_problem);
    if (ok && !t.written) ok = datagen_error("no position to write: %s not made", a.out);
    if (!ok) remove(a.out); /* no half-made file to train on or to block the next run */
    return ok ? 0 : 1;
}
