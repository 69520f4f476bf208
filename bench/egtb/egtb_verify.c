// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_verify.h"

#include <stdlib.h>

#include "fen.h"
#include "movegen.h"

enum { FAULTS_SHOWN = 5 };

bool egtb_child_value(EgtbSet *set, Position *pos, Move m, uint16_t *value, char *err, size_t errlen) {
    bool capture = pos->board[move_to(m)] != NO_PIECE;
    pos_make_move(pos, m);
    bool ok = egtb_probe(set, pos, value, err, errlen);
    pos_unmake_move(pos);
    if (ok && capture && *value != 0) *value = egtb_is_loss(*value) ? 1 : 0x8000; /* conversion */
    return ok;
}

/* The child value as the checks read it: a capture into a won position
 * (0x8000 above) is a win worth 0. */
static bool child_is_win(uint16_t v) { return v == 0x8000 || egtb_is_win(v); }
static uint16_t child_win_value(uint16_t v) { return v == 0x8000 ? 0 : v; }

/* What is wrong with value v of a legal position (NULL if nothing). */
static const char *check_node(EgtbSet *set, Position *pos, uint16_t v, char *err, size_t errlen, bool *failed) {
    MoveList list;
    gen_legal(pos, &list);
    if (v == EGTB_ILLEGAL) return "legal position marked illegal";
    if (list.count == 0) return v == 1 ? NULL : "no legal move but not loss 1";
    uint16_t min_loss = UINT16_MAX, max_win = 0;
    bool any_draw = false, all_win = true;
    for (int i = 0; i < list.count; i++) {
        uint16_t cv;
        if (!egtb_child_value(set, pos, list.moves[i], &cv, err, errlen)) {
            *failed = true;
            return NULL;
        }
        if (cv == EGTB_ILLEGAL) return "a legal move reaches a position marked illegal";
        if (egtb_is_loss(cv) && cv < min_loss) min_loss = cv;
        if (cv == 0) any_draw = true;
        if (child_is_win(cv)) {
            if (child_win_value(cv) > max_win) max_win = child_win_value(cv);
        } else {
            all_win = false;
        }
    }
    if (egtb_is_win(v)) return min_loss == v - 1 ? NULL : "win without a move to a loss one step shorter, or with a shorter one";
    if (egtb_is_loss(v)) {
        if (!all_win) return "loss with a move that does not lose";
        return max_win == v - 1 ? NULL : "loss whose longest resistance is not one step shorter";
    }
    if (min_loss != UINT16_MAX) return "draw with a move to a position lost for the opponent";
    return any_draw ? NULL : "draw without a drawing move";
}

int64_t egtb_verify(EgtbSet *set, const EgtbTable *t, FILE *out, char *err, size_t errlen) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int64_t faults = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->val[c][i];
            const char *why;
            bool failed = false;
            if (!egtb_decode(&t->lay, i, (Color)c, pos) || !egtb_decoded_legal(pos))
                why = v == EGTB_ILLEGAL ? NULL : "illegal position with a value";
            else
                why = check_node(set, pos, v, err, errlen, &failed);
            if (failed) {
                free(pos);
                return -1;
            }
            if (!why) continue;
            if (faults++ < FAULTS_SHOWN) {
                char fen[FEN_MAX];
                fprintf(out, "%s: index %llu %s to move, value %u: %s (%s)\n", t->name, (unsigned long long)i,
                        c == RED ? "red" : "black", v, why, fen_write(pos, fen));
            }
        }
    free(pos);
    return faults;
}
