// SPDX-License-Identifier: GPL-3.0-or-later
/* Correction history (history.h). The indices hash piece bitboards on the
 * fly: a few multiplications, far cheaper than the evaluation they correct,
 * and make/unmake stay as they are. */
#include "history.h"

#include "score.h"

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 32);
}

/* Fold one bitboard into h with a per-slot multiplier. */
static inline uint64_t fold(uint64_t h, Bitboard b, uint64_t mul) {
    return (h ^ ((uint64_t)b * mul) ^ ((uint64_t)(b >> 64) * (mul ^ 0x9E3779B97F4A7C15ULL))) * 0xD6E8FEB86659FD93ULL;
}

unsigned corr_pawn_index(const Position *pos) {
    uint64_t h = fold(0, pos->piece_bb[make_piece(RED, PAWN)], 0xA0761D6478BD642FULL);
    h = fold(h, pos->piece_bb[make_piece(BLACK, PAWN)], 0xE7037ED1A0B428DBULL);
    return (unsigned)(mix64(h) % CORR_SIZE);
}

unsigned corr_nonpawn_index(const Position *pos, Color c) {
    static const uint64_t Mul[TYPE_NB] = {0, 0x8EBC6AF09C88C6E3ULL, 0x589965CC75374CC3ULL, 0x1D8E4E27C47D124FULL,
                                          0xB47F5A8A4C7B6D35ULL, 0x6A09E667F3BCC909ULL, 0xBB67AE8584CAA73BULL, 0};
    uint64_t h = c == RED ? 0x3C6EF372FE94F82BULL : 0xA54FF53A5F1D36F1ULL;
    for (PieceType t = KING; t < PAWN; t++) h = fold(h, pos->piece_bb[make_piece(c, t)], Mul[t]);
    return (unsigned)(mix64(h) % CORR_SIZE);
}

int corr_apply(const CorrectionHistory *ch, const Position *pos, int raw) {
    Color us = pos->side;
    int pawn = ch->pawn[us][corr_pawn_index(pos)];
    int nonpawn = ch->nonpawn[RED][us][corr_nonpawn_index(pos, RED)] + ch->nonpawn[BLACK][us][corr_nonpawn_index(pos, BLACK)];
    int correction = (CORR_PAWN_WEIGHT * pawn + CORR_NONPAWN_WEIGHT * nonpawn / 2) / (64 * CORR_GRAIN);
    int v = raw + correction;
    return v >= SCORE_TB_WIN_IN_MAX ? SCORE_TB_WIN_IN_MAX - 1 : v <= -SCORE_TB_WIN_IN_MAX ? -SCORE_TB_WIN_IN_MAX + 1 : v;
}

/* Gravity, as for the move histories: the entry moves by the bonus and
 * settles within +-CORR_LIMIT. */
static inline void corr_move(int16_t *e, int bonus) { *e = (int16_t)(*e + bonus - *e * abs(bonus) / CORR_LIMIT); }

void corr_update(CorrectionHistory *ch, const Position *pos, int depth, int score, int static_eval) {
    Color us = pos->side;
    int bonus = (score - static_eval) * CORR_GRAIN * depth / CORR_DEPTH_DIV;
    bonus = bonus > CORR_LIMIT / 4 ? CORR_LIMIT / 4 : bonus < -CORR_LIMIT / 4 ? -CORR_LIMIT / 4 : bonus;
    corr_move(&ch->pawn[us][corr_pawn_index(pos)], bonus);
    corr_move(&ch->nonpawn[RED][us][corr_nonpawn_index(pos, RED)], bonus);
    corr_move(&ch->nonpawn[BLACK][us][corr_nonpawn_index(pos, BLACK)], bonus);
}
