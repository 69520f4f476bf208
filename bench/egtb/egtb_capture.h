// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Captures out of a table: the smaller table each captured piece leads to,
 * found once per table rather than per move (by name in the set), and the
 * value of a capture's child from it. Shared by the solver (step 1) and
 * verify, which both score every capture of every position.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_table.h"

typedef struct {
    /* By captured piece: the table of what is left, NULL where no side
     * keeps an attacker (then the child is a draw without a table). */
    const EgtbTable *sub[PIECE_NB];
    bool dtm; /* values from the smaller tables' DTM instead of their DTC */
} EgtbCaptures;

/* The tables the captures in mat (normalised) enter, from set (loaded from
 * its DIR if need be), with their DTM when dtm; false with a message when
 * one is missing. The set must keep them while c is used. */
bool egtb_captures_init(EgtbCaptures *c, EgtbSet *set, const EgtbMaterial *mat, bool dtm, char *err,
                        size_t errlen);

/* The value, for the side then to move, of the position after capture m
 * in pos (a position of mat in the table's frame). The move is made and
 * taken back on the boards only, so pos needs no key or check state. */
uint16_t egtb_capture_value(const EgtbCaptures *c, Position *pos, Move m);
