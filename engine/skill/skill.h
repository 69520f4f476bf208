// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Strength levels (docs/levels.md). A level runs from 0 (weakest) to
 * SKILL_LEVEL_MAX (full strength); UCI_Elo maps to a fractional level
 * through the measured table in skill.c.
 *
 * Below full strength a search that plays a move
 *   - stops after skill_nodes(level) nodes and skill_depth(level) plies
 *     (fast replies at low levels, and one thread, so a seed decides all),
 *   - searches SKILL_LINES MultiPV lines, and
 *   - plays one of them: line i, whose score is loss_i below the best,
 *     is drawn with weight exp(-loss_i / T) among the lines whose loss is
 *     at most `cap`; T and cap shrink with the level (at level 10 no line
 *     that loses half a horse or more is ever played). A winning mate the
 *     search found is always played.
 * `randomness` (small/medium/large) widens the choice at any level, full
 * strength included, to lines within a few units of the best, and draws
 * from a clock-seeded stream; with `randomness none` the draw is seeded by
 * the position's key, so the same search gives the same move.
 */
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

enum {
    SKILL_LEVEL_MAX = 20, /* full strength */
    SKILL_LINES = 4,      /* MultiPV lines a weakened search chooses among */
    SKILL_ELO_MIN = 800,  /* UCI_Elo range (the option's min and max) */
    SKILL_ELO_MAX = 3000,
    SKILL_ELO_DEFAULT = 1800,
};

typedef struct {
    int level;           /* Skill Level (UCI) / level (UCCI), 0..SKILL_LEVEL_MAX */
    bool limit_strength; /* UCI_LimitStrength: play at `elo` instead of `level` */
    int elo;             /* UCI_Elo, SKILL_ELO_MIN..SKILL_ELO_MAX */
    int randomness;      /* UCCI randomness: 0 none, 1 small, 2 medium, 3 large */
} SkillOptions;

/* What one search does to play at the chosen strength. */
typedef struct {
    int lines;         /* MultiPV lines to search; 1 = play the best line */
    uint64_t nodes;    /* node cap, 0 = none */
    int depth;         /* depth cap in plies, 0 = none */
    bool one_thread;   /* search on one thread whatever Threads says */
    double loss_cap;   /* a line that loses more (eval units) is never played */
    double temperature;
    uint64_t seed;     /* of the draw among the lines */
} SkillPlan;

/* The level the options ask for: `level`, or the level of `elo` with
 * limit_strength; SKILL_LEVEL_MAX is full strength. */
double skill_level(const SkillOptions *o);
/* The plan of a search from the options; plays_move is false for searches
 * that analyse (infinite, mate), which always run at full strength. key is
 * the root position's (the seed with randomness none). */
SkillPlan skill_plan(const SkillOptions *o, bool plays_move, Key key);
/* Lower a search's node and depth limits (0 = none) to the plan's caps. */
void skill_limit(const SkillPlan *p, uint64_t *nodes, int *depth);
/* Index of the line to play among n lines with these scores (best first;
 * -SCORE_INFINITE for a line without a score). */
int skill_pick(const SkillPlan *p, const Score *scores, int n);

/* The fractional level of a UCI_Elo and the Elo of a level (skill.c's
 * table, measured in docs/levels.md). */
double skill_level_of_elo(int elo);
int skill_elo_of_level(double level);
/* Node and depth caps of a level below full strength. */
uint64_t skill_nodes(double level);
int skill_depth(double level);
