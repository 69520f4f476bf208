// SPDX-License-Identifier: GPL-3.0-or-later
#include "notation.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

static char *square_to_text(Square s, int rank_base, char *out) {
    *out++ = (char)('a' + file_of(s));
    out += sprintf(out, "%d", rank_of(s) + rank_base);
    return out;
}

char *move_to_text(Move m, int rank_base, char *buf) {
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, m == MOVE_NONE ? "(none)" : "0000");
        return buf;
    }
    char *p = square_to_text(move_from(m), rank_base, buf);
    p = square_to_text(move_to(m), rank_base, p);
    *p = '\0';
    return buf;
}

/* Read one square; returns the characters consumed or 0. */
static int square_from_text(const char *t, int rank_base, Square *s) {
    char f = t[0];
    if (f >= 'A' && f <= 'I') f = (char)(f - 'A' + 'a');
    if (f < 'a' || f > 'i' || t[1] < '0' || t[1] > '9') return 0;
    int rank = t[1] - '0', used = 2;
    if (rank_base == 1 && rank == 1 && t[2] == '0') rank = 10, used = 3;
    rank -= rank_base;
    if (rank < 0 || rank > 9) return 0;
    *s = make_square(f - 'a', rank);
    return used;
}

Move move_from_text(const char *text, int rank_base) {
    Square from, to;
    int a = square_from_text(text, rank_base, &from);
    if (!a) return MOVE_NONE;
    int b = square_from_text(text + a, rank_base, &to);
    if (!b || text[a + b] != '\0' || from == to) return MOVE_NONE;
    return make_move(from, to);
}

Move move_parse_legal(const Position *pos, const char *text, int rank_base, char *err, size_t errlen) {
    Move m = move_from_text(text, rank_base);
    if (m == MOVE_NONE) {
        snprintf(err, errlen, "malformed move '%.16s'", text);
        return MOVE_NONE;
    }
    if (!move_is_legal(pos, m)) {
        snprintf(err, errlen, "illegal move '%.16s'", text);
        return MOVE_NONE;
    }
    return m;
}
