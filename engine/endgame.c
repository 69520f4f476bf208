// SPDX-License-Identifier: GPL-3.0-or-later
/* Material-only endgame knowledge: draw scaling and known wins. Both tables
 * are documented in docs/eval.md and tested in tests/test_eval_endgame.c. */
#include "endgame.h"

#include "eval_terms.h"

enum {
    SCALE_DRAW = 0,
    SCALE_HOPELESS = 8,  /* only a blunder loses */
    SCALE_RARE = 16,     /* a lone piece against a sound defence */
    SCALE_HARD = 48,     /* winnable in some lines */
    SCALE_LIKELY = 96,   /* usually a win, with technique */
};

typedef struct {
    int chariots, horses, cannons, pawns, old_pawns, advisors, elephants;
} Material;

static Material material_of(const Position *pos, Color c) {
    Bitboard pawns = pos_pieces(pos, c, PAWN);
    /* Pawns on the enemy back rank can no longer advance: "old" pawns. */
    Bitboard last_rank = (Bitboard)0x1FF << (c == RED ? 81 : 0);
    Material m = {
        .chariots = bb_popcount(pos_pieces(pos, c, ROOK)),
        .horses = bb_popcount(pos_pieces(pos, c, HORSE)),
        .cannons = bb_popcount(pos_pieces(pos, c, CANNON)),
        .pawns = bb_popcount(pawns & ~last_rank),
        .old_pawns = bb_popcount(pawns & last_rank),
        .advisors = bb_popcount(pos_pieces(pos, c, ADVISOR)),
        .elephants = bb_popcount(pos_pieces(pos, c, ELEPHANT)),
    };
    return m;
}

/* Strong side has only pawns; the weak side has no chariot, horse or cannon. */
static int pawns_only(const Material *s, int defenders) {
    if (s->pawns == 0) return defenders == 0 ? SCALE_HARD / 2 : SCALE_HOPELESS; /* old pawns only */
    if (s->pawns == 1) return defenders == 0 ? SCALE_NORMAL : defenders == 1 ? SCALE_HARD : SCALE_RARE;
    if (s->pawns == 2) return defenders >= 4 ? SCALE_HARD : SCALE_NORMAL;
    return SCALE_NORMAL;
}

int eg_scale(const Position *pos, Color strong) {
    /* Two or more chariots, horses and cannons: every row says "normal". */
    Bitboard attackers = pos_pieces(pos, strong, ROOK) | pos_pieces(pos, strong, HORSE) | pos_pieces(pos, strong, CANNON);
    if (attackers & (attackers - 1)) return SCALE_NORMAL;
    Material s = material_of(pos, strong), w = material_of(pos, (Color)!strong);
    int pieces = s.chariots + s.horses + s.cannons;
    int defenders = w.advisors + w.elephants;
    bool weak_has_pieces = w.chariots + w.horses + w.cannons > 0;

    /* King, advisors and elephants alone cannot mate. */
    if (pieces + s.pawns + s.old_pawns == 0) return SCALE_DRAW;
    if (weak_has_pieces) {
        /* A lone chariot against horse or cannon with both advisors holds. */
        if (pieces == 1 && s.chariots == 1 && s.pawns == 0 && w.chariots == 0 && w.horses + w.cannons == 1 &&
            w.advisors == 2)
            return SCALE_HARD;
        return SCALE_NORMAL;
    }
    if (pieces == 0) return pawns_only(&s, defenders);
    if (pieces > 1 || s.pawns > 0) return SCALE_NORMAL;
    if (s.horses == 1) {
        if (defenders <= 1) return SCALE_NORMAL;
        if (defenders == 2) return w.advisors == 2 ? SCALE_LIKELY : SCALE_HARD;
        return SCALE_RARE;
    }
    if (s.cannons == 1) {
        /* A cannon needs a screen: its own advisor against a bare king. */
        if (defenders == 0) return s.advisors > 0 ? SCALE_NORMAL : SCALE_RARE;
        return defenders == 1 && s.advisors > 0 ? SCALE_HARD : SCALE_RARE;
    }
    /* A lone chariot beats anything short of the full defence. */
    return defenders == 4 ? SCALE_RARE : SCALE_NORMAL;
}

/* Does `strong` win by theory? The weak side must have nothing but its
 * king, advisors and elephants. Then a chariot wins with any helper (a
 * second chariot, a horse, a cannon or a pawn that can still advance)
 * against the full defence, and alone against anything less than all four
 * defenders (a lone chariot against the full defence is a draw). */
static bool known_win_for(const Position *pos, Color strong) {
    Color weak = (Color)!strong;
    if (!pos_pieces(pos, strong, ROOK)) return false;
    if (pos_pieces(pos, weak, ROOK) | pos_pieces(pos, weak, HORSE) | pos_pieces(pos, weak, CANNON) |
        pos_pieces(pos, weak, PAWN))
        return false;
    Material s = material_of(pos, strong), w = material_of(pos, weak);
    int helpers = s.chariots - 1 + s.horses + s.cannons + s.pawns;
    return helpers > 0 || w.advisors + w.elephants < 4;
}

Color eg_known_win(const Position *pos) {
    if (known_win_for(pos, RED)) return RED;
    if (known_win_for(pos, BLACK)) return BLACK;
    return COLOR_NB;
}
