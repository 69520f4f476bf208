// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The evaluation's weights and its term-by-term trace.
 *
 * Every weight is a midgame/endgame pair (Weight). EvalWeights holds them
 * all, and because every member is a Weight or an array of Weight it is, in
 * memory, one flat array of EVAL_WEIGHT_COUNT pairs: the tuner reads and
 * rewrites it as such, and EvalTerms names each member with its offset and
 * length in that array. The values live in eval_weights.c, which the tuner
 * (bench/tune) writes.
 *
 * Piece-square tables are stored for one half of the board and seen from
 * the owner's side: index = relative_rank * 5 + min(file, 8 - file), so
 * 0 is the owner's a0/i0 corner and 49 the middle of the enemy back rank.
 * Left-right symmetry is built in.
 *
 * Attacker kinds (king safety arrays): 0 chariot, 1 horse, 2 cannon, 3 pawn.
 */
#include <stddef.h>
#include <stdio.h>

#include "position.h"
#include "types.h"

typedef struct {
    int mg, eg;
} Weight;

enum { PSQT_NB = 50, CHARIOT_MOB_NB = 18, HORSE_MOB_NB = 9, CANNON_MOB_NB = 18, ATTACKER_KIND_NB = 4,
       KING_ATTACKERS_NB = 5 };
enum { ATT_CHARIOT = 0, ATT_HORSE = 1, ATT_CANNON = 2, ATT_PAWN = 3 };

/* X(name, length, what it counts) for the arrays, X(name, what) for the single weights. */
#define EVAL_ARRAY_TERMS(X)                                                                                          \
    X(Material, TYPE_NB, "pieces, by type")                                                                          \
    X(PsqtKing, PSQT_NB, "king placement")                                                                           \
    X(PsqtAdvisor, PSQT_NB, "advisor placement")                                                                     \
    X(PsqtElephant, PSQT_NB, "elephant placement")                                                                   \
    X(PsqtHorse, PSQT_NB, "horse placement")                                                                         \
    X(PsqtChariot, PSQT_NB, "chariot placement")                                                                     \
    X(PsqtCannon, PSQT_NB, "cannon placement")                                                                       \
    X(PsqtPawn, PSQT_NB, "pawn placement")                                                                           \
    X(ChariotMobility, CHARIOT_MOB_NB, "chariot, by points reached")                                                 \
    X(HorseMobility, HORSE_MOB_NB, "horse, by jumps with a free leg")                                                \
    X(CannonMobility, CANNON_MOB_NB, "cannon, by quiet moves")                                                       \
    X(AdvisorMissingVsAttacker, ATTACKER_KIND_NB, "missing advisors x enemy pieces over the river, by kind")        \
    X(ElephantMissingVsAttacker, ATTACKER_KIND_NB, "missing elephants x enemy pieces over the river, by kind")      \
    X(PalaceAttack, ATTACKER_KIND_NB, "attacks on enemy palace points, by attacker kind")                            \
    X(KingAttackers, KING_ATTACKERS_NB, "pieces attacking the enemy palace, by count")

#define EVAL_SCALAR_TERMS(X)                                                                                         \
    X(ChariotOpenFile, "chariot on a file without pawns")                                                            \
    X(ChariotHalfOpenFile, "chariot on a file without own pawns")                                                    \
    X(ChariotEnemyBackRanks, "chariot on the enemy's last two ranks")                                                \
    X(CannonEmptyHead, "cannon facing the enemy king with nothing between")                                          \
    X(CannonBottom, "cannon on the enemy back rank")                                                                 \
    X(CannonPalaceControl, "palace points a cannon hits over a screen")                                              \
    X(CannonCaptureTargets, "enemy pieces a cannon attacks")                                                         \
    X(HorseLegBlocked, "blocked horse legs")                                                                         \
    X(HorseNearPalace, "horse on files c-g of the enemy's last four ranks")                                          \
    X(PawnCrossed, "pawn over the river")                                                                            \
    X(PawnConnected, "crossed pawns side by side")                                                                   \
    X(PawnNearPalace, "crossed pawn in or next to the enemy palace")                                                 \
    X(PawnLastRank, "old pawn on the enemy back rank")                                                               \
    X(KingOffHome, "king off its home point")                                                                        \
    X(KnownWin, "material that wins by endgame theory (endgame.c)")                                                  \
    X(Tempo, "side to move")

typedef struct {
#define EVAL_DECLARE_ARRAY(name, n, what) Weight name[n];
    EVAL_ARRAY_TERMS(EVAL_DECLARE_ARRAY)
#undef EVAL_DECLARE_ARRAY
#define EVAL_DECLARE_SCALAR(name, what) Weight name;
    EVAL_SCALAR_TERMS(EVAL_DECLARE_SCALAR)
#undef EVAL_DECLARE_SCALAR
} EvalWeights;

enum { EVAL_WEIGHT_COUNT = (int)(sizeof(EvalWeights) / sizeof(Weight)) };

/* The weights the engine plays with (eval_weights.c, written by the tuner). */
extern const EvalWeights EvalW;

/* One member of EvalWeights: its name, place in the flat array and length
 * (1 for a single weight, which `is_array` tells apart from an array of 1). */
typedef struct {
    const char *name;
    const char *what;
    int offset, length;
    bool is_array;
} EvalTermInfo;

extern const EvalTermInfo EvalTerms[];
extern const int EvalTermCount;

/* Game phase: PHASE_MAX with every chariot, horse and cannon on the board,
 * 0 with none; the score is mg * phase / PHASE_MAX + eg * (1 - that). */
enum { PHASE_MAX = 48, SCALE_NORMAL = 128 };

/* Everything evaluate() used, for the trace and the tuner: the count of
 * each weight for each side (the score is linear in them), the phase and the
 * draw scale that applies when Red or Black is the stronger side. */
typedef struct {
    int coef[COLOR_NB][EVAL_WEIGHT_COUNT];
    int phase;
    int scale[COLOR_NB];
    int mg, eg;   /* Red minus Black, before tapering */
    Score tapered; /* Red's view, after tapering, before scaling */
    Score red;     /* Red's view, final */
} EvalTrace;

/* Evaluate pos filling *trace; returns the score for the side to move. */
Score eval_traced(const Position *pos, EvalTrace *trace);
/* Score (Red's view, tapered and scaled) that `w` would give to a traced
 * position: how the tuner evaluates without the board. */
double eval_from_trace(const EvalTrace *trace, const Weight *w);
/* Index of a weight in the flat array. */
static inline int eval_weight_index(const Weight *w) {
    return (int)(((const char *)w - (const char *)&EvalW) / (ptrdiff_t)sizeof(Weight));
}
