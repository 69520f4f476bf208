// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Endgame signatures in xiangqitb's naming (docs/egtb.md, "Signatures").
 *
 * A signature is the material of both sides, written as the stronger side's
 * pieces then the weaker side's, each starting with its king, letters in the
 * order K A B R N C P (A advisor, B elephant, R chariot, N horse, C cannon,
 * P pawn): "KRKAA" is a chariot against two advisors. Which side is the
 * stronger ("white" in xiangqitb, Red in a table's frame) is decided by a
 * fixed weight per piece (chariot 4000, horse 600, cannon 603, pawn 80,
 * advisor 11, elephant 10); the heavier side comes first, so "KAAKR" names
 * the same table as "KRKAA".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"
#include "types.h"

enum { EGTB_NAME_MAX = 24 };

/* Piece counts per colour and type, in the table's frame: RED is the
 * stronger side, BLACK the weaker. count[c][KING] is always 1. */
typedef struct {
    uint8_t count[COLOR_NB][TYPE_NB];
} EgtbMaterial;

/* Parse and normalise a signature; on failure err holds the reason. */
bool egtb_sig_parse(EgtbMaterial *mat, const char *name, char *err, size_t errlen);
/* The normalised name ("KRKAA") into buf (at least EGTB_NAME_MAX bytes). */
char *egtb_sig_name(const EgtbMaterial *mat, char *buf);
/* The material of a position as it stands (RED = Red, no normalising). */
void egtb_sig_of_position(const Position *pos, EgtbMaterial *mat);
/* Swap the sides if Black is the heavier one; returns whether it swapped. */
bool egtb_sig_normalise(EgtbMaterial *mat);
/* Same material for both sides (xiangqitb then keeps one table only)? */
bool egtb_sig_symmetric(const EgtbMaterial *mat);
/* Does colour c have a chariot, horse, cannon or pawn ("free attacker")? */
bool egtb_sig_has_attackers(const EgtbMaterial *mat, Color c);
/* xiangqitb's material key: the smaller of the key of mat and of mat with
 * the colours swapped (docs/egtb.md, "File header"). */
uint32_t egtb_sig_material_key(const EgtbMaterial *mat);
/* Pieces of both sides besides the kings. */
int egtb_sig_piece_count(const EgtbMaterial *mat);
/* Is the material within a game's piece set (2 A, 2 B, 2 R, 2 N, 2 C, 5 P)? */
bool egtb_sig_valid(const EgtbMaterial *mat);
