// SPDX-License-Identifier: GPL-3.0-or-later
#include "pgn_notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "notation_vn.h"

static const char *const Names[] = {"iccs", "wxf", "vn", "auto"};
static const char *const Titles[] = {"ICCS", "WXF", "Vietnamese", "any"};

bool notation_from_name(const char *name, bool auto_ok, Notation *out) {
    for (int n = NOTATION_ICCS; n <= NOTATION_AUTO; n++)
        if (!strcmp(name, Names[n]) && (n != NOTATION_AUTO || auto_ok)) {
            *out = (Notation)n;
            return true;
        }
    return false;
}

const char *notation_title(Notation n) { return Titles[n]; }

/* File number as the side c reads it: 1 at its right-hand edge. */
static int wxf_file(Color c, Square s) { return c == RED ? 9 - file_of(s) : file_of(s) + 1; }

char *pgn_wxf_move(const Position *pos, Move m, char *buf) {
    static const char Letter[TYPE_NB] = {'?', 'K', 'A', 'E', 'H', 'R', 'C', 'P'};
    Square from = move_from(m), to = move_to(m);
    Piece p = pos->board[from];
    Color c = color_of(p);
    PieceType t = type_of(p);
    int forward = relative_rank(c, to) - relative_rank(c, from);
    char op = forward > 0 ? '+' : forward < 0 ? '-' : '.';
    bool straight = t == KING || t == ROOK || t == CANNON || t == PAWN;
    int dest = straight && forward ? abs(forward) : wxf_file(c, to);
    /* Another piece of the same kind on the same file: name this one front or rear. */
    int same = 0, ahead = 0;
    for (int r = 0; r < RANK_NB; r++) {
        Square s = make_square(file_of(from), r);
        if (s == from || pos->board[s] != p) continue;
        same++;
        if (relative_rank(c, s) > relative_rank(c, from)) ahead++;
    }
    if (same == 1)
        sprintf(buf, "%c%c%c%d", Letter[t], ahead ? '-' : '+', op, dest);
    else
        sprintf(buf, "%c%d%c%d", Letter[t], wxf_file(c, from), op, dest);
    return buf;
}

char *notation_move_text(Notation n, const Position *pos, Move m, char *buf) {
    if (n == NOTATION_WXF) return pgn_wxf_move(pos, m, buf);
    if (n == NOTATION_VN) return vn_move_text(pos, m, buf);
    return move_to_text(m, 0, buf);
}

/* "h2e2", "H2-E2", "h2-e2": ICCS; MOVE_NONE for anything else. */
static Move iccs_syntax(const char *tok) {
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

/* WXF as pgn_wxf_move writes it, also with B/N for elephant/horse, '=' for
 * '.', or the +/- of tandem pieces in front; folded into t (>= 8 bytes).
 * False if tok is not shaped like WXF. */
static bool wxf_fold(const char *tok, char *t) {
    if (strlen(tok) != 4) return false;
    memcpy(t, tok, 5);
    if ((t[0] == '+' || t[0] == '-') && isalpha((unsigned char)t[1])) {
        char c = t[0];
        t[0] = t[1];
        t[1] = c;
    }
    for (char *p = t; *p; p++)
        *p = *p == '=' ? '.' : (char)toupper((unsigned char)*p);
    t[0] = t[0] == 'B' ? 'E' : t[0] == 'N' ? 'H' : t[0];
    return strchr("KAEHRCP", t[0]) && (isdigit((unsigned char)t[1]) || t[1] == '+' || t[1] == '-') &&
           strchr("+-.", t[2]) && t[3] >= '1' && t[3] <= '9';
}

static Move wxf_parse(const Position *pos, const char *tok, ReadQuality *q, char *err, size_t errlen) {
    char t[8], text[16];
    if (!wxf_fold(tok, t)) {
        *q = READ_FOREIGN;
        snprintf(err, errlen, "'%.20s' is not WXF", tok);
        return MOVE_NONE;
    }
    MoveList legal;
    gen_legal(pos, &legal);
    for (int i = 0; i < legal.count; i++)
        if (!strcmp(pgn_wxf_move(pos, legal.moves[i], text), t)) {
            *q = READ_OK;
            return legal.moves[i];
        }
    *q = READ_REFUSED;
    snprintf(err, errlen, "'%.20s' is not a legal move in WXF", tok);
    return MOVE_NONE;
}

static Move iccs_parse(const Position *pos, const char *tok, ReadQuality *q, char *err, size_t errlen) {
    Move m = iccs_syntax(tok);
    *q = m == MOVE_NONE ? READ_FOREIGN : move_is_legal(pos, m) ? READ_OK : READ_REFUSED;
    if (*q == READ_OK) return m;
    snprintf(err, errlen, *q == READ_FOREIGN ? "'%.20s' is not ICCS" : "'%.20s' is not a legal move", tok);
    return MOVE_NONE;
}

Move notation_parse(Notation n, const Position *pos, const char *tok, ReadQuality *quality, char *err, size_t errlen) {
    if (n == NOTATION_ICCS) return iccs_parse(pos, tok, quality, err, errlen);
    if (n == NOTATION_WXF) return wxf_parse(pos, tok, quality, err, errlen);
    Move m = vn_move_parse(pos, tok, err, errlen);
    *quality = m != MOVE_NONE ? READ_OK : vn_text_shaped(tok) ? READ_REFUSED : READ_FOREIGN;
    return m;
}
