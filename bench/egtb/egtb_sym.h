// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Symmetric signatures (both sides the same pieces: KRKR, KNKN, KAPKAP;
 * docs/egtb.md, "Symmetric signatures"). xiangqitb solves them as any
 * other signature, both sides to move in the one frame (a quiet move never
 * turns the board while generating, its rule loop included), and then
 * stores only White (Red) to move: the position with Black to move is the
 * board turned through the river with the colours exchanged
 * (egtb_index_of). Tuong's solver does the same; what is read back from a
 * one-table file gets its Black-to-move side from the stored side here.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_table.h"

/* For a symmetric t whose Red-to-move values (and orders, if any) are
 * set: fill Black to move from them, each Black-to-move index taking the
 * value of its turned position. Illegal positions stay EGTB_ILLEGAL (the
 * turn keeps legality). false with a message on memory. */
bool egtb_sym_fill_black(EgtbTable *t, char *err, size_t errlen);

/* The same for t's DTM (t->dtm, both arrays allocated): Black to move
 * from the stored Red to move. false with a message on memory. */
bool egtb_sym_fill_black_dtm(EgtbTable *t, char *err, size_t errlen);

/* For a symmetric t with both sides solved: how many legal Black-to-move
 * positions differ in value or order from their turned Red-to-move
 * position (0 when the solve treated the two colours alike; the file keeps
 * only Red to move either way). UINT64_MAX on memory. */
uint64_t egtb_sym_differences(const EgtbTable *t);
