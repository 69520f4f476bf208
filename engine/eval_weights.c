/* Evaluation weights {midgame, endgame}, one line per term of eval_terms.h.
 * Written by tuong-tune (bench/tune, docs/eval.md); edit by hand only to seed a new term.
 */
#include "eval_terms.h"

const EvalWeights EvalW = {
    /* pieces, by type */
    .Material = {
        {0, 0}, {0, 0}, {22, 28}, {22, 28}, {100, 116}, {215, 230},
        {100, 88}, {10, 16},
    },
    /* king placement */
    .PsqtKing = {
        {0, 0}, {0, 0}, {0, 0}, {-6, -4}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {-12, -6}, {-8, -2}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {-25, -12}, {-20, -8}, /* rank 2 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 3 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 4 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 5 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 6 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 7 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 8 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 9 */
    },
    /* advisor placement */
    .PsqtAdvisor = {
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {3, 2}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {-3, -2}, {0, 0}, /* rank 2 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 3 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 4 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 5 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 6 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 7 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 8 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 9 */
    },
    /* elephant placement */
    .PsqtElephant = {
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 1 */
        {-3, -2}, {0, 0}, {0, 0}, {0, 0}, {5, 3}, /* rank 2 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 3 */
        {0, 0}, {0, 0}, {-2, -1}, {0, 0}, {0, 0}, /* rank 4 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 5 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 6 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 7 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 8 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 9 */
    },
    /* horse placement */
    .PsqtHorse = {
        {-22, -14}, {-13, -8}, {-8, -4}, {-7, -3}, {-10, -3}, /* rank 0 */
        {-15, -10}, {-6, -4}, {-1, 0}, {0, 1}, {-15, -3}, /* rank 1 */
        {-12, -8}, {-3, -2}, {2, 2}, {3, 3}, {0, 3}, /* rank 2 */
        {-10, -6}, {-1, 0}, {4, 4}, {5, 5}, {2, 5}, /* rank 3 */
        {-7, -4}, {2, 2}, {7, 6}, {8, 7}, {5, 7}, /* rank 4 */
        {-4, -2}, {5, 4}, {10, 8}, {11, 9}, {8, 9}, /* rank 5 */
        {0, 0}, {9, 6}, {14, 10}, {15, 11}, {12, 11}, /* rank 6 */
        {2, 0}, {11, 6}, {16, 10}, {17, 11}, {14, 11}, /* rank 7 */
        {-4, -3}, {5, 3}, {10, 7}, {11, 8}, {8, 8}, /* rank 8 */
        {-16, -12}, {-7, -6}, {-2, -2}, {-1, -1}, {-4, -1}, /* rank 9 */
    },
    /* chariot placement */
    .PsqtChariot = {
        {-10, -4}, {-4, -2}, {-5, -2}, {0, 0}, {-2, 0}, /* rank 0 */
        {-6, -2}, {0, 0}, {-1, 0}, {4, 2}, {2, 2}, /* rank 1 */
        {-6, -2}, {0, 0}, {-1, 0}, {4, 2}, {2, 2}, /* rank 2 */
        {-4, -2}, {2, 0}, {1, 0}, {6, 2}, {4, 2}, /* rank 3 */
        {-2, 0}, {4, 2}, {3, 2}, {8, 4}, {6, 4}, /* rank 4 */
        {-2, 0}, {4, 2}, {3, 2}, {8, 4}, {6, 4}, /* rank 5 */
        {-3, 0}, {3, 2}, {2, 2}, {7, 4}, {5, 4}, /* rank 6 */
        {-1, 1}, {5, 3}, {4, 3}, {9, 5}, {7, 5}, /* rank 7 */
        {2, 2}, {8, 4}, {7, 4}, {12, 6}, {10, 6}, /* rank 8 */
        {-2, 0}, {4, 2}, {3, 2}, {8, 4}, {6, 4}, /* rank 9 */
    },
    /* cannon placement */
    .PsqtCannon = {
        {-4, -2}, {0, 0}, {0, 0}, {2, 2}, {8, 4}, /* rank 0 */
        {-3, -2}, {1, 0}, {1, 0}, {3, 2}, {9, 4}, /* rank 1 */
        {-2, -1}, {2, 1}, {2, 1}, {4, 3}, {10, 5}, /* rank 2 */
        {-3, -1}, {1, 1}, {1, 1}, {3, 3}, {9, 5}, /* rank 3 */
        {-4, -1}, {0, 1}, {0, 1}, {2, 3}, {8, 5}, /* rank 4 */
        {-4, -1}, {0, 1}, {0, 1}, {2, 3}, {8, 5}, /* rank 5 */
        {-4, -1}, {0, 1}, {0, 1}, {2, 3}, {8, 5}, /* rank 6 */
        {-3, -1}, {1, 1}, {1, 1}, {3, 3}, {9, 5}, /* rank 7 */
        {-2, -2}, {2, 0}, {2, 0}, {4, 2}, {10, 4}, /* rank 8 */
        {-1, -2}, {3, 0}, {3, 0}, {5, 2}, {11, 4}, /* rank 9 */
    },
    /* pawn placement */
    .PsqtPawn = {
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 2 */
        {-2, -2}, {0, 0}, {0, 0}, {0, 0}, {2, 2}, /* rank 3 */
        {0, 0}, {0, 0}, {2, 2}, {0, 0}, {4, 3}, /* rank 4 */
        {-4, 0}, {2, 4}, {5, 6}, {10, 10}, {10, 10}, /* rank 5 */
        {2, 8}, {8, 12}, {11, 14}, {16, 18}, {16, 18}, /* rank 6 */
        {6, 12}, {12, 16}, {15, 18}, {20, 22}, {20, 22}, /* rank 7 */
        {4, 8}, {10, 12}, {13, 14}, {18, 18}, {18, 18}, /* rank 8 */
        {-14, -10}, {-8, -6}, {-5, -4}, {0, 0}, {0, 0}, /* rank 9 */
    },
    /* chariot, by points reached */
    .ChariotMobility = {
        {-15, -18}, {-13, -15}, {-11, -13}, {-8, -10}, {-6, -8}, {-4, -5},
        {-2, -2}, {0, 0}, {3, 3}, {5, 5}, {7, 8}, {9, 11},
        {11, 13}, {14, 16}, {16, 18}, {18, 21}, {18, 22}, {18, 22},
    },
    /* horse, by jumps with a free leg */
    .HorseMobility = {
        {-30, -36}, {-14, -16}, {-5, -6}, {0, 0}, {4, 5}, {7, 8},
        {9, 10}, {10, 11}, {11, 12},
    },
    /* cannon, by quiet moves */
    .CannonMobility = {
        {-6, -4}, {-5, -4}, {-4, -3}, {-4, -2}, {-3, -2}, {-2, -2},
        {-1, -1}, {0, 0}, {0, 0}, {1, 0}, {2, 1}, {3, 2},
        {4, 2}, {4, 2}, {5, 3}, {5, 3}, {5, 3}, {5, 3},
    },
    /* missing advisors x enemy pieces over the river, by kind */
    .AdvisorMissingVsAttacker = {
        {-10, -8}, {-9, -8}, {-5, -3}, {-3, -4},
    },
    /* missing elephants x enemy pieces over the river, by kind */
    .ElephantMissingVsAttacker = {
        {-5, -4}, {-3, -2}, {-8, -5}, {-1, -1},
    },
    /* attacks on enemy palace points, by attacker kind */
    .PalaceAttack = {
        {3, 2}, {4, 3}, {3, 1}, {3, 3},
    },
    /* pieces attacking the enemy palace, by count */
    .KingAttackers = {
        {0, 0}, {0, 0}, {8, 4}, {20, 10}, {35, 18},
    },
    .ChariotOpenFile = {6, 4}, /* chariot on a file without pawns */
    .ChariotHalfOpenFile = {3, 2}, /* chariot on a file without own pawns */
    .ChariotEnemyBackRanks = {5, 3}, /* chariot on the enemy's last two ranks */
    .CannonEmptyHead = {50, 20}, /* cannon facing the enemy king with nothing between */
    .CannonBottom = {6, 2}, /* cannon on the enemy back rank */
    .CannonPalaceControl = {3, 1}, /* palace points a cannon hits over a screen */
    .CannonCaptureTargets = {2, 1}, /* enemy pieces a cannon attacks */
    .HorseLegBlocked = {-3, -3}, /* blocked horse legs */
    .HorseNearPalace = {6, 6}, /* horse on files c-g of the enemy's last four ranks */
    .PawnCrossed = {12, 20}, /* pawn over the river */
    .PawnConnected = {6, 8}, /* crossed pawns side by side */
    .PawnNearPalace = {6, 10}, /* crossed pawn in or next to the enemy palace */
    .PawnLastRank = {-8, -10}, /* old pawn on the enemy back rank */
    .KingOffHome = {-6, 0}, /* king off its home point */
    .Tempo = {6, 3}, /* side to move */
};
