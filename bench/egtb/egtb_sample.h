// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Positions drawn at random from a table (tuong-egtb sample): test
 * positions of a known value, e.g. won ones for measuring whether the
 * engine converts them (docs/egtb.md, "Converting won positions").
 *
 * Uniform over the table's legal entries of the asked value and side to
 * move, without repeats, reproducible for a seed. A table holds most
 * positions once up to the a <-> i mirror (docs/egtb.md, "Indexing"), so
 * this is uniform over positions up to that mirror. Positions come in the
 * table's frame: Red is the stronger side.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_table.h"
#include "move.h"
#include "position.h"

typedef enum { EGTB_WANT_WIN, EGTB_WANT_DRAW, EGTB_WANT_LOSS } EgtbWant;

/* Which side to move to draw from: the stronger side (Red in the table's
 * frame), the weaker, or both. */
typedef enum { EGTB_MOVER_STRONG, EGTB_MOVER_WEAK, EGTB_MOVER_ANY } EgtbMover;

typedef struct {
    uint64_t index;
    Color side; /* to move, in the table's frame */
} EgtbPick;

/* How many legal entries of t have value `want` for `mover`. */
uint64_t egtb_sample_count(const EgtbTable *t, EgtbWant want, EgtbMover mover);

/* Fill out[0..n) with n distinct entries drawn uniformly from those
 * counted above, in the order drawn. false with a message when fewer than
 * n exist or memory runs out. */
bool egtb_sample(const EgtbTable *t, EgtbWant want, EgtbMover mover, int n, uint64_t seed, EgtbPick *out, char *err,
                 size_t errlen);

/* One capture before a table position (docs/egtb.md, "Tables against
 * none: the SPRT"). p is a table position with X's owner O to move; x a
 * piece of O (not a king). Of the other side M's pieces, one is moved back
 * to a point from which it takes x, standing where that piece stood: q is
 * that position with M to move, and `capture` the move that leads back to
 * p. Every way to do so (the piece, the point it comes from: a point the
 * piece can stand on, empty in p, q legal as a table counts it, the capture
 * legal in q) is equally likely, drawn with *state. false when there is
 * none, or O already has as many of x's kind as the rules allow. */
bool egtb_en_prise(const Position *p, Piece x, uint64_t *state, Position *q, Move *capture);
