// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_capture.h"

#include <string.h>

bool egtb_captures_init(EgtbCaptures *c, EgtbSet *set, const EgtbMaterial *mat, bool dtm, char *err,
                        size_t errlen) {
    memset(c, 0, sizeof *c);
    c->dtm = dtm;
    for (int col = 0; col < COLOR_NB; col++)
        for (int t = ADVISOR; t < TYPE_NB; t++) {
            if (!mat->count[col][t]) continue;
            EgtbMaterial sub = *mat;
            sub.count[col][t]--;
            egtb_sig_normalise(&sub);
            if (!egtb_sig_has_attackers(&sub, RED) && !egtb_sig_has_attackers(&sub, BLACK)) continue;
            c->sub[make_piece((Color)col, (PieceType)t)] =
                dtm ? egtb_set_get_dtm(set, &sub, err, errlen) : egtb_set_get(set, &sub, err, errlen);
            if (!c->sub[make_piece((Color)col, (PieceType)t)]) return false;
        }
    return true;
}

uint16_t egtb_capture_value(const EgtbCaptures *c, Position *pos, Move m) {
    Square from = move_from(m), to = move_to(m);
    Piece mover = pos->board[from], victim = pos->board[to];
    const EgtbTable *sub = c->sub[victim];
    if (!sub) return 0;
    pos_remove_piece(pos, to);
    pos_remove_piece(pos, from);
    pos_put_piece(pos, mover, to);
    pos->side = (Color)!pos->side;
    uint16_t v = c->dtm ? egtb_table_dtm(sub, pos) : egtb_table_value(sub, pos);
    pos->side = (Color)!pos->side;
    pos_remove_piece(pos, to);
    pos_put_piece(pos, mover, from);
    pos_put_piece(pos, victim, to);
    return v;
}
