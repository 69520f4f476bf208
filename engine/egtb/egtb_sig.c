// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_sig.h"

#include <stdio.h>
#include <string.h>

/* Letters in name order (K A B R N C P) and their piece types. */
static const char NameLetters[] = "KABRNCP";
static const PieceType NameTypes[] = {KING, ADVISOR, ELEPHANT, ROOK, HORSE, CANNON, PAWN};

/* xiangqitb's side-order weights (piece_config.h, PIECE_STRENGTH_FOR_SIDE_ORDER). */
static const int Strength[TYPE_NB] = {
    [KING] = 0, [ADVISOR] = 11, [ELEPHANT] = 10, [HORSE] = 600, [ROOK] = 4000, [CANNON] = 603, [PAWN] = 80};

/* xiangqitb's material key terms (chess.h, Material_Key::MAT_KEY), per
 * table side: the stronger side's pieces weigh 3x the weaker side's. */
static const uint32_t KeyTerm[COLOR_NB][TYPE_NB] = {
    {[ROOK] = 708588, [HORSE] = 78732, [CANNON] = 8748, [ADVISOR] = 972, [ELEPHANT] = 108, [PAWN] = 6},
    {[ROOK] = 236196, [HORSE] = 26244, [CANNON] = 2916, [ADVISOR] = 324, [ELEPHANT] = 36, [PAWN] = 1},
};

static const int MaxCount[TYPE_NB] = {
    [KING] = 1, [ADVISOR] = 2, [ELEPHANT] = 2, [HORSE] = 2, [ROOK] = 2, [CANNON] = 2, [PAWN] = 5};

static PieceType type_of_letter(char ch) {
    switch (ch) {
    case 'E': return ELEPHANT;
    case 'H': return HORSE;
    default: break;
    }
    const char *p = strchr(NameLetters, ch);
    return p && ch ? NameTypes[p - NameLetters] : NO_TYPE;
}

static int side_strength(const EgtbMaterial *mat, Color c) {
    int s = 0;
    for (int t = 1; t < TYPE_NB; t++) s += Strength[t] * mat->count[c][t];
    return s;
}

bool egtb_sig_valid(const EgtbMaterial *mat) {
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = 1; t < TYPE_NB; t++)
            if (mat->count[c][t] > MaxCount[t] || (t == KING && mat->count[c][t] != 1)) return false;
    return true;
}

bool egtb_sig_normalise(EgtbMaterial *mat) {
    if (side_strength(mat, BLACK) <= side_strength(mat, RED)) return false;
    for (int t = 0; t < TYPE_NB; t++) {
        uint8_t x = mat->count[RED][t];
        mat->count[RED][t] = mat->count[BLACK][t];
        mat->count[BLACK][t] = x;
    }
    return true;
}

bool egtb_sig_parse(EgtbMaterial *mat, const char *name, char *err, size_t errlen) {
    EgtbMaterial m;
    memset(&m, 0, sizeof m);
    if (!name || name[0] != 'K') {
        snprintf(err, errlen, "signature '%s' does not start with K", name ? name : "");
        return false;
    }
    int kings = 0;
    for (const char *p = name; *p; p++) {
        PieceType t = type_of_letter(*p);
        if (t == NO_TYPE) {
            snprintf(err, errlen, "signature '%s': unknown piece letter '%c' (use K A B R N C P)", name, *p);
            return false;
        }
        if (t == KING) kings++;
        if (kings > 2) break;
        m.count[kings == 1 ? RED : BLACK][t]++;
    }
    if (kings != 2) {
        snprintf(err, errlen, "signature '%s' needs exactly two kings", name);
        return false;
    }
    if (!egtb_sig_valid(&m)) {
        snprintf(err, errlen, "signature '%s' has more pieces than a side owns", name);
        return false;
    }
    egtb_sig_normalise(&m);
    *mat = m;
    return true;
}

char *egtb_sig_name(const EgtbMaterial *mat, char *buf) {
    char *p = buf;
    for (int c = 0; c < COLOR_NB; c++)
        for (size_t i = 0; i < sizeof NameTypes / sizeof NameTypes[0]; i++)
            for (int n = 0; n < mat->count[c][NameTypes[i]]; n++) *p++ = NameLetters[i];
    *p = '\0';
    return buf;
}

void egtb_sig_of_position(const Position *pos, EgtbMaterial *mat) {
    memset(mat, 0, sizeof *mat);
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece pc = pos->board[s];
        if (pc != NO_PIECE) mat->count[color_of(pc)][type_of(pc)]++;
    }
}

bool egtb_sig_symmetric(const EgtbMaterial *mat) {
    return memcmp(mat->count[RED], mat->count[BLACK], sizeof mat->count[RED]) == 0;
}

bool egtb_sig_has_attackers(const EgtbMaterial *mat, Color c) {
    return mat->count[c][ROOK] + mat->count[c][HORSE] + mat->count[c][CANNON] + mat->count[c][PAWN] > 0;
}

uint32_t egtb_sig_material_key(const EgtbMaterial *mat) {
    uint32_t base = 0, mirr = 0;
    for (int t = 1; t < TYPE_NB; t++) {
        base += KeyTerm[RED][t] * mat->count[RED][t] + KeyTerm[BLACK][t] * mat->count[BLACK][t];
        mirr += KeyTerm[RED][t] * mat->count[BLACK][t] + KeyTerm[BLACK][t] * mat->count[RED][t];
    }
    return base < mirr ? base : mirr;
}

int egtb_sig_piece_count(const EgtbMaterial *mat) {
    int n = 0;
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = ADVISOR; t < TYPE_NB; t++) n += mat->count[c][t];
    return n;
}
