// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Small endgame tables for the tests: solved in memory, found by name.
 * Include after test_support.h (cmocka). */
#include "egtb_solve.h"

/* Solve the signatures NAMES[0..COUNT-1] in order (smaller tables first, so
 * that each finds the ones its captures lead to) into SET, which must have
 * been initialised. False with a line on stderr naming the table that
 * failed: for a cmocka setup function to return -1. */
bool egtb_test_build(EgtbSet *set, const char *const *names, int count, int threads);
/* The same, each table also given its DTM (egtb_solve_dtm, or
 * egtb_solve_dtm_rule where both sides attack) and checked against its
 * DTC (egtb_dtm_check). */
bool egtb_test_build_dtm(EgtbSet *set, const char *const *names, int count, int threads);

/* The table of signature NAME in SET; fails the test when there is none. */
EgtbTable *egtb_test_table(EgtbSet *set, const char *name);
