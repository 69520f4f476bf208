// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-book: build an opening book from PGN games, or list the book moves
 * of a position (docs/book.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book.h"
#include "collect.h"
#include "fen.h"
#include "notation.h"
#include "pgn_read.h"

static const char Usage[] = "usage: tuong-book build -o BOOK [options] FILE.pgn...\n"
                            "         --format tuong|eleeye   Tuong's format (default) or ElephantEye's BOOK.DAT\n"
                            "         --min-games N           keep a move played in at least N games (default 1)\n"
                            "         --max-ply N             read the first N plies of each game (default 40)\n"
                            "         --win W --draw D --loss L  weight points per game for the side that moved\n"
                            "                                 (defaults 2, 1, 0)\n"
                            "         --side both|red|black   keep the moves of these sides (default both)\n"
                            "         --notation auto|iccs|wxf|vn  the moves' notation (default auto: detected\n"
                            "                                 per game; vn is Vietnamese, P2-5 M8.7)\n"
                            "       tuong-book probe BOOK [startpos | FEN] [moves M...]\n"
                            "       tuong-book --help\n";

enum { DEFAULT_MAX_PLY = 40, DEFAULT_WIN = 2, DEFAULT_DRAW = 1, DEFAULT_LOSS = 0, POINTS_MAX = 1000 };

typedef struct {
    const char *output;
    BookFormat format;
    CollectOptions collect;
    Notation notation; /* of the PGN moves, NOTATION_AUTO: detected per game */
    int first_file;    /* argv index of the first PGN */
} BuildArgs;

/* Print `tuong-book: error: ...` and return code. */
static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tuong-book: error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

/* A bad command line: the error, the usage, exit code 2. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tuong-book: error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n%s", Usage);
    va_end(ap);
    return 2;
}

static bool parse_count(const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* One option with its value at argv[*i]; 0, or the exit code of an error. */
static int build_option(BuildArgs *a, int argc, char **argv, int *i) {
    const char *name = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n = 0;
    ++*i;
    if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
        if (!v) return usage_error("%s needs a file name", name);
        a->output = v;
    } else if (!strcmp(name, "--format")) {
        if (!v || (strcmp(v, "tuong") && strcmp(v, "eleeye"))) return usage_error("--format is tuong or eleeye");
        a->format = strcmp(v, "tuong") ? BOOK_FORMAT_ELEEYE : BOOK_FORMAT_TUONG;
    } else if (!strcmp(name, "--min-games") || !strcmp(name, "--max-ply")) {
        if (!parse_count(v, 1, PGN_PLY_MAX, &n)) return usage_error("%s needs a number from 1 to 1000", name);
        if (!strcmp(name, "--min-games"))
            a->collect.min_games = (int)n;
        else
            a->collect.max_ply = (int)n;
    } else if (!strcmp(name, "--win") || !strcmp(name, "--draw") || !strcmp(name, "--loss")) {
        if (!parse_count(v, 0, POINTS_MAX, &n)) return usage_error("%s needs a number from 0 to 1000", name);
        uint32_t *points = !strcmp(name, "--win") ? &a->collect.win : &a->collect.loss;
        if (!strcmp(name, "--draw")) points = &a->collect.draw;
        *points = (uint32_t)n;
    } else if (!strcmp(name, "--notation")) {
        if (!v || !notation_from_name(v, true, &a->notation)) return usage_error("--notation is auto, iccs, wxf or vn");
    } else if (!strcmp(name, "--side")) {
        if (!v || (strcmp(v, "both") && strcmp(v, "red") && strcmp(v, "black")))
            return usage_error("--side is both, red or black");
        a->collect.side[RED] = strcmp(v, "black") != 0;
        a->collect.side[BLACK] = strcmp(v, "red") != 0;
    } else {
        return usage_error("unknown option '%s'", name);
    }
    return 0;
}

static int parse_build(BuildArgs *a, int argc, char **argv) {
    static const CollectOptions Defaults = {1, DEFAULT_MAX_PLY, DEFAULT_WIN, DEFAULT_DRAW, DEFAULT_LOSS, {true, true}};
    *a = (BuildArgs){NULL, BOOK_FORMAT_TUONG, Defaults, NOTATION_AUTO, 0};
    int i = 2;
    while (i < argc && argv[i][0] == '-' && argv[i][1]) {
        int rc = build_option(a, argc, argv, &i);
        if (rc) return rc;
        i++;
    }
    if (!a->output) return usage_error("build needs -o BOOK");
    if (i == argc) return usage_error("build needs at least one PGN file");
    a->first_file = i;
    return 0;
}

typedef struct {
    long read, unfinished, bad;
} GameCounts;

/* Tally every game of one file; false if the file cannot be read. */
static bool read_pgn(Collector *c, const char *path, Notation notation, GameCounts *n) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fail(1, "cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    static PgnGame g;
    PgnReader r;
    bool ok = pgn_open(&r, f, path, c->opt.max_ply);
    r.notation = notation;
    while (ok && pgn_next(&r, &g)) {
        char err[200];
        n->read++;
        if (g.error[0]) {
            fail(1, "%s:%ld: game skipped: %s", path, g.line, g.error);
            n->bad++;
        } else if (g.result == RES_NONE) {
            n->unfinished++;
        } else if (!collect_game(c, g.fen, g.moves, g.ply_count, g.result, err, sizeof err)) {
            fail(1, "%s:%ld: game skipped: %s", path, g.line, err);
            n->bad++;
        }
    }
    pgn_close(&r);
    fclose(f);
    return ok;
}

static int cmd_build(int argc, char **argv) {
    BuildArgs a;
    int rc = parse_build(&a, argc, argv);
    if (rc) return rc;
    Collector c;
    if (!collect_init(&c, &a.collect)) return fail(1, "out of memory");
    GameCounts n = {0, 0, 0};
    bool files_ok = true;
    for (int i = a.first_file; i < argc; i++)
        files_ok &= read_pgn(&c, argv[i], a.notation, &n);
    BookEntry *entries;
    size_t positions, count = collect_finish(&c, &entries, &positions);
    char err[300];
    bool written = false;
    if (c.games == 0)
        fail(1, "no finished game with a result to build from; '%s' not written", a.output);
    else if (!(written = book_write(a.output, a.format, entries, count, err, sizeof err)))
        fail(1, "%s", err);
    if (written)
        printf("%s: %s, %zu moves in %zu positions from %ld games (%ld read, %ld unfinished, %ld skipped)\n", a.output,
               book_format_name(a.format), count, positions, c.games, n.read, n.unfinished, n.bad);
    collect_free(&c);
    return written && files_ok && !n.bad ? 0 : 1;
}

/* argv[i..]: startpos | FEN words, then optionally `moves m...`. */
static bool probe_position(Position *pos, int argc, char **argv, int i, char *err, size_t errlen) {
    char fen[512] = "";
    if (i < argc && !strcmp(argv[i], "startpos")) i++;
    for (; i < argc && strcmp(argv[i], "moves"); i++)
        if (strlen(fen) + strlen(argv[i]) + 2 < sizeof fen) strcat(strcat(fen, fen[0] ? " " : ""), argv[i]);
    if (!fen_parse(pos, fen[0] ? fen : START_FEN, err, errlen)) return false;
    for (i++; i < argc; i++) {
        Move m = move_parse_legal(pos, argv[i], 0, err, errlen);
        if (m == MOVE_NONE || pos_history_full(pos)) return false;
        pos_make_move(pos, m);
    }
    return true;
}

static int cmd_probe(int argc, char **argv) {
    if (argc < 3) return usage_error("probe needs a book file");
    char err[600];
    Book *b = book_open(argv[2], err, sizeof err);
    if (!b) return fail(1, "%s", err);
    static Position pos;
    static BookMoves moves;
    if (!probe_position(&pos, argc, argv, 3, err, sizeof err)) {
        book_close(b);
        return fail(2, "%s", err);
    }
    book_probe(b, &pos, &moves);
    printf("%s: %s, %zu entries; %d book moves here\n", argv[2], book_format_name(book_format(b)), book_entry_count(b),
           moves.count);
    for (int i = 0; i < moves.count; i++) {
        char text[MOVE_TEXT_MAX];
        const BookMove *m = &moves.moves[i];
        printf("%s weight %u", move_to_text(m->move, 0, text), m->weight);
        if (book_format(b) == BOOK_FORMAT_TUONG) printf(" wins %u draws %u losses %u", m->wins, m->draws, m->losses);
        printf("\n");
    }
    book_close(b);
    return 0;
}

int main(int argc, char **argv) {
    engine_init();
    if (argc < 2) return usage_error("no command");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(Usage, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "build")) return cmd_build(argc, argv);
    if (!strcmp(argv[1], "probe")) return cmd_probe(argc, argv);
    return usage_error("unknown command '%s'", argv[1]);
}
