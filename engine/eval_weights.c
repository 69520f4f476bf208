// SPDX-License-Identifier: GPL-3.0-or-later
/* Evaluation weights {midgame, endgame}, one line per term of eval_terms.h.
 * Written by tuong-tune (bench/tune, docs/eval.md); edit by hand only to seed a new term.
 * Texel-tuned on train3k.txt: 262407 positions, 600 iterations, lr 0.1, l2 1e-07, min-count 200, K 0.9235, frozen Tempo
 * (Round 1, de63772, tuned at commit 940ac80: docs/eval.md has the self-play and split commands.
 * KnownWin was added by hand afterwards, 0d09eee: hand-set, never fitted.)
 */
#include "eval_terms.h"

const EvalWeights EvalW = {
    /* pieces, by type */
    .Material = {
        {0, 0}, {0, 0}, {30, 14}, {20, 16}, {90, 110}, {245, 263},
        {107, 86}, {20, 26},
    },
    /* king placement */
    .PsqtKing = {
        {0, 0}, {0, 0}, {0, 0}, {-5, -4}, {4, 1}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {-13, -7}, {-11, 2}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {-26, -15}, {-20, -8}, /* rank 2 */
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
        {0, 0}, {0, 0}, {0, 0}, {-8, -5}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {23, -8}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {-7, -1}, {0, 0}, /* rank 2 */
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
        {0, 0}, {0, 0}, {3, -1}, {0, 0}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 1 */
        {-14, -8}, {0, 0}, {0, 0}, {0, 0}, {16, -1}, /* rank 2 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 3 */
        {0, 0}, {0, 0}, {-8, -2}, {0, 0}, {0, 0}, /* rank 4 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 5 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 6 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 7 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 8 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 9 */
    },
    /* horse placement */
    .PsqtHorse = {
        {-22, -14}, {-4, -1}, {-8, -4}, {-12, -7}, {-10, -3}, /* rank 0 */
        {-17, -12}, {-6, -4}, {-6, -1}, {-1, 2}, {-17, -3}, /* rank 1 */
        {-18, -9}, {-5, -4}, {4, 6}, {7, 7}, {-1, 4}, /* rank 2 */
        {-9, -6}, {-2, -2}, {2, 3}, {2, 3}, {4, 4}, /* rank 3 */
        {-7, -4}, {3, 2}, {8, 6}, {9, 8}, {6, 8}, /* rank 4 */
        {-4, -3}, {5, 4}, {10, 8}, {12, 9}, {10, 8}, /* rank 5 */
        {-1, -1}, {9, 6}, {12, 4}, {16, 11}, {11, 11}, /* rank 6 */
        {3, 1}, {12, 7}, {14, 6}, {16, 8}, {15, 13}, /* rank 7 */
        {-5, -4}, {4, 2}, {11, 10}, {12, 9}, {8, 8}, /* rank 8 */
        {-15, -12}, {-8, -6}, {-1, -1}, {-1, -1}, {-4, -1}, /* rank 9 */
    },
    /* chariot placement */
    .PsqtChariot = {
        {-11, 1}, {4, 0}, {-2, 0}, {0, 1}, {-2, 0}, /* rank 0 */
        {0, -1}, {2, 0}, {-4, -1}, {0, 1}, {0, 1}, /* rank 1 */
        {-7, -2}, {2, 1}, {1, 3}, {5, 6}, {2, 3}, /* rank 2 */
        {-2, -1}, {5, 4}, {2, 2}, {9, 6}, {6, 5}, /* rank 3 */
        {-1, 2}, {1, 3}, {3, 4}, {10, 9}, {6, 5}, /* rank 4 */
        {-1, 1}, {-1, 0}, {7, 4}, {10, 2}, {6, 5}, /* rank 5 */
        {-2, 1}, {3, 3}, {3, 4}, {8, 6}, {7, 7}, /* rank 6 */
        {1, 3}, {-2, -1}, {7, 5}, {9, 8}, {8, 6}, /* rank 7 */
        {4, 4}, {6, 0}, {6, 0}, {11, 1}, {11, 7}, /* rank 8 */
        {-1, 1}, {5, -1}, {7, 4}, {8, -1}, {5, 3}, /* rank 9 */
    },
    /* cannon placement */
    .PsqtCannon = {
        {-4, -2}, {0, 0}, {0, -1}, {1, 2}, {6, 3}, /* rank 0 */
        {-5, -2}, {1, 0}, {2, 1}, {3, 4}, {11, 3}, /* rank 1 */
        {3, 1}, {5, 4}, {6, 2}, {8, 1}, {11, 4}, /* rank 2 */
        {-4, -1}, {3, 0}, {1, 2}, {1, 2}, {9, 3}, /* rank 3 */
        {-1, -1}, {1, 1}, {0, 0}, {4, 3}, {17, 7}, /* rank 4 */
        {-4, -1}, {0, 2}, {1, 1}, {-2, 2}, {12, 7}, /* rank 5 */
        {-4, 0}, {-4, 1}, {-1, 1}, {0, 2}, {3, 6}, /* rank 6 */
        {-2, 0}, {1, 3}, {1, 2}, {0, -1}, {9, 4}, /* rank 7 */
        {-2, -2}, {-9, -5}, {1, -3}, {4, 2}, {9, 4}, /* rank 8 */
        {4, 1}, {4, 0}, {5, 2}, {2, 1}, {10, 3}, /* rank 9 */
    },
    /* pawn placement */
    .PsqtPawn = {
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 0 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 1 */
        {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, /* rank 2 */
        {-1, 14}, {0, 0}, {0, 3}, {0, 0}, {5, 2}, /* rank 3 */
        {3, 0}, {0, 0}, {4, 4}, {0, 0}, {4, 5}, /* rank 4 */
        {1, 5}, {2, 5}, {6, 4}, {12, 9}, {17, 15}, /* rank 5 */
        {1, 9}, {8, 11}, {8, 7}, {13, 10}, {17, 18}, /* rank 6 */
        {5, 14}, {10, 14}, {13, 13}, {19, 25}, {19, 23}, /* rank 7 */
        {3, 7}, {9, 10}, {15, 15}, {19, 19}, {18, 18}, /* rank 8 */
        {-14, -10}, {-8, -6}, {-5, -5}, {0, -1}, {0, 0}, /* rank 9 */
    },
    /* chariot, by points reached */
    .ChariotMobility = {
        {-15, -18}, {-16, -16}, {-11, -11}, {-2, -8}, {-1, -6}, {3, -2},
        {-3, -4}, {7, 7}, {5, 6}, {6, 9}, {10, 12}, {17, 17},
        {15, 16}, {10, 17}, {22, 22}, {20, 24}, {10, 19}, {16, 21},
    },
    /* horse, by jumps with a free leg */
    .HorseMobility = {
        {-24, -37}, {-13, -13}, {-8, -5}, {0, 2}, {-6, 3}, {4, 11},
        {6, 5}, {12, 9}, {10, 8},
    },
    /* cannon, by quiet moves */
    .CannonMobility = {
        {-7, -6}, {-8, -7}, {-1, -3}, {1, 0}, {-1, 0}, {-2, -3},
        {-2, -1}, {-2, -1}, {2, 1}, {6, 1}, {1, 0}, {2, 4},
        {8, 1}, {2, -1}, {3, 3}, {3, 2}, {4, 3}, {6, 5},
    },
    /* missing advisors x enemy pieces over the river, by kind */
    .AdvisorMissingVsAttacker = {
        {-30, -8}, {-11, -8}, {4, 14}, {0, -18},
    },
    /* missing elephants x enemy pieces over the river, by kind */
    .ElephantMissingVsAttacker = {
        {-8, 7}, {-7, -7}, {5, 7}, {7, -18},
    },
    /* attacks on enemy palace points, by attacker kind */
    .PalaceAttack = {
        {3, -1}, {5, -8}, {-3, 0}, {-1, -1},
    },
    /* pieces attacking the enemy palace, by count */
    .KingAttackers = {
        {2, 3}, {-1, 7}, {6, -3}, {22, 9}, {34, 16},
    },
    .ChariotOpenFile = {14, 14}, /* chariot on a file without pawns */
    .ChariotHalfOpenFile = {3, 10}, /* chariot on a file without own pawns */
    .ChariotEnemyBackRanks = {8, -11}, /* chariot on the enemy's last two ranks */
    .CannonEmptyHead = {52, 8}, /* cannon facing the enemy king with nothing between */
    .CannonBottom = {10, 4}, /* cannon on the enemy back rank */
    .CannonPalaceControl = {-3, 0}, /* palace points a cannon hits over a screen */
    .CannonCaptureTargets = {11, 10}, /* enemy pieces a cannon attacks */
    .HorseLegBlocked = {-5, -9}, /* blocked horse legs */
    .HorseNearPalace = {4, -2}, /* horse on files c-g of the enemy's last four ranks */
    .PawnCrossed = {14, 7}, /* pawn over the river */
    .PawnConnected = {0, -7}, /* crossed pawns side by side */
    .PawnNearPalace = {3, 0}, /* crossed pawn in or next to the enemy palace */
    .PawnLastRank = {-9, -12}, /* old pawn on the enemy back rank */
    .KingOffHome = {-10, -1}, /* king off its home point */
    .KnownWin = {120, 120}, /* material that wins by endgame theory (endgame.c) */
    .Tempo = {6, 3}, /* side to move */
};
