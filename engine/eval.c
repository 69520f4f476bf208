/* Placeholder evaluation: material only, until the evaluation issue lands. */
#include "eval.h"

static const Score PieceValue[TYPE_NB] = {0, 0, 20, 20, 40, 90, 45, 10};

Score evaluate(const Position *pos) {
    Score s = 0;
    for (PieceType t = ADVISOR; t <= PAWN; t++)
        s += PieceValue[t] * (bb_popcount(pos_pieces(pos, RED, t)) - bb_popcount(pos_pieces(pos, BLACK, t)));
    return pos->side == RED ? s : -s;
}

void eval_trace(const Position *pos, const char *prefix, FILE *out) {
    Score s = evaluate(pos);
    fprintf(out, "%smaterial %d\n%stotal %d (side to move)\n", prefix, pos->side == RED ? s : -s, prefix, s);
}
