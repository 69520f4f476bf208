// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Static evaluation from the side to move's point of view. */
#include <stdio.h>

#include "position.h"
#include "types.h"

/*
 * How much the evaluation knows (UCCI `knowledge`, docs/levels.md):
 *   none    material only
 *   small   material, piece-square tables and the tempo
 *   medium  the hand-crafted evaluation without king safety (no palace
 *           attacks, attacker counts or missing defenders)
 *   large   everything: the network when one is in use, else the whole
 *           hand-crafted evaluation (the default)
 */
typedef enum { KNOWLEDGE_NONE = 0, KNOWLEDGE_SMALL, KNOWLEDGE_MEDIUM, KNOWLEDGE_LARGE } EvalKnowledge;

/* Score of pos for the side to move: the network when one is loaded and
 * switched on (engine/nnue), else the hand-crafted evaluation; less of it
 * below KNOWLEDGE_LARGE. */
Score evaluate(const Position *pos);
/* Set / read the knowledge grade (the caller clears cached evaluations). */
void eval_set_knowledge(EvalKnowledge k);
EvalKnowledge eval_knowledge(void);
/* The hand-crafted evaluation alone. */
Score eval_classical(const Position *pos);
/* Print the hand-crafted evaluation broken down by term, for both sides,
 * to out; each line is prefixed by `prefix` (e.g. "info string " for UCI). */
void eval_trace(const Position *pos, const char *prefix, FILE *out);
