// SPDX-License-Identifier: GPL-3.0-or-later
#include "pgn_read.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn_decode.h"

/* Scanner state of one game's movetext, which may span lines. */
typedef struct {
    int brace;     /* inside a {comment} */
    int variation; /* depth of (variations) */
    bool started;  /* a movetext token has been seen */
    bool over;     /* the result token has been seen */
} Scan;

bool pgn_open(PgnReader *r, FILE *f, const char *name, int ply_limit) {
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name;
    r->ply_limit = ply_limit < PGN_PLY_MAX ? ply_limit : PGN_PLY_MAX;
    r->notation = NOTATION_AUTO;
    r->tokens = malloc(sizeof *r->tokens * PGN_PLY_MAX);
    return r->tokens != NULL;
}

static void free_text(PgnReader *r) {
    free(r->tags);
    r->tags = NULL;
    for (int i = 0; i <= PGN_PLY_MAX; i++) {
        free(r->notes[i]);
        r->notes[i] = NULL;
    }
}

void pgn_close(PgnReader *r) {
    free_text(r);
    free(r->buf);
    free(r->tokens);
    r->buf = NULL;
    r->tokens = NULL;
}

/* Append n bytes of add to the string *s (NULL: empty); false when out of memory. */
static bool append(char **s, const char *add, size_t n) {
    size_t len = *s ? strlen(*s) : 0;
    char *grown = realloc(*s, len + n + 1);
    if (!grown) return false;
    memcpy(grown + len, add, n);
    grown[len + n] = '\0';
    *s = grown;
    return true;
}

/* Keep text (a comment's characters, a NAG) after the moves read so far. */
static void note(PgnReader *r, PgnGame *g, const char *add, size_t n) {
    if (r->keep_text && !append(&r->notes[r->token_count], add, n))
        snprintf(g->error, sizeof g->error, "out of memory");
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

/* [Name "value"]: keep FEN and Result (and the line for a converter). */
static void read_tag(PgnReader *r, const char *line, PgnGame *g) {
    char name[32], value[FEN_MAX * 2];
    if (r->keep_text && (!append(&r->tags, line, strlen(line)) || !append(&r->tags, "\n", 1)))
        snprintf(g->error, sizeof g->error, "out of memory");
    if (sscanf(line, " [%31s \"%255[^\"]\"", name, value) != 2) return;
    if (!strcasecmp(name, "FEN")) snprintf(g->fen, sizeof g->fen, "%s", value);
    if (!strcasecmp(name, "Result")) g->result = result_of(value);
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
    if (s->over || g->error[0]) return;
    s->started = true;
    if (tok[0] == '$') {
        note(r, g, " ", 1);
        note(r, g, tok, strlen(tok));
        return;
    }
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
    if (r->token_count >= r->ply_limit) { /* past the book's depth: unread */
        g->truncated = true;
        return;
    }
    snprintf(r->tokens[r->token_count++], PGN_TOKEN_MAX, "%s", tok);
}

/* Feed one movetext line through the scanner. */
static void movetext(PgnReader *r, PgnGame *g, Scan *s, const char *line) {
    char tok[PGN_TOKEN_MAX];
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
        } else if (n < PGN_TOKEN_MAX - 1) {
            tok[n++] = c;
        }
        bool kept = s->brace && !s->variation && !s->over; /* a comment's character, kept for a converter */
        if (kept && c && c != '{' && c != '}') note(r, g, c == '\t' ? " " : p, 1);
        if (kept && !c) note(r, g, " ", 1); /* the comment goes on on the next line */
        if (!c || (c == ';' && !s->brace)) {
            r->dropped += c == ';' && !s->over && p[1 + strspn(p + 1, " \t")];
            break;
        }
        if (c == '{') {
            if (!s->brace && !s->variation && !s->over) note(r, g, " {", 2);
            s->brace = 1;
        } else if (c == '}' && s->brace) {
            s->brace = 0;
            if (!s->variation && !s->over) note(r, g, "}", 1);
        } else if (c == '(' && !s->brace) {
            r->dropped += !s->variation++;
        } else if (c == ')' && !s->brace && s->variation) {
            s->variation--;
        }
    }
}

static bool is_tag(const char *line) {
    line += strspn(line, " \t");
    return line[0] == '[';
}

/* The moves from the tokens, once the game's text is read. */
static void decode(PgnReader *r, PgnGame *g) {
    const char *tokens[PGN_PLY_MAX];
    for (int i = 0; i < r->token_count; i++)
        tokens[i] = r->tokens[i];
    PgnDecoded d;
    if (!pgn_decode(g->fen, tokens, r->token_count, r->notation, g->moves, &d))
        snprintf(g->error, sizeof g->error, "%s", d.error);
    g->ply_count = d.ply_count;
    g->notation = d.notation;
}

bool pgn_next(PgnReader *r, PgnGame *g) {
    memset(g, 0, offsetof(PgnGame, moves));
    g->error[0] = '\0';
    g->truncated = false;
    r->token_count = 0;
    free_text(r);
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
            read_tag(r, r->buf, g);
        else if (r->buf[0] != '%')
            movetext(r, g, &s, r->buf);
    }
    if (any && !g->error[0]) decode(r, g);
    return any;
}
