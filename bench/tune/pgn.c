// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-tune pgn2fen`: PGN games (from tuong-match or selfplay) to
 * labelled positions, `<FEN> | <result>` per line. Moves are ICCS
 * (`h2e2`, also `H2-E2`); with --rank-base 1 the Fairy-Stockfish UCI ranks
 * 1..10. Games without a decisive or drawn result (`*`) are skipped. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "tune.h"

typedef struct {
    int skip, every, rank_base;
    bool keep_checks;
    FILE *out;
    long games, positions, rejected;
} ConvertOptions;

typedef struct {
    char fen[FEN_MAX * 2];
    char result[16];
    char *moves; /* movetext, owned */
    size_t len, cap;
} PgnGame;

static void append(PgnGame *g, const char *s) {
    size_t n = strlen(s);
    if (g->len + n + 2 > g->cap) {
        g->cap = (g->len + n + 2) * 2;
        g->moves = realloc(g->moves, g->cap);
    }
    memcpy(g->moves + g->len, s, n);
    g->len += n;
    g->moves[g->len++] = ' ';
    g->moves[g->len] = 0;
}

static void tag_value(const char *line, char *out, size_t outlen) {
    const char *q = strchr(line, '"');
    out[0] = 0;
    if (!q) return;
    const char *e = strchr(q + 1, '"');
    size_t n = e ? (size_t)(e - q - 1) : strlen(q + 1);
    if (n >= outlen) n = outlen - 1;
    memcpy(out, q + 1, n);
    out[n] = 0;
}

/* Strip comments {..}, ;.. and variations (..) in place. */
static void strip_annotations(char *s) {
    int depth = 0;
    bool brace = false;
    for (char *p = s; *p; p++) {
        if (brace) {
            if (*p == '}') brace = false;
            *p = ' ';
        } else if (*p == '{') brace = true, *p = ' ';
        else if (*p == '(') depth++, *p = ' ';
        else if (*p == ')' && depth) depth--, *p = ' ';
        else if (depth) *p = ' ';
    }
}

static const char *label_of(const char *result) {
    if (!strcmp(result, "1-0")) return "1-0";
    if (!strcmp(result, "0-1")) return "0-1";
    if (!strcmp(result, "1/2-1/2")) return "1/2-1/2";
    return NULL;
}

static void convert_game(PgnGame *g, ConvertOptions *o) {
    static Position pos;
    const char *label = label_of(g->result);
    char err[200];
    if (!label) return;
    if (!fen_parse(&pos, g->fen[0] ? g->fen : START_FEN, err, sizeof err)) {
        fprintf(stderr, "pgn2fen: bad FEN %s: %s\n", g->fen, err);
        o->rejected++;
        return;
    }
    o->games++;
    strip_annotations(g->moves);
    int ply = 0;
    for (char *tok = strtok(g->moves, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (isdigit((unsigned char)tok[0]) && strchr(tok, '.')) {
            char *after = strrchr(tok, '.') + 1; /* "12.h2e2" */
            if (!*after) continue;
            tok = after;
        }
        if (tok[0] == '$' || label_of(tok) || !strcmp(tok, "*")) continue;
        char text[16];
        size_t n = 0;
        for (const char *p = tok; *p && n < sizeof text - 1; p++)
            if (*p != '-') text[n++] = (char)tolower((unsigned char)*p);
        text[n] = 0;
        if (ply >= o->skip && ply % o->every == 0 && (o->keep_checks || !pos_in_check(&pos))) {
            char fen[FEN_MAX];
            fprintf(o->out, "%s | %s\n", fen_write(&pos, fen), label);
            o->positions++;
        }
        Move m = move_parse_legal(&pos, text, o->rank_base, err, sizeof err);
        if (m == MOVE_NONE || pos_history_full(&pos)) {
            fprintf(stderr, "pgn2fen: game %ld: stopping at `%s`: %s\n", o->games, tok, err);
            o->rejected++;
            return;
        }
        pos_make_move(&pos, m);
        ply++;
    }
}

static void convert_file(FILE *in, ConvertOptions *o) {
    PgnGame g = {0};
    char line[4096];
    bool in_moves = false;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '[') {
            if (in_moves) {
                convert_game(&g, o);
                g.fen[0] = g.result[0] = 0;
                g.len = 0;
                if (g.moves) g.moves[0] = 0;
                in_moves = false;
            }
            if (!strncmp(line, "[FEN ", 5)) tag_value(line, g.fen, sizeof g.fen);
            else if (!strncmp(line, "[Result ", 8)) tag_value(line, g.result, sizeof g.result);
        } else if (line[0] != '%') {
            line[strcspn(line, "\r\n")] = 0;
            if (line[0]) in_moves = true, append(&g, line);
        }
    }
    if (in_moves) convert_game(&g, o);
    free(g.moves);
}

int cmd_pgn2fen(int argc, char **argv) {
    ConvertOptions o = {.skip = 8, .every = 1, .rank_base = 0, .out = stdout};
    int files = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--keep-checks")) {
            o.keep_checks = true;
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            if (!v) return fprintf(stderr, "pgn2fen: %s needs a value\n", a), 2;
            if (!strcmp(a, "--skip")) o.skip = atoi(v);
            else if (!strcmp(a, "--every")) o.every = atoi(v) > 0 ? atoi(v) : 1;
            else if (!strcmp(a, "--rank-base")) o.rank_base = atoi(v);
            else if (!strcmp(a, "--out")) {
                if (!(o.out = fopen(v, "w"))) return fprintf(stderr, "pgn2fen: cannot write %s\n", v), 1;
            } else return fprintf(stderr, "pgn2fen: unknown option %s\n", a), 2;
            continue;
        }
        FILE *in = strcmp(a, "-") ? fopen(a, "r") : stdin;
        if (!in) return fprintf(stderr, "pgn2fen: cannot read %s\n", a), 1;
        convert_file(in, &o);
        if (in != stdin) fclose(in);
        files++;
    }
    if (!files) convert_file(stdin, &o);
    if (o.out != stdout) fclose(o.out);
    fprintf(stderr, "pgn2fen: %ld games, %ld positions, %ld games cut short\n", o.games, o.positions, o.rejected);
    return 0;
}
