// SPDX-License-Identifier: GPL-3.0-or-later
#include "pgn_read.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "pgn.h"

enum { TOKEN_MAX = 64 };

/* Scanner state of one game's movetext, which may span lines. */
typedef struct {
    int brace;      /* inside a {comment} */
    int variation;  /* depth of (variations) */
    bool started;   /* a movetext token has been seen */
    bool over;      /* the result token has been seen */
    bool pos_ready; /* r->pos holds the game so far */
} Scan;

bool pgn_open(PgnReader *r, FILE *f, const char *name, int ply_limit) {
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name;
    r->ply_limit = ply_limit < PGN_PLY_MAX ? ply_limit : PGN_PLY_MAX;
    r->pos = malloc(sizeof *r->pos);
    return r->pos != NULL;
}

void pgn_close(PgnReader *r) {
    free(r->buf);
    free(r->pos);
    r->buf = NULL;
    r->pos = NULL;
}

static bool next_line(PgnReader *r) {
    if (r->pending) {
        r->pending = false;
        return true;
    }
    ssize_t n = getline(&r->buf, &r->cap, r->f);
    if (n < 0) return false;
    r->line++;
    while (n && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r'))
        r->buf[--n] = '\0';
    return true;
}

static GameResult result_of(const char *s) {
    if (!strcmp(s, "1-0")) return RES_RED_WINS;
    if (!strcmp(s, "0-1")) return RES_BLACK_WINS;
    if (!strcmp(s, "1/2-1/2")) return RES_DRAW;
    return RES_NONE;
}

static bool is_result(const char *s) { return result_of(s) != RES_NONE || !strcmp(s, "*"); }

/* [Name "value"]: keep FEN and Result. */
static void read_tag(const char *line, PgnGame *g) {
    char name[32], value[FEN_MAX * 2];
    if (sscanf(line, " [%31s \"%255[^\"]\"", name, value) != 2) return;
    if (!strcasecmp(name, "FEN")) snprintf(g->fen, sizeof g->fen, "%s", value);
    if (!strcasecmp(name, "Result")) g->result = result_of(value);
}

/* "h2e2", "H2-E2", "h2-e2": ICCS; MOVE_NONE for anything else. */
static Move iccs_move(const char *tok) {
    char t[8];
    size_t n = strlen(tok);
    if (n == 5 && tok[2] == '-') {
        memcpy(t, tok, 2);
        memcpy(t + 2, tok + 3, 3);
    } else if (n == 4) {
        memcpy(t, tok, 5);
    } else {
        return MOVE_NONE;
    }
    for (int i = 0; i < 4; i++)
        t[i] = (char)tolower((unsigned char)t[i]);
    return move_from_text(t, 0);
}

/* WXF as tuong-match writes it (pgn_wxf_move), also with B/N for
 * elephant/horse, '=' for '.', or the +/- of tandem pieces in front. */
static Move wxf_move(const Position *pos, const char *tok) {
    char t[TOKEN_MAX], text[16];
    snprintf(t, sizeof t, "%s", tok);
    if ((t[0] == '+' || t[0] == '-') && isalpha((unsigned char)t[1])) {
        char c = t[0];
        t[0] = t[1];
        t[1] = c;
    }
    for (char *p = t; *p; p++)
        *p = *p == '=' ? '.' : (char)toupper((unsigned char)*p);
    t[0] = t[0] == 'B' ? 'E' : t[0] == 'N' ? 'H' : t[0];
    MoveList legal;
    gen_legal(pos, &legal);
    for (int i = 0; i < legal.count; i++)
        if (!strcmp(pgn_wxf_move(pos, legal.moves[i], text), t)) return legal.moves[i];
    return MOVE_NONE;
}

static bool set_up(PgnReader *r, PgnGame *g, Scan *s) {
    char err[200];
    if (!fen_parse(r->pos, g->fen[0] ? g->fen : START_FEN, err, sizeof err)) {
        snprintf(g->error, sizeof g->error, "bad FEN tag: %s", err);
        return false;
    }
    s->pos_ready = true;
    return true;
}

static void play(PgnReader *r, PgnGame *g, const char *tok) {
    Move m = iccs_move(tok);
    if (m == MOVE_NONE) m = wxf_move(r->pos, tok);
    if (m == MOVE_NONE || !move_is_legal(r->pos, m)) {
        bool ascii = true;
        for (const char *p = tok; *p; p++)
            ascii &= (unsigned char)*p < 0x80;
        if (ascii)
            snprintf(g->error, sizeof g->error, "ply %d: '%.20s' is not a legal move in ICCS or WXF", g->ply_count + 1,
                     tok);
        else
            snprintf(g->error, sizeof g->error, "ply %d: a move in Chinese or another notation that is not read",
                     g->ply_count + 1);
        return;
    }
    g->moves[g->ply_count++] = m;
    pos_make_move(r->pos, m);
}

/* Skip "12." / "12..." in front of a move. */
static const char *skip_number(const char *t) {
    const char *p = t;
    while (isdigit((unsigned char)*p))
        p++;
    if (p == t || *p != '.') return t;
    while (*p == '.')
        p++;
    return p;
}

static void token(PgnReader *r, PgnGame *g, Scan *s, char *tok) {
    if (s->over || g->error[0] || tok[0] == '$') return;
    s->started = true;
    if (is_result(tok)) {
        if (g->result == RES_NONE) g->result = result_of(tok);
        s->over = true;
        return;
    }
    tok = (char *)skip_number(tok);
    size_t n = strlen(tok);
    while (n && strchr("!?+#", tok[n - 1]))
        tok[--n] = '\0';
    if (!n) return;
    if (g->ply_count >= r->ply_limit) return; /* past the book's depth: unread */
    if (!s->pos_ready && !set_up(r, g, s)) return;
    play(r, g, tok);
}

/* Feed one movetext line through the scanner. */
static void movetext(PgnReader *r, PgnGame *g, Scan *s, const char *line) {
    char tok[TOKEN_MAX];
    size_t n = 0;
    for (const char *p = line;; p++) {
        char c = *p;
        bool ends = !c || isspace((unsigned char)c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';';
        if (ends || s->brace || s->variation) {
            if (n && !s->brace && !s->variation) {
                tok[n] = '\0';
                token(r, g, s, tok);
            }
            n = 0;
        } else if (n < TOKEN_MAX - 1) {
            tok[n++] = c;
        }
        if (!c || (c == ';' && !s->brace)) break;
        if (c == '{')
            s->brace = 1;
        else if (c == '}')
            s->brace = 0;
        else if (c == '(' && !s->brace)
            s->variation++;
        else if (c == ')' && !s->brace && s->variation)
            s->variation--;
    }
}

static bool is_tag(const char *line) {
    line += strspn(line, " \t");
    return line[0] == '[';
}

bool pgn_next(PgnReader *r, PgnGame *g) {
    memset(g, 0, offsetof(PgnGame, moves));
    g->error[0] = '\0';
    Scan s = {0};
    bool any = false;
    while (next_line(r)) {
        bool tag = is_tag(r->buf) && !s.brace;
        if (tag && s.started) {
            r->pending = true; /* the next game begins */
            break;
        }
        if (!any && r->buf[strspn(r->buf, " \t")]) {
            any = true;
            g->line = r->line;
        }
        if (tag)
            read_tag(r->buf, g);
        else if (r->buf[0] != '%')
            movetext(r, g, &s, r->buf);
    }
    return any;
}
