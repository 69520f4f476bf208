// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Every tunable constant of the search and the time manager, declared once:
 *
 *     X(NAME, default, min, max, step)
 *
 * min..max is the range the SPSA tuner (bench/tune, docs/tuning.md) may
 * explore and `step` its perturbation size (c_end). In a normal build each
 * NAME is a compile-time constant. In a tuning build (cmake
 * -DTUONG_TUNING=ON) each is a variable that the protocols expose as a spin
 * option of the same name, so tuong-match can set it per engine; `tuong
 * params` lists them in either build. `tuong-tune spsa` rewrites the
 * defaults in this file.
 *
 * Units: score margins are in evaluation units (a horse or cannon about 100,
 * a chariot about 250, a pawn about 20: eval_weights.c); SEE thresholds in
 * see.c's scale (a pawn 100, a chariot 900); reductions in 1/1024 ply;
 * history values in the tables' own units (at most HISTORY_MAX = 16384);
 * time factors in per mille.
 */

/* clang-format off */
#define TUONG_SEARCH_PARAMS(X) \
    X(ASP_WINDOW,            13,     4,    40,    2) \
    X(RFP_MAX_DEPTH,          8,     4,    12,    1) \
    X(RFP_MARGIN,            43,    10,    80,    4) \
    X(RFP_IMPROVING,         25,     0,    80,    4) \
    X(RAZOR_MAX_DEPTH,        2,     1,     8,    1) \
    X(RAZOR_BASE,            97,    20,   300,   15) \
    X(RAZOR_DEPTH2,          60,    10,   200,   10) \
    X(NMP_BASE,               3,     2,     5,    1) \
    X(NMP_DEPTH_DIV,          4,     2,     6,    1) \
    X(NMP_EVAL_DIV,          37,    15,   120,    6) \
    X(NMP_MARGIN,            41,     0,   120,    8) \
    X(NMP_DEPTH_MARGIN,       4,     0,    12,    1) \
    X(NMP_VERIFY_DEPTH,      14,     8,    24,    2) \
    X(IIR_CUT_DEPTH,          7,     3,    12,    1) \
    X(PROBCUT_MIN_DEPTH,      5,     3,     8,    1) \
    X(PROBCUT_MARGIN,        36,    10,   120,    6) \
    X(PROBCUT_IMPROVING,     13,     0,    50,    4) \
    X(SE_MIN_DEPTH,           6,     4,    10,    1) \
    X(SE_MARGIN,             18,     4,    48,    3) \
    X(SE_DOUBLE_MARGIN,       5,     0,    30,    2) \
    X(SE_TRIPLE_MARGIN,      21,     4,    80,    4) \
    X(SE_MAX_DOUBLE,          9,     0,    20,    2) \
    X(CHECK_EXT_MIN_DEPTH,   11,     1,    14,    1) \
    X(QS_CHECKS,              1,     0,     1,    1) \
    X(FAIL_HIGH_BLEND,        1,     0,     1,    1) \
    X(LMR_BASE,             325,     0,  2000,  100) \
    X(LMR_SCALE,            532,   300,   900,   30) \
    X(LMR_PV,               983,     0,  2048,  128) \
    X(LMR_CUT_NODE,        1812,     0,  3000,  128) \
    X(LMR_TT_CAPTURE,      1116,     0,  2048,  128) \
    X(LMR_TT_PV,           1135,     0,  2048,  128) \
    X(LMR_GIVES_CHECK,      662,     0,  2048,  128) \
    X(LMR_CUTOFFS,          935,     0,  2048,  128) \
    X(LMR_IMPROVING,        885,     0,  2048,  128) \
    X(LMR_REFUTATION,      1000,     0,  2048,  128) \
    X(LMR_HISTORY_DIV,     9010,  3000, 20000,  500) \
    X(LMR_DEEPER_MARGIN,     13,     0,    60,    4) \
    X(LMP_BASE,               4,     1,     8,    1) \
    X(FUT_MAX_DEPTH,          9,     4,    14,    1) \
    X(FUT_BASE,              29,     0,   120,    6) \
    X(FUT_PER_DEPTH,         27,     8,    80,    4) \
    X(FUT_CAP_BASE,          35,     0,   150,    8) \
    X(FUT_CAP_PER_DEPTH,     40,     8,   120,    6) \
    X(HIST_PRUNE_DEPTH,       4,     1,     8,    1) \
    X(HIST_PRUNE_MARGIN,   2567,   500,  8000,  300) \
    X(HIST_LMR_DEPTH_DIV,  6216,  2000, 16000,  500) \
    X(SEE_QUIET_MARGIN,      27,     5,    80,    4) \
    X(SEE_CAP_MARGIN,        91,    30,   250,   10) \
    X(SEE_CAP_HIST_DIV,      41,     8,   200,    8) \
    X(QS_FUT_MARGIN,         39,     0,   150,    8) \
    X(QS_SEE_MARGIN,         11,  -200,   100,   15) \
    X(HIST_BONUS_MUL,       286,    50,   600,   20) \
    X(HIST_BONUS_SUB,       259,     0,   600,   30) \
    X(HIST_BONUS_MAX,      2478,   800,  4000,  150) \
    X(HIST_MALUS_MUL,       303,    50,   600,   20) \
    X(HIST_MALUS_SUB,       221,     0,   600,   30) \
    X(HIST_MALUS_MAX,      2435,   800,  4000,  150) \
    X(CORR_PAWN_WEIGHT,      22,     0,   128,    8) \
    X(CORR_NONPAWN_WEIGHT,   58,     0,   128,    8) \
    X(TM_BASE_PERMILLE,      20,     8,    40,    2) \
    X(TM_PLY_PERMILLE,        4,     0,    12,    1) \
    X(TM_MAX_PERMILLE,      200,   100,   400,   20) \
    X(TM_HARD_FACTOR,      4000,  2000,  7000,  300) \
    X(TM_INSTABILITY,      1700,     0,  3000,  150) \
    X(TM_FALLING,            12,     0,    30,    2) \
    X(TM_NODES_BASE,       1600,   800,  2500,  100) \
    X(TM_NODES_SCALE,      1500,   500,  2500,  100) \
    X(TM_NEXT_ITERATION,    600,   300,  1000,   50)
/* clang-format on */

#ifdef TUONG_TUNING
#define TUONG_DECLARE_PARAM(name, def, lo, hi, step) extern int name;
TUONG_SEARCH_PARAMS(TUONG_DECLARE_PARAM)
#undef TUONG_DECLARE_PARAM
#else
#define TUONG_DECLARE_PARAM(name, def, lo, hi, step) name = def,
enum { TUONG_SEARCH_PARAMS(TUONG_DECLARE_PARAM) };
#undef TUONG_DECLARE_PARAM
#endif

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const char *name;
    int def, min, max, step;
    int *value; /* the live variable in a tuning build, NULL otherwise */
} SearchParam;

extern const SearchParam SearchParams[];
extern const int SearchParamCount;

/* The parameter called `name` (case-insensitive), or NULL. */
const SearchParam *params_find(const char *name);
/* Set a parameter of a tuning build; false if unknown, out of range, or a
 * normal build (where the constants cannot change). */
bool params_set(const char *name, int value);
/* Print `name,value,min,max,step` lines (the SPSA tuner reads them). */
void params_print(FILE *out);
/* Is this a tuning build? */
bool params_tunable(void);
