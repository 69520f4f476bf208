// SPDX-License-Identifier: GPL-3.0-or-later
#include "notation_vn.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

enum { VN_INPUT_MAX = 24 };

/* Move text taken apart: piece, origin (qualifier and up to two digits),
 * direction and destination. */
typedef struct {
    PieceType type;
    char qual; /* 0, 't', 's' or 'g' */
    int digits[2];
    int ndigits;
    char op; /* '.', '/' or '-' */
    int dest;
} VnText;

/* Where a piece stands among the pieces of its kind on its file. */
typedef struct {
    int file; /* 1..9 from the owner's right */
    int n;    /* pieces of the kind on that file, this one included */
    int idx;  /* how many of them stand in front of it */
} Origin;

static const char *const Letters[TYPE_NB] = {"?", "Tg", "S", "T", "M", "X", "P", "B"};
static const char *const Names[TYPE_NB] = {"?", "king", "advisor", "elephant", "horse", "chariot", "cannon", "pawn"};

static int own_file(Color c, Square s) { return c == RED ? 9 - file_of(s) : file_of(s) + 1; }

static Origin origin_of(const Position *pos, Square from) {
    Piece p = pos->board[from];
    Color c = color_of(p);
    Origin o = {own_file(c, from), 0, 0};
    for (int r = 0; r < RANK_NB; r++) {
        Square s = make_square(file_of(from), r);
        if (pos->board[s] != p) continue;
        o.n++;
        if (relative_rank(c, s) > relative_rank(c, from)) o.idx++;
    }
    return o;
}

/* Does another file than from's hold two or more pieces like the one on from? */
static bool other_tandem(const Position *pos, Square from) {
    Piece p = pos->board[from];
    for (int f = 0; f < FILE_NB; f++) {
        int n = 0;
        for (int r = 0; r < RANK_NB && f != file_of(from); r++)
            n += pos->board[make_square(f, r)] == p;
        if (n >= 2) return true;
    }
    return false;
}

static char direction(Color c, Square from, Square to) {
    int forward = relative_rank(c, to) - relative_rank(c, from);
    return forward > 0 ? '.' : forward < 0 ? '/' : '-';
}

/* Steps for a straight mover going forward or back, else the file reached. */
static int destination(PieceType t, Color c, Square from, Square to) {
    bool straight = t == KING || t == ROOK || t == CANNON || t == PAWN;
    int forward = relative_rank(c, to) - relative_rank(c, from);
    return straight && forward ? abs(forward) : own_file(c, to);
}

char *vn_move_text(const Position *pos, Move m, char *buf) {
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from];
    Color c = color_of(p);
    PieceType t = type_of(p);
    Origin o = origin_of(pos, from);
    char origin[4];
    if (o.n < 2) {
        snprintf(origin, sizeof origin, "%d", o.file);
    } else {
        char q = o.idx == 0 ? 't' : o.idx == o.n - 1 ? 's' : 'g';
        if (q == 'g' && o.n > 3)
            snprintf(origin, sizeof origin, "g%d", o.idx);
        else if (other_tandem(pos, from))
            snprintf(origin, sizeof origin, "%c%d", q, o.file);
        else
            snprintf(origin, sizeof origin, "%c", q);
    }
    snprintf(buf, VN_TEXT_MAX, "%s%s%c%d", Letters[t], origin, direction(c, from, to), destination(t, c, from, to));
    return buf;
}

/* One UTF-8 character at *in that people type for an ASCII one: full-width
 * forms (U+FF01..FF5E), dashes (U+2010..2015) and the minus sign (U+2212).
 * Returns the ASCII character and advances *in, or 0. */
static char fold_utf8(const unsigned char **in) {
    const unsigned char *s = *in;
    if (s[0] == 0xEF && (s[1] == 0xBC || s[1] == 0xBD) && s[2] >= 0x80 && s[2] <= 0xBF) {
        int code = ((s[1] & 0x3F) << 6 | (s[2] & 0x3F)) + 0xF000 - 0xFF01 + '!';
        if (code < '!' || code > '~') return 0;
        *in += 3;
        return (char)code;
    }
    if ((s[0] == 0xE2 && s[1] == 0x80 && s[2] >= 0x90 && s[2] <= 0x95) ||
        (s[0] == 0xE2 && s[1] == 0x88 && s[2] == 0x92)) {
        *in += 3;
        return '-';
    }
    return 0;
}

/* Fold text to plain ASCII; false if a character has no ASCII reading. */
static bool fold_text(const char *text, char *out, size_t cap) {
    const unsigned char *s = (const unsigned char *)text;
    size_t n = 0;
    while (*s) {
        char c = *s < 0x80 ? (char)*s++ : fold_utf8(&s);
        if (!c || n + 1 >= cap) return false;
        out[n++] = c;
    }
    out[n] = '\0';
    return true;
}

/* The piece letter(s) at *p; NO_TYPE when unknown. */
static PieceType piece_letter(const char **p) {
    char c = (char)toupper((unsigned char)**p);
    const char *kinds = "KSTVXPMBC";
    static const PieceType Types[] = {KING, ADVISOR, ELEPHANT, ELEPHANT, ROOK, CANNON, HORSE, PAWN, PAWN};
    const char *at = c ? strchr(kinds, c) : NULL;
    if (!at) return NO_TYPE;
    (*p)++;
    if (c == 'T' && tolower((unsigned char)**p) == 'g') { /* Tg: no elephant is ever "middle" */
        (*p)++;
        return KING;
    }
    return Types[at - kinds];
}

static bool is_digit19(char c) { return c >= '1' && c <= '9'; }

/* A word in front of the piece that some records use for t/s/g, e.g.
 * `TiềnX/1` (Hán-Việt tiền, hậu, trung; or trước, sau, giữa): the text
 * after it, with its letter in *qual; text itself and 0 when there is none. */
static const char *qualifier_word(const char *text, char *qual) {
    static const struct {
        const char *word; /* UTF-8; its first letter may also be upper case */
        char qual;
    } Words[] = {{"tiền", 't'}, {"trước", 't'}, {"hậu", 's'}, {"sau", 's'}, {"trung", 'g'}, {"giữa", 'g'}};
    for (size_t i = 0; i < sizeof Words / sizeof Words[0]; i++) {
        size_t n = strlen(Words[i].word);
        const char *rest = text + n;
        if (tolower((unsigned char)text[0]) == Words[i].word[0] && !strncmp(text + 1, Words[i].word + 1, n - 1) &&
            isupper((unsigned char)*rest)) {
            *qual = Words[i].qual;
            return rest;
        }
    }
    *qual = 0;
    return text;
}

/* Take folded text apart (qual: a qualifier given by a word in front, or
 * 0); false if it is not shaped like a move. */
static bool split_text(const char *s, char qual, VnText *t) {
    memset(t, 0, sizeof *t);
    if (!(t->type = piece_letter(&s))) return false;
    char q = (char)tolower((unsigned char)*s);
    t->qual = qual;
    if (!qual && (q == 't' || q == 's' || q == 'g')) {
        t->qual = q;
        s++;
    }
    while (is_digit19(*s) && t->ndigits < 2)
        t->digits[t->ndigits++] = *s++ - '0';
    if (*s != '.' && *s != '/' && *s != '-') return false;
    t->op = *s++;
    if (!is_digit19(*s) || s[1]) return false;
    t->dest = *s - '0';
    if (!t->qual) return t->ndigits == 1;
    return t->ndigits <= (t->qual == 'g' ? 2 : 1);
}

static bool origin_fits(const VnText *t, Origin o) {
    if (!t->qual) return t->digits[0] == o.file;
    if (t->qual != 'g') {
        if (o.n < 2 || o.idx != (t->qual == 't' ? 0 : o.n - 1)) return false;
        return t->ndigits == 0 || t->digits[0] == o.file;
    }
    if (o.idx == 0 || o.idx >= o.n - 1) return false; /* not a middle piece */
    if (t->ndigits == 0) return o.n == 3;
    if (t->ndigits == 2) return o.idx == t->digits[0] && o.file == t->digits[1];
    return (o.n == 3 && o.file == t->digits[0]) || o.idx == t->digits[0]; /* a file, or g1..g3 */
}

static bool move_fits(const Position *pos, Move m, const VnText *t) {
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from];
    Color c = color_of(p);
    if (type_of(p) != t->type || direction(c, from, to) != t->op) return false;
    if (destination(t->type, c, from, to) != t->dest) return false;
    return origin_fits(t, origin_of(pos, from));
}

static bool piece_there(const Position *pos, const VnText *t) {
    Piece p = make_piece(pos->side, t->type);
    for (Square s = 0; s < SQUARE_NB; s++)
        if (pos->board[s] == p && origin_fits(t, origin_of(pos, s))) return true;
    return false;
}

/* Fold and take apart text, a qualifier word in front included. */
static bool read_text(const char *text, char *folded, size_t cap, VnText *t) {
    char qual;
    const char *rest = qualifier_word(text, &qual);
    return fold_text(rest, folded, cap) && split_text(folded, qual, t);
}

bool vn_text_shaped(const char *text) {
    char folded[VN_INPUT_MAX];
    VnText t;
    return read_text(text, folded, sizeof folded, &t);
}

Move vn_move_parse(const Position *pos, const char *text, char *err, size_t errlen) {
    char folded[VN_INPUT_MAX];
    VnText t;
    const char *side = pos->side == RED ? "Red" : "Black";
    if (!read_text(text, folded, sizeof folded, &t)) {
        bool folds = fold_text(text, folded, sizeof folded);
        const char *p = folded;
        if (folds && isalpha((unsigned char)*p) && !piece_letter(&p))
            snprintf(err, errlen, "'%.24s': unknown piece letter '%c' (Vietnamese pieces: Tg/K S T/V X P M B/C)", text,
                     *folded);
        else
            snprintf(err, errlen, "'%.24s': not a move in Vietnamese notation (like P2-5, M8.7, Xs-2)", text);
        return MOVE_NONE;
    }
    if (!piece_there(pos, &t)) {
        snprintf(err, errlen, "'%.24s': %s has no %s (%s) on the file or place it names", text, side, Names[t.type],
                 Letters[t.type]);
        return MOVE_NONE;
    }
    MoveList legal;
    gen_legal(pos, &legal);
    Move found = MOVE_NONE;
    int count = 0;
    for (int i = 0; i < legal.count; i++)
        if (move_fits(pos, legal.moves[i], &t)) {
            found = legal.moves[i];
            count++;
        }
    if (count == 1) return found;
    if (count == 0)
        snprintf(err, errlen, "'%.24s': illegal move for %s here", text, side);
    else
        snprintf(err, errlen, "'%.24s': ambiguous, %d legal moves of %s fit (name the piece with t/s/g)", text, count,
                 side);
    return MOVE_NONE;
}
