// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Repetition judgement under the Asian (AXF) rules: RULES.md, and
 * docs/rules.md for every rule with the rule book's example that tests it.
 *
 * A repetition cycle is the run of plies between two occurrences of the same
 * key with the same side to move, with no capture and no null move between
 * them. For each side the judge asks what every one of its moves did:
 *   - perpetual check: every move gave check;
 *   - perpetual chase: every move chased one and the same enemy piece
 *     (tracked as it moves, chased by one attacker or several in turn): the
 *     move created a legal capture of it that is not an offer to exchange,
 *     and it is unprotected (no legal recapture) or a chariot under a horse
 *     or cannon; kings and pawns never chase, the king and uncrossed pawns
 *     are never chased. A chase made only by removing a protection is the
 *     lesser offence;
 *   - anything else is idle (a check among chases, chases of several pieces).
 * Check is worse than chase, chase worse than idle: the worse offender loses,
 * equal conduct (both idle, both checking, both chasing) is a draw.
 *
 * The verdict is from the point of view of the side to move in pos, so the
 * search can score a repeated node directly. Nothing in pos is modified: the
 * judge replays the cycle on a per-thread scratch board.
 */
#include <stdbool.h>

#include "position.h"

typedef enum {
    REP_NONE = 0, /* the current position is no repetition */
    REP_DRAW,     /* a repetition nobody is forced to avoid */
    REP_WIN,      /* the side to move wins: the opponent checked or chased perpetually */
    REP_LOSS,     /* the side to move loses: it checked or chased perpetually */
} RepVerdict;

/* What one side did with every one of its moves of a cycle. */
typedef enum { REP_IDLE = 0, REP_CHECK = 1, REP_CHASE = 2 } RepConduct;

typedef struct {
    RepVerdict verdict;
    RepConduct conduct[COLOR_NB]; /* per colour: forbidden conduct, or REP_IDLE */
    /* Per colour: idle for good, not every move a check and no one piece
     * chased by every move, so no longer span from the same start can make
     * that side an offender. (Idle by chasing the same two pieces with every
     * move is not for good: a longer span may narrow it to one.) */
    bool idle_for_good[COLOR_NB];
    int start_ply; /* history index of the earlier occurrence */
} RepJudgement;

/* Judge the most recent repetition of the current position (since the last
 * capture or null move): REP_NONE when the key has not occurred before. */
RepVerdict rep_judge(const Position *pos);

/* Judge the cycle from history[start_ply] to the current position; the keys
 * of both must be equal and no capture or null move may lie between. */
RepJudgement rep_judge_cycle(const Position *pos, int start_ply);

/* How many times the current position has occurred since the last capture
 * or null move, counting itself (1 = first time); *first_ply receives the
 * history index of the earliest occurrence when first_ply is not NULL. */
int rep_count(const Position *pos, int *first_ply);

/* Name of a conduct for messages: "check", "chase", "idle". */
const char *rep_conduct_name(RepConduct c);
