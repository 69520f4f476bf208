// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation.h"

/* A token is a span of the line; lines may be far longer than any buffer. */
typedef struct {
    const char *p;
    size_t len;
} Token;

typedef struct {
    const char *cur;
} Lexer;

static bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* Next token, or false at the end of the line. */
static bool lex_next(Lexer *lx, Token *t) {
    while (*lx->cur && is_sep(*lx->cur))
        lx->cur++;
    if (!*lx->cur) return false;
    t->p = lx->cur;
    while (*lx->cur && !is_sep(*lx->cur))
        lx->cur++;
    t->len = (size_t)(lx->cur - t->p);
    return true;
}

static bool lex_peek(const Lexer *lx, Token *t) {
    Lexer copy = *lx;
    return lex_next(&copy, t);
}

static bool tok_is(Token t, const char *word) { return strlen(word) == t.len && !strncasecmp(t.p, word, t.len); }

/* Copy a token for messages, cut short and cleaned of control bytes. */
static const char *tok_show(Token t, char *buf, size_t buflen) {
    size_t n = t.len < buflen - 1 ? t.len : buflen - 1;
    if (t.len > 24 && buflen > 28) n = 24;
    for (size_t i = 0; i < n; i++)
        buf[i] = isprint((unsigned char)t.p[i]) ? t.p[i] : '?';
    buf[n] = '\0';
    if (n < t.len && n + 3 < buflen) strcat(buf, "...");
    return buf;
}

static ParseResult failf(char *err, size_t errlen, ParseResult r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return r;
}

/* Parse a token as a move in rank_base notation (syntax only). */
static Move tok_move(Token t, int rank_base) {
    char buf[MOVE_TEXT_MAX];
    if (t.len >= sizeof buf || t.len < 4) return MOVE_NONE;
    memcpy(buf, t.p, t.len);
    buf[t.len] = '\0';
    for (size_t i = 0; i < t.len; i++)
        buf[i] = (char)tolower((unsigned char)buf[i]);
    return move_from_text(buf, rank_base);
}

/* Parse a whole integer token in [lo, hi]. */
static bool tok_int(Token t, int64_t lo, int64_t hi, int64_t *out) {
    char buf[32];
    if (t.len == 0 || t.len >= sizeof buf) return false;
    memcpy(buf, t.p, t.len);
    buf[t.len] = '\0';
    char *end;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (*end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* Parse a decimal number (UCCI times may be written with a fraction). */
static bool tok_number(Token t, double *out) {
    char buf[32];
    if (t.len == 0 || t.len >= sizeof buf) return false;
    memcpy(buf, t.p, t.len);
    buf[t.len] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (*end || !isfinite(v) || v > 1e12 || v < -1e12) return false;
    *out = v;
    return true;
}

/* position / probe: {startpos | fen <FEN>} [moves m1 m2 ...] */
static ParseResult parse_position(Lexer *lx, int rank_base, PositionSpec *ps, const char *what, char *err,
                                  size_t errlen) {
    char show[40];
    Token t;
    ps->startpos = false;
    ps->fen[0] = '\0';
    ps->move_count = 0;
    if (!lex_next(lx, &t)) return failf(err, errlen, PARSE_ERROR, "%s needs startpos or fen", what);
    if (tok_is(t, "startpos")) {
        ps->startpos = true;
    } else if (tok_is(t, "fen")) {
        size_t used = 0;
        while (lex_peek(lx, &t) && !tok_is(t, "moves")) {
            lex_next(lx, &t);
            if (used + t.len + 2 > sizeof ps->fen) return failf(err, errlen, PARSE_ERROR, "%s: FEN too long", what);
            if (used) ps->fen[used++] = ' ';
            memcpy(ps->fen + used, t.p, t.len);
            used += t.len;
            ps->fen[used] = '\0';
        }
        if (!used) return failf(err, errlen, PARSE_ERROR, "%s fen: the FEN is missing", what);
    } else {
        return failf(err, errlen, PARSE_ERROR, "%s: expected startpos or fen, got '%s'", what,
                     tok_show(t, show, sizeof show));
    }
    if (!lex_next(lx, &t)) return PARSE_OK;
    if (!tok_is(t, "moves"))
        return failf(err, errlen, PARSE_ERROR, "%s: expected moves, got '%s'", what, tok_show(t, show, sizeof show));
    while (lex_next(lx, &t)) {
        Move m = tok_move(t, rank_base);
        if (m == MOVE_NONE)
            return failf(err, errlen, PARSE_ERROR, "%s: malformed move '%s' (move %d); command ignored", what,
                         tok_show(t, show, sizeof show), ps->move_count + 1);
        if (ps->move_count >= PROTO_MAX_MOVES)
            return failf(err, errlen, PARSE_ERROR, "%s: more than %d moves; command ignored", what, PROTO_MAX_MOVES);
        ps->moves[ps->move_count++] = m;
    }
    return PARSE_OK;
}

/* setoption name <words> [value <words>]  or  setoption <name> [<value>] */
static ParseResult parse_setoption(Lexer *lx, Command *cmd, char *err, size_t errlen) {
    Token t;
    char *name = cmd->u.option.name, *value = cmd->u.option.value;
    name[0] = value[0] = '\0';
    cmd->u.option.has_value = false;
    if (!lex_next(lx, &t)) return failf(err, errlen, PARSE_ERROR, "setoption needs an option name");
    bool uci_form = tok_is(t, "name");
    if (uci_form && !lex_next(lx, &t)) return failf(err, errlen, PARSE_ERROR, "setoption name: the name is missing");
    size_t used = 0;
    for (;;) {
        if (used + t.len + 2 > PROTO_NAME_MAX)
            return failf(err, errlen, PARSE_ERROR, "setoption: option name too long");
        if (used) name[used++] = ' ';
        memcpy(name + used, t.p, t.len);
        used += t.len;
        name[used] = '\0';
        if (!uci_form || !lex_next(lx, &t)) break;
        if (tok_is(t, "value")) {
            cmd->u.option.has_value = true;
            break;
        }
    }
    /* The value is the rest of the line with its outer spaces trimmed. */
    const char *rest = lx->cur;
    while (*rest && is_sep(*rest))
        rest++;
    size_t len = strlen(rest);
    while (len && is_sep(rest[len - 1]))
        len--;
    if (len >= PROTO_VALUE_MAX) return failf(err, errlen, PARSE_ERROR, "setoption %s: value too long", name);
    memcpy(value, rest, len);
    value[len] = '\0';
    if (len) cmd->u.option.has_value = true;
    return PARSE_OK;
}

/* Keywords of go that take one integer (milliseconds, counts, depths). */
typedef enum {
    GO_DEPTH,
    GO_NODES,
    GO_MATE,
    GO_MOVESTOGO,
    GO_OPPMOVESTOGO,
    GO_WTIME,
    GO_BTIME,
    GO_WINC,
    GO_BINC,
    GO_MOVETIME
} GoInt;
static const struct {
    const char *word;
    GoInt field;
    int64_t lo, hi;
} GoInts[] = {
    {"depth", GO_DEPTH, 0, 1000},
    {"nodes", GO_NODES, 0, INT64_MAX},
    {"mate", GO_MATE, 0, 1000},
    {"movestogo", GO_MOVESTOGO, 0, 100000},
    {"oppmovestogo", GO_OPPMOVESTOGO, 0, 100000},
    {"wtime", GO_WTIME, INT64_MIN / 4, INT64_MAX / 4},
    {"btime", GO_BTIME, INT64_MIN / 4, INT64_MAX / 4},
    {"winc", GO_WINC, INT64_MIN / 4, INT64_MAX / 4},
    {"binc", GO_BINC, INT64_MIN / 4, INT64_MAX / 4},
    {"movetime", GO_MOVETIME, INT64_MIN / 4, INT64_MAX / 4},
};

static void go_set_int(GoSpec *g, GoInt f, int64_t v) {
    switch (f) {
    case GO_DEPTH: g->depth = (int)v; break;
    case GO_NODES: g->nodes = (uint64_t)v; break;
    case GO_MATE: g->mate = (int)v; break;
    case GO_MOVESTOGO: g->movestogo = (int)v; break;
    case GO_OPPMOVESTOGO: g->oppmovestogo = (int)v; break;
    case GO_WTIME: g->wtime = v; break;
    case GO_BTIME: g->btime = v; break;
    case GO_WINC: g->winc = v; break;
    case GO_BINC: g->binc = v; break;
    case GO_MOVETIME: g->movetime = v; break;
    }
}

static double *go_time_field(GoSpec *g, Token t) {
    if (tok_is(t, "time")) return &g->time;
    if (tok_is(t, "increment")) return &g->increment;
    if (tok_is(t, "opptime")) return &g->opptime;
    if (tok_is(t, "oppincrement")) return &g->oppincrement;
    return NULL;
}

/* Remember the first thing go had to ignore. */
static void go_warn(ParseResult *r, char *err, size_t errlen, const char *fmt, const char *what) {
    if (*r == PARSE_WARNING) return;
    *r = PARSE_WARNING;
    snprintf(err, errlen, fmt, what);
}

static ParseResult parse_go(Lexer *lx, int rank_base, Command *cmd, char *err, size_t errlen) {
    GoSpec *g = &cmd->u.go;
    memset(g, 0, offsetof(GoSpec, searchmoves));
    g->depth = -1;
    g->time = g->increment = g->opptime = g->oppincrement = -1;
    g->wtime = g->btime = g->winc = g->binc = g->movetime = -1;
    ParseResult r = PARSE_OK;
    char show[40];
    Token t, v;
    while (lex_next(lx, &t)) {
        if (tok_is(t, "perft")) {
            int64_t d;
            if (!lex_next(lx, &v) || !tok_int(v, 0, 64, &d))
                return failf(err, errlen, PARSE_ERROR, "go perft needs a depth from 0 to 64");
            cmd->type = CMD_PERFT;
            cmd->u.depth = (int)d;
            return PARSE_OK;
        }
        if (tok_is(t, "ponder"))
            g->ponder = true;
        else if (tok_is(t, "draw"))
            g->draw = true;
        else if (tok_is(t, "infinite"))
            g->infinite = true;
        else if (tok_is(t, "searchmoves")) {
            while (lex_peek(lx, &v)) {
                Move m = tok_move(v, rank_base);
                if (m == MOVE_NONE) break;
                lex_next(lx, &v);
                if (g->searchmove_count < MAX_MOVES) g->searchmoves[g->searchmove_count++] = m;
            }
        } else {
            double *timef = go_time_field(g, t);
            int which = -1;
            for (size_t i = 0; i < sizeof GoInts / sizeof GoInts[0] && !timef; i++)
                if (tok_is(t, GoInts[i].word)) which = (int)i;
            if (!timef && which < 0) {
                go_warn(&r, err, errlen, "go: ignored unknown word '%s'", tok_show(t, show, sizeof show));
                continue;
            }
            if (!lex_peek(lx, &v)) {
                go_warn(&r, err, errlen, "go: '%s' needs a value", tok_show(t, show, sizeof show));
                continue;
            }
            double d;
            int64_t n;
            /* A clock given negative (flagged, or GUI lag) counts as 0: stored
             * as written it would read as "not given" and the search as
             * unlimited. */
            if (timef && tok_number(v, &d))
                *timef = d < 0 ? 0 : d;
            else if (!timef && tok_int(v, GoInts[which].lo, GoInts[which].hi, &n))
                go_set_int(g, GoInts[which].field, GoInts[which].lo < 0 && n < 0 ? 0 : n);
            else {
                go_warn(&r, err, errlen, "go: ignored '%s' with a bad value", tok_show(t, show, sizeof show));
                continue; /* leave the bad value to be read (and reported) as a word */
            }
            lex_next(lx, &v);
        }
    }
    return r;
}

static ParseResult parse_banmoves(Lexer *lx, int rank_base, Command *cmd, char *err, size_t errlen) {
    char show[40];
    Token t;
    cmd->u.banmoves.count = 0;
    while (lex_next(lx, &t)) {
        Move m = tok_move(t, rank_base);
        if (m == MOVE_NONE)
            return failf(err, errlen, PARSE_ERROR, "banmoves: malformed move '%s'; command ignored",
                         tok_show(t, show, sizeof show));
        if (cmd->u.banmoves.count >= MAX_MOVES)
            return failf(err, errlen, PARSE_ERROR, "banmoves: more than %d moves; command ignored", MAX_MOVES);
        cmd->u.banmoves.moves[cmd->u.banmoves.count++] = m;
    }
    return PARSE_OK;
}

/* An optional depth argument: perft N (required), bench [N]. */
static ParseResult parse_depth_arg(Lexer *lx, Command *cmd, bool required, char *err, size_t errlen) {
    Token t;
    int64_t d = 0;
    cmd->u.depth = 0;
    if (!lex_next(lx, &t)) {
        if (required) return failf(err, errlen, PARSE_ERROR, "perft needs a depth from 0 to 64");
        return PARSE_OK;
    }
    if (!tok_int(t, required ? 0 : 1, 64, &d))
        return failf(err, errlen, PARSE_ERROR, "%s needs a depth from %d to 64", required ? "perft" : "bench",
                     required ? 0 : 1);
    cmd->u.depth = (int)d;
    return PARSE_OK;
}

/* Commands that take no argument (extra words are ignored). */
static const struct {
    const char *word;
    CommandType type;
} Simple[] = {
    {"ucci", CMD_UCCI},          {"uci", CMD_UCI},   {"isready", CMD_ISREADY}, {"stop", CMD_STOP}, {"quit", CMD_QUIT},
    {"ucinewgame", CMD_NEWGAME}, {"d", CMD_DISPLAY}, {"help", CMD_HELP},
};

ParseResult proto_parse(const char *line, int rank_base, Command *cmd, char *err, size_t errlen) {
    Lexer lx = {line};
    Token t;
    err[0] = '\0';
    if (!lex_next(&lx, &t)) {
        cmd->type = CMD_EMPTY;
        return PARSE_OK;
    }
    for (size_t i = 0; i < sizeof Simple / sizeof Simple[0]; i++)
        if (tok_is(t, Simple[i].word)) {
            cmd->type = Simple[i].type;
            return PARSE_OK;
        }
    if (tok_is(t, "eval")) {
        Token v;
        cmd->type = CMD_EVAL;
        cmd->u.eval_classical = false;
        if (!lex_next(&lx, &v)) return PARSE_OK;
        if (tok_is(v, "classical")) {
            cmd->u.eval_classical = true;
            return PARSE_OK;
        }
        char show[40];
        return failf(err, errlen, PARSE_WARNING, "eval: unknown argument '%s' ignored (eval [classical])",
                     tok_show(v, show, sizeof show));
    }
    if (tok_is(t, "ponderhit")) {
        Token v;
        cmd->type = CMD_PONDERHIT;
        cmd->u.draw = lex_next(&lx, &v) && tok_is(v, "draw");
        return PARSE_OK;
    }
    if (tok_is(t, "position")) {
        cmd->type = CMD_POSITION;
        return parse_position(&lx, rank_base, &cmd->u.position, "position", err, errlen);
    }
    if (tok_is(t, "probe")) {
        cmd->type = CMD_PROBE;
        return parse_position(&lx, rank_base, &cmd->u.position, "probe", err, errlen);
    }
    if (tok_is(t, "setoption")) {
        cmd->type = CMD_SETOPTION;
        return parse_setoption(&lx, cmd, err, errlen);
    }
    if (tok_is(t, "go")) {
        cmd->type = CMD_GO;
        return parse_go(&lx, rank_base, cmd, err, errlen);
    }
    if (tok_is(t, "banmoves")) {
        cmd->type = CMD_BANMOVES;
        return parse_banmoves(&lx, rank_base, cmd, err, errlen);
    }
    if (tok_is(t, "perft")) {
        cmd->type = CMD_PERFT;
        return parse_depth_arg(&lx, cmd, true, err, errlen);
    }
    if (tok_is(t, "bench")) {
        cmd->type = CMD_BENCH;
        return parse_depth_arg(&lx, cmd, false, err, errlen);
    }
    char show[40];
    cmd->type = CMD_UNKNOWN;
    return failf(err, errlen, PARSE_ERROR, "unknown command '%s' (try help)", tok_show(t, show, sizeof show));
}
