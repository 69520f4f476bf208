// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * What the UCCI grades mean to the search (docs/levels.md). The options
 * `idle`, `pruning`, `knowledge` and `randomness` take none/small/medium/
 * large, `style` takes solid/normal/risky; the numbers here are all they
 * change. `knowledge` is the evaluation's (eval.h), `randomness` the
 * skill's (skill.h) and the book's (book/book_pick.h).
 */
#include <stdbool.h>

typedef enum { GRADE_NONE = 0, GRADE_SMALL, GRADE_MEDIUM, GRADE_LARGE } Grade;
typedef enum { STYLE_SOLID = 0, STYLE_NORMAL, STYLE_RISKY } Style;

/* style: the contempt, how much worse than 0 a draw is for Tuong (eval
 * units; a pawn ~20). Solid takes a draw a little ahead, risky avoids one
 * unless clearly behind. */
int grade_contempt(Style s);

/* pruning: late-move reductions in per cent of the full ones, late-move
 * pruning's move counts multiplied by a factor (0: no late-move pruning),
 * and whether null-move pruning runs. Less pruning reaches a depth with
 * more nodes and overlooks less at that depth. */
int grade_reduction_percent(Grade pruning);
int grade_late_move_factor(Grade pruning);
bool grade_null_move(Grade pruning);

/* idle: the share of wall time, per mille, the search threads run (the
 * rest they sleep), to leave the processor to other programs. */
int grade_idle_duty(Grade idle);
