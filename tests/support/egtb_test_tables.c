// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_support.h"

#include "egtb_test_tables.h"

#include <stdlib.h>

#include "egtb_dtm_rule.h"

/* As build --dtm: xiangqitb's rule steps where both sides attack. */
static bool solve_dtm(EgtbTable *t, EgtbSet *set, int threads, EgtbSolveStats *st, char *err, size_t errlen) {
    if (egtb_sig_has_attackers(&t->lay.mat, RED) && egtb_sig_has_attackers(&t->lay.mat, BLACK))
        return egtb_solve_dtm_rule(t, set, err, errlen);
    return egtb_solve_dtm(t, set, threads, st, err, errlen);
}

static bool build(EgtbSet *set, const char *const *names, int count, int threads, bool dtm) {
    for (int i = 0; i < count; i++) {
        EgtbMaterial mat;
        char err[256] = "";
        EgtbSolveStats st;
        EgtbTable *t = malloc(sizeof *t);
        if (!t || !egtb_sig_parse(&mat, names[i], err, sizeof err) || !egtb_table_alloc(t, &mat, err, sizeof err) ||
            !egtb_solve(t, set, threads, &st, err, sizeof err) ||
            (dtm && (!solve_dtm(t, set, threads, &st, err, sizeof err) || !egtb_dtm_check(t, err, sizeof err))) ||
            !egtb_set_add(set, t)) {
            fprintf(stderr, "building %s: %s\n", names[i], err[0] ? err : "out of memory");
            return false;
        }
    }
    return true;
}

bool egtb_test_build(EgtbSet *set, const char *const *names, int count, int threads) {
    return build(set, names, count, threads, false);
}

bool egtb_test_build_dtm(EgtbSet *set, const char *const *names, int count, int threads) {
    return build(set, names, count, threads, true);
}

EgtbTable *egtb_test_table(EgtbSet *set, const char *name) {
    EgtbMaterial mat;
    char err[256];
    if (!egtb_sig_parse(&mat, name, err, sizeof err)) fail_msg("%s", err);
    EgtbTable *t = egtb_set_get(set, &mat, err, sizeof err);
    if (!t) fail_msg("%s", err);
    return t;
}
