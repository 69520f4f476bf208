// SPDX-License-Identifier: GPL-3.0-or-later
/* The numbers behind the UCCI grades (grades.h), in one place. */
#include "skill/grades.h"

static const int Contempt[3] = {-10, 0, 20};                /* solid, normal, risky */
static const int ReductionPercent[4] = {0, 33, 67, 100};    /* pruning none..large */
static const int LateMoveFactor[4] = {0, 4, 2, 1};          /* 0 = off */
static const bool NullMove[4] = {false, false, true, true};
static const int IdleDuty[4] = {1000, 750, 500, 250};       /* idle none..large */

static int grade_index(Grade g) { return g < GRADE_NONE ? GRADE_NONE : g > GRADE_LARGE ? GRADE_LARGE : g; }

int grade_contempt(Style s) { return Contempt[s < STYLE_SOLID ? STYLE_SOLID : s > STYLE_RISKY ? STYLE_RISKY : s]; }

int grade_reduction_percent(Grade pruning) { return ReductionPercent[grade_index(pruning)]; }

int grade_late_move_factor(Grade pruning) { return LateMoveFactor[grade_index(pruning)]; }

bool grade_null_move(Grade pruning) { return NullMove[grade_index(pruning)]; }

int grade_idle_duty(Grade idle) { return IdleDuty[grade_index(idle)]; }
