// SPDX-License-Identifier: GPL-3.0-or-later
#include "fen.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char PieceLetters[] = " KABNRCP";
static const int MaxCount[TYPE_NB] = {0, 1, 2, 2, 2, 2, 2, 5};
static const char *const TypeNames[TYPE_NB] = {"", "king", "advisor", "elephant", "horse", "chariot", "cannon", "pawn"};

static PieceType type_from_letter(char c) {
    switch (toupper((unsigned char)c)) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'B': case 'E': return ELEPHANT;
    case 'N': case 'H': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return NO_TYPE;
    }
}

bool piece_point_reachable(PieceType t, Color c, Square s) {
    int f = file_of(s), r = relative_rank(c, s);
    switch (t) {
    case KING: return f >= 3 && f <= 5 && r <= 2;
    case ADVISOR: return (r == 1 && f == 4) || ((r == 0 || r == 2) && (f == 3 || f == 5));
    case ELEPHANT: return ((r == 0 || r == 4) && (f == 2 || f == 6)) || (r == 2 && (f == 0 || f == 4 || f == 8));
    case PAWN: return r >= 5 || (r >= 3 && f % 2 == 0);
    default: return true;
    }
}

static bool failf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static bool parse_board(Position *pos, const char *board, char *err, size_t errlen) {
    int counts[PIECE_NB] = {0};
    int ranks = 1;
    for (const char *c = board; *c; c++) ranks += *c == '/';
    if (ranks != 10) return failf(err, errlen, "%d ranks instead of 10", ranks);
    int rank = 9, file = 0;
    for (const char *c = board; *c; c++) {
        if (*c == '/') {
            if (file != 9) return failf(err, errlen, "rank %d is %d points wide, not 9", rank, file);
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '9') {
            file += *c - '0';
            if (file > 9) return failf(err, errlen, "rank %d is wider than 9 points", rank);
        } else {
            PieceType t = type_from_letter(*c);
            if (!t) return failf(err, errlen, "unknown piece letter '%c'", isgraph((unsigned char)*c) ? *c : '?');
            if (file >= 9) return failf(err, errlen, "rank %d is wider than 9 points", rank);
            Color col = isupper((unsigned char)*c) ? RED : BLACK;
            Square s = make_square(file++, rank);
            Piece p = make_piece(col, t);
            const char *side = col == RED ? "red" : "black";
            if (++counts[p] > MaxCount[t])
                return failf(err, errlen, "too many %s %ss (%d, at most %d)", side, TypeNames[t], counts[p], MaxCount[t]);
            if (!piece_point_reachable(t, col, s))
                return failf(err, errlen, "%s %s on %c%d, a point it can never reach", side, TypeNames[t],
                             'a' + file_of(s), rank_of(s));
            pos_put_piece(pos, p, s);
        }
    }
    if (file != 9) return failf(err, errlen, "rank 0 is %d points wide, not 9", file);
    if (!counts[make_piece(RED, KING)]) return failf(err, errlen, "missing red king");
    if (!counts[make_piece(BLACK, KING)]) return failf(err, errlen, "missing black king");
    return true;
}

/* Parse a non-negative counter field, or fail. */
static bool parse_counter(const char *tok, long *out) {
    char *end;
    if (!isdigit((unsigned char)*tok)) return false;
    *out = strtol(tok, &end, 10);
    return *end == '\0' && *out <= 100000;
}

bool fen_parse(Position *pos, const char *fen, char *err, size_t errlen) {
    char buf[256];
    if (!fen || strlen(fen) >= sizeof buf) {
        snprintf(err, errlen, "FEN is empty or too long");
        return false;
    }
    strcpy(buf, fen);
    char *save = NULL;
    char *fields[7] = {0};
    int nf = 0;
    for (char *tok = strtok_r(buf, " \t\r\n", &save); tok && nf < 7; tok = strtok_r(NULL, " \t\r\n", &save))
        fields[nf++] = tok;
    if (nf == 0) {
        snprintf(err, errlen, "FEN is empty");
        return false;
    }
    if (nf > 6) {
        snprintf(err, errlen, "FEN has more than 6 fields");
        return false;
    }

    static _Thread_local Position tmp;
    pos_clear(&tmp);
    char detail[160];
    if (!parse_board(&tmp, fields[0], detail, sizeof detail)) {
        snprintf(err, errlen, "bad FEN: %s", detail);
        return false;
    }
    tmp.side = RED;
    if (nf >= 2) {
        if (!strcmp(fields[1], "w") || !strcmp(fields[1], "r") || !strcmp(fields[1], "W") || !strcmp(fields[1], "R"))
            tmp.side = RED;
        else if (!strcmp(fields[1], "b") || !strcmp(fields[1], "B"))
            tmp.side = BLACK;
        else {
            snprintf(err, errlen, "bad FEN: side to move '%.8s' is not w, r or b", fields[1]);
            return false;
        }
    }
    long halfmove = 0, fullmove = 1;
    if (nf >= 5 && !parse_counter(fields[4], &halfmove)) {
        snprintf(err, errlen, "bad FEN: halfmove clock '%.8s' is not a number", fields[4]);
        return false;
    }
    if (nf >= 6 && !parse_counter(fields[5], &fullmove)) {
        snprintf(err, errlen, "bad FEN: fullmove number '%.8s' is not a number", fields[5]);
        return false;
    }
    if (pos_kings_face(&tmp)) {
        snprintf(err, errlen, "bad FEN: the kings face each other on an open file");
        return false;
    }
    Color them = (Color)!tmp.side;
    if (pos_attacked(&tmp, tmp.king_sq[them], tmp.side, tmp.occ, tmp.occ_t, 0)) {
        snprintf(err, errlen, "bad FEN: the side not to move (%s) is in check", them == RED ? "red" : "black");
        return false;
    }
    pos_finish_setup(&tmp);
    tmp.history[0].rule60 = (uint16_t)(halfmove > 1000 ? 1000 : halfmove);
    tmp.root_fullmove = fullmove < 1 ? 1 : (int)fullmove;
    memcpy(pos, &tmp, offsetof(Position, history) + sizeof(StateInfo));
    return true;
}

char *fen_write(const Position *pos, char *buf) {
    char *p = buf;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 9; f++) {
            Piece pc = pos->board[make_square(f, r)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty) *p++ = (char)('0' + empty), empty = 0;
            char c = PieceLetters[type_of(pc)];
            *p++ = color_of(pc) == RED ? c : (char)tolower((unsigned char)c);
        }
        if (empty) *p++ = (char)('0' + empty);
        if (r) *p++ = '/';
    }
    /* Count plies from Red's first move of the root's fullmove number. */
    Color root_side = (Color)(pos->side ^ (pos->game_ply & 1));
    int ply = (pos->root_fullmove - 1) * 2 + (root_side == BLACK) + pos->game_ply;
    int fullmove = ply / 2 + 1;
    sprintf(p, " %c - - %d %d", pos->side == RED ? 'w' : 'b', pos_state(pos)->rule60, fullmove);
    return buf;
}
