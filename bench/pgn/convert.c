// SPDX-License-Identifier: GPL-3.0-or-later
#include "convert.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "pgn_read.h"

enum { LINE_WIDTH = 79 };

/* Movetext written in lines of at most LINE_WIDTH columns where it can be. */
typedef struct {
    FILE *out;
    int col;
} Lines;

/* One unit (a numbered move, a comment, a NAG, the result) of len bytes. */
static void put_unit(Lines *l, const char *text, int len) {
    if (!len) return;
    if (l->col && l->col + len + 1 > LINE_WIDTH) {
        fputc('\n', l->out);
        l->col = 0;
    } else if (l->col) {
        fputc(' ', l->out);
        l->col++;
    }
    fwrite(text, 1, (size_t)len, l->out);
    l->col += len;
}

/* Comments and NAGs kept by the reader (" {a} $1"): each one a unit. */
static void put_notes(Lines *l, const char *notes) {
    for (const char *p = notes; p && *p;) {
        p += strspn(p, " ");
        if (!*p) break;
        const char *end = *p == '{' ? strchr(p, '}') : p + strcspn(p, " ");
        end = end ? end + (*p == '{') : p + strlen(p);
        put_unit(l, p, (int)(end - p));
        p = end;
    }
}

/* The tag lines, with a Format tag naming the new notation. */
static void put_tags(FILE *out, const char *tags, Notation to) {
    for (const char *p = tags; p && *p;) {
        const char *end = strchr(p, '\n');
        int len = end ? (int)(end - p) : (int)strlen(p);
        const char *name = p + strspn(p, " \t[");
        if (!strncasecmp(name, "Format", 6) && (name[6] == ' ' || name[6] == '\t'))
            fprintf(out, "[Format \"%s\"]\n", notation_title(to));
        else
            fprintf(out, "%.*s\n", len, p);
        p += len + (end != NULL);
    }
    fputc('\n', out);
}

static bool put_game(const PgnReader *r, const PgnGame *g, Notation to, FILE *out, char *err, size_t errlen) {
    static Position pos;
    if (!fen_parse(&pos, g->fen[0] ? g->fen : START_FEN, err, errlen)) return false;
    put_tags(out, r->tags, to);
    Lines l = {out, 0};
    put_notes(&l, r->notes[0]);
    bool black = pos.side == BLACK;
    int fullmove = pos.root_fullmove;
    for (int i = 0; i < g->ply_count; i++) {
        char unit[48], text[NOTATION_TEXT_MAX];
        notation_move_text(to, &pos, g->moves[i], text);
        if (!black)
            snprintf(unit, sizeof unit, "%d. %s", fullmove, text);
        else if (i == 0)
            snprintf(unit, sizeof unit, "%d... %s", fullmove, text);
        else
            snprintf(unit, sizeof unit, "%s", text);
        put_unit(&l, unit, (int)strlen(unit));
        put_notes(&l, r->notes[i + 1]);
        pos_make_move(&pos, g->moves[i]);
        fullmove += black;
        black = !black;
    }
    const char *result = game_result_text(g->result);
    put_unit(&l, result, (int)strlen(result));
    fputs("\n\n", out);
    return true;
}

bool convert_pgn(FILE *in, const char *name, FILE *out, Conversion *c) {
    static PgnGame g;
    PgnReader r;
    if (!pgn_open(&r, in, name, PGN_PLY_MAX)) {
        snprintf(c->error, sizeof c->error, "%s: out of memory", name);
        return false;
    }
    r.notation = c->from;
    r.keep_text = true;
    bool ok = true;
    for (long game = 1; ok && pgn_next(&r, &g); game++) {
        char err[300] = "";
        if (g.error[0])
            snprintf(err, sizeof err, "%s", g.error);
        else if (g.truncated)
            snprintf(err, sizeof err, "more than %d plies", PGN_PLY_MAX);
        ok = !err[0] && put_game(&r, &g, c->to, out, err, sizeof err);
        if (!ok) snprintf(c->error, sizeof c->error, "%s: game %ld (line %ld): %s", name, game, g.line, err);
        c->games += ok;
    }
    c->dropped += r.dropped;
    pgn_close(&r);
    return ok;
}
