// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * tuong-egtb rulefacts: the rule-loop chess facts of egtb_rule.h printed
 * for a stream of positions, in a plain text format that a harness built
 * from xiangqitb's own functions prints too, so `diff` compares the two
 * (docs/egtb.md, "Rule loop in Tuong"). Per position:
 *
 *   fen FEN
 *   attacks C MOVES          the side to move's attacks (C = r or b)
 *   attacks C MOVES          the other side's, as if it were to move
 *   move M escape POINTS marking 0|1|- new POINTS check 0|1
 *                            one line per legal quiet move of the side to
 *                            move: the points it rescues, whether the
 *                            first marking counts it an escape (- when in
 *                            check: the marking does not ask), the points
 *                            it newly attacks, whether it gives check
 *
 * Moves as from-point and to-point ("b4b8"), points as "b4"; lists are
 * comma-separated in square order (a0, b0, ..., i9), "-" when empty; moves
 * sorted by from-point, then to-point.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"

/* Print pos's facts (pos is left as it was). */
void egtb_rulefacts_print(Position *pos, FILE *out);

/* Print the facts of `count` legal positions of signature `sig` drawn at
 * random (uniform over the table's indices and both sides to move,
 * reproducible for a seed), in the table's frame. false with a message on
 * a bad signature, on memory, or when legal positions are too rare to
 * find. */
bool egtb_rulefacts_random(const char *sig, uint64_t count, uint64_t seed, FILE *out, char *err, size_t errlen);

/* Print the facts of each FEN in `in`, one a line (a leading "fen " is
 * skipped, empty lines too); false with a message at the first bad FEN. */
bool egtb_rulefacts_fens(FILE *in, FILE *out, char *err, size_t errlen);
