// SPDX-License-Identifier: GPL-3.0-or-later
#include "pgn_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"

/* One notation's attempt at the game. */
typedef struct {
    int plies;           /* tokens read before the first failure (count if none) */
    ReadQuality quality; /* of the token that failed */
    char error[200];
    Move *moves;
} Attempt;

/* "move 12 (Black)" for the ply-th move (0-based) of a game from pos0's side and fullmove. */
static void name_move(const Position *start, int ply, char *buf, size_t len) {
    int black_first = start->side == BLACK;
    snprintf(buf, len, "move %d (%s)", start->root_fullmove + (ply + black_first) / 2,
             (ply + black_first) % 2 ? "Black" : "Red");
}

static void attempt(Position *pos, const char *fen, const char *const *tokens, int count, Notation n, Attempt *a) {
    char err[200];
    fen_parse(pos, fen, err, sizeof err); /* checked by the caller */
    for (a->plies = 0; a->plies < count; a->plies++) {
        Move m = notation_parse(n, pos, tokens[a->plies], &a->quality, a->error, sizeof a->error);
        if (m == MOVE_NONE || pos_history_full(pos)) break;
        a->moves[a->plies] = m;
        pos_make_move(pos, m);
    }
}

static bool same_moves(const Attempt *a, const Attempt *b, int count) {
    return !memcmp(a->moves, b->moves, (size_t)count * sizeof *a->moves);
}

/* The attempt to report: a full read, else the one that came furthest (then
 * the one that at least recognised the failing token). */
static int best_attempt(const Attempt *a, const bool *tried, int count) {
    int best = -1;
    for (int n = NOTATION_ICCS; n < NOTATION_AUTO; n++) {
        if (!tried[n]) continue;
        if (a[n].plies == count) return n;
        if (best < 0 || a[n].plies > a[best].plies || (a[n].plies == a[best].plies && a[n].quality > a[best].quality))
            best = n;
    }
    return best;
}

static void report(const Position *start, const Attempt *a, const char *tok, bool detecting, PgnDecoded *d) {
    char where[48];
    name_move(start, a->plies, where, sizeof where);
    bool ascii = true;
    for (const char *p = tok; *p; p++)
        ascii &= (unsigned char)*p < 0x80;
    if (detecting && a->quality == READ_FOREIGN && !ascii)
        snprintf(d->error, sizeof d->error, "%s: a move in Chinese or another notation that is not read", where);
    else if (detecting && a->quality == READ_FOREIGN)
        snprintf(d->error, sizeof d->error, "%s: '%.20s' is not a move in ICCS, WXF or Vietnamese notation", where,
                 tok);
    else
        snprintf(d->error, sizeof d->error, "%s: %s", where, a->error);
}

bool pgn_decode(const char *fen, const char *const *tokens, int count, Notation n, Move *moves, PgnDecoded *d) {
    memset(d, 0, sizeof *d);
    char err[200];
    Position *pos = malloc(sizeof *pos), *start = malloc(sizeof *start);
    Attempt a[NOTATION_AUTO] = {{0}};
    bool tried[NOTATION_AUTO] = {false}, ok = false;
    for (int i = NOTATION_ICCS; i < NOTATION_AUTO; i++)
        a[i].moves = malloc(((size_t)count + 1) * sizeof(Move));
    if (!pos || !start || !a[0].moves || !a[1].moves || !a[2].moves) {
        snprintf(d->error, sizeof d->error, "out of memory");
    } else if (!fen_parse(start, fen[0] ? fen : START_FEN, err, sizeof err)) {
        snprintf(d->error, sizeof d->error, "bad FEN tag: %s", err);
    } else {
        for (int i = NOTATION_ICCS; i < NOTATION_AUTO; i++) {
            if (n != NOTATION_AUTO && n != (Notation)i) continue;
            tried[i] = true;
            attempt(pos, fen[0] ? fen : START_FEN, tokens, count, (Notation)i, &a[i]);
        }
        int best = best_attempt(a, tried, count);
        d->notation = (Notation)best;
        d->ply_count = a[best].plies;
        memcpy(moves, a[best].moves, (size_t)a[best].plies * sizeof *moves);
        for (int i = best + 1; i < NOTATION_AUTO && a[best].plies == count; i++)
            if (tried[i] && a[i].plies == count && !same_moves(&a[best], &a[i], count)) {
                snprintf(d->error, sizeof d->error,
                         "the moves read both as %s and as %s, differently: name the notation",
                         notation_title((Notation)best), notation_title((Notation)i));
                d->ply_count = 0;
                break;
            }
        if (a[best].plies < count) report(start, &a[best], tokens[a[best].plies], n == NOTATION_AUTO, d);
        ok = !d->error[0];
    }
    for (int i = NOTATION_ICCS; i < NOTATION_AUTO; i++)
        free(a[i].moves);
    free(pos);
    free(start);
    return ok;
}
