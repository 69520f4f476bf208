// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_sym.h"

#include <stdio.h>
#include <stdlib.h>

#include "egtb_reindex.h"

/* The Red-to-move index of Black-to-move index i turned, or false when i
 * is no legal position (two pieces on a point, the side not to move in
 * check). egtb_index_of turns a symmetric position with Black to move. */
static bool turned(const EgtbLayout *lay, uint64_t i, Position *pos, uint64_t *red) {
    if (!egtb_reindex_place(lay, i, BLACK, pos) || !egtb_decoded_legal(pos)) return false;
    Color side;
    *red = egtb_index_of(lay, pos, &side);
    return side == RED;
}

bool egtb_sym_fill_black(EgtbTable *t, char *err, size_t errlen) {
    uint64_t n = t->lay.positions;
    Position *pos = malloc(sizeof *pos);
    if (t->order[RED] && !t->order[BLACK]) t->order[BLACK] = calloc(n ? n : 1, 1);
    if (!pos || (t->order[RED] && !t->order[BLACK])) {
        free(pos);
        snprintf(err, errlen, "%s: out of memory", t->name);
        return false;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t red;
        if (!turned(&t->lay, i, pos, &red)) {
            t->val[BLACK][i] = EGTB_ILLEGAL;
            continue;
        }
        t->val[BLACK][i] = t->val[RED][red];
        if (t->order[RED]) t->order[BLACK][i] = t->order[RED][red];
    }
    free(pos);
    return true;
}

bool egtb_sym_fill_black_dtm(EgtbTable *t, char *err, size_t errlen) {
    uint64_t n = t->lay.positions;
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        snprintf(err, errlen, "%s: out of memory", t->name);
        return false;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t red;
        t->dtm[BLACK][i] = turned(&t->lay, i, pos, &red) ? t->dtm[RED][red] : EGTB_ILLEGAL;
    }
    free(pos);
    return true;
}

uint64_t egtb_sym_differences(const EgtbTable *t) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) return UINT64_MAX;
    uint64_t differ = 0;
    for (uint64_t i = 0; i < t->lay.positions; i++) {
        uint64_t red;
        if (!turned(&t->lay, i, pos, &red)) continue;
        differ +=
            t->val[BLACK][i] != t->val[RED][red] || egtb_table_order(t, BLACK, i) != egtb_table_order(t, RED, red);
    }
    free(pos);
    return differ;
}
