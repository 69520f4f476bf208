// SPDX-License-Identifier: GPL-3.0-or-later
/* Strength levels: the caps and the choice among lines (skill.h). */
#include "skill/skill.h"

#include <math.h>

#include "score.h"
#include "sys.h"
#include "zobrist.h"

/* Node cap of level 0, and how many levels double it. Level 0 still
 * completes depth 1 over SKILL_LINES lines (about 150-200 nodes). */
static const double NODES_LEVEL0 = 300;
static const double LEVELS_PER_DOUBLING = 2;
/* Depth cap: level + DEPTH_LEVEL0 plies. */
static const int DEPTH_LEVEL0 = 1;
/* Largest loss and temperature at level 0 (eval units: a horse ~100, a
 * chariot ~250); both shrink with the square of the distance to full
 * strength. */
static const double LOSS_CAP_LEVEL0 = 200;
static const double TEMPERATURE_LEVEL0 = 100;
/* randomness none/small/medium/large: lines this close to the best may be
 * played at any level (the temperature is at least half of it). */
static const double VarietyWindow[4] = {0, 5, 12, 25};

/*
 * UCI_Elo of each level (docs/levels.md, "Calibration"): the weighted
 * least-squares fit of two ladders measured with tuong-match at the
 * levels' own node caps, 200 games a pairing, main 69bc08f and 3664056
 * (the same engine, with its net):
 * even levels two apart (0-18) and every level against the next (0-19).
 * Anchor: ElephantEye 3.31 at `go nodes 20000`, no book, is 2200 by
 * convention; level 10 scored 51 % against it (+7; +4 over 600 games)
 * and is fixed at 2207. Level 20 (full strength, no cap) is level 19 plus
 * its measured step at 307,200 nodes a move, the node series' next term
 * (+210). skill_level_of_elo() interpolates.
 */
static const int LevelElo[SKILL_LEVEL_MAX + 1] = {
    917,  1000, 1087, 1221, 1301, 1428, 1577, 1772, 1907, 2054, 2207,
    2384, 2538, 2674, 2816, 2962, 3089, 3176, 3293, 3367, 3577,
};

double skill_level_of_elo(int elo) {
    if (elo <= LevelElo[0]) return 0;
    for (int i = 0; i < SKILL_LEVEL_MAX; i++)
        if (elo < LevelElo[i + 1]) return i + (double)(elo - LevelElo[i]) / (LevelElo[i + 1] - LevelElo[i]);
    return SKILL_LEVEL_MAX;
}

int skill_elo_of_level(double level) {
    if (level <= 0) return LevelElo[0];
    if (level >= SKILL_LEVEL_MAX) return LevelElo[SKILL_LEVEL_MAX];
    int i = (int)level;
    return LevelElo[i] + (int)lround((level - i) * (LevelElo[i + 1] - LevelElo[i]));
}

double skill_level(const SkillOptions *o) {
    return o->limit_strength ? skill_level_of_elo(o->elo) : o->level;
}

uint64_t skill_nodes(double level) { return (uint64_t)llround(NODES_LEVEL0 * exp2(level / LEVELS_PER_DOUBLING)); }

int skill_depth(double level) { return DEPTH_LEVEL0 + (int)level; }

/* A different stream in every process, for randomness above none. */
static uint64_t clock_seed(void) {
    static uint64_t state;
    static bool seeded;
    if (!seeded) {
        state = sys_entropy_seed();
        seeded = true;
    }
    return prng_next(&state);
}

SkillPlan skill_plan(const SkillOptions *o, bool plays_move, Key key) {
    SkillPlan p = {.lines = 1};
    double level = skill_level(o);
    int r = o->randomness < 0 ? 0 : o->randomness > 3 ? 3 : o->randomness;
    bool weak = level < SKILL_LEVEL_MAX;
    if (!plays_move || (!weak && r == 0)) return p;
    p.lines = SKILL_LINES;
    if (weak) {
        double w = (SKILL_LEVEL_MAX - level) / SKILL_LEVEL_MAX;
        p.nodes = skill_nodes(level);
        p.depth = skill_depth(level);
        p.one_thread = true;
        p.loss_cap = LOSS_CAP_LEVEL0 * w * w;
        p.temperature = TEMPERATURE_LEVEL0 * w * w;
    }
    p.loss_cap = fmax(p.loss_cap, VarietyWindow[r]);
    p.temperature = fmax(p.temperature, VarietyWindow[r] / 2);
    p.seed = r ? clock_seed() : key ^ 0x5DEECE66DULL;
    return p;
}

void skill_limit(const SkillPlan *p, uint64_t *nodes, int *depth) {
    if (p->nodes && (!*nodes || *nodes > p->nodes)) *nodes = p->nodes;
    if (p->depth && (!*depth || *depth > p->depth)) *depth = p->depth;
}

int skill_pick(const SkillPlan *p, const Score *scores, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (scores[i] > scores[best]) best = i;
    Score top = scores[best];
    if (p->lines <= 1 || p->temperature <= 0 || top == -SCORE_INFINITE || top >= SCORE_TB_WIN_IN_MAX) return best;
    double weight[MAX_MOVES], total = 0;
    for (int i = 0; i < n && i < MAX_MOVES; i++) {
        double loss = (double)top - scores[i];
        weight[i] = scores[i] != -SCORE_INFINITE && loss <= p->loss_cap ? exp(-loss / p->temperature) : 0;
        total += weight[i];
    }
    uint64_t state = p->seed;
    double x = (double)(prng_next(&state) >> 11) * 0x1p-53 * total; /* uniform in [0, total) */
    for (int i = 0; i < n && i < MAX_MOVES; i++) {
        if (weight[i] <= 0) continue;
        x -= weight[i];
        if (x < 0) return i;
    }
    return best; /* rounding left x at 0 */
}
