// SPDX-License-Identifier: GPL-3.0-or-later
/* The retrograde solver (bench/egtb/egtb_solve.c): its tables equal, value
 * for value, those of the solver it replaced (which stored every quiet move
 * as an edge), and pass the move-by-move verify. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_codec.h"
#include "egtb_solve.h"
#include "egtb_test_tables.h"
#include "egtb_verify.h"

/* XXH64 (seed 0) of both value arrays, Red to move then Black, as the
 * edge-storing solver (commit a264cb0) made them: a horse, a pawn and two
 * attackers together, and the defences that give long conversions. */
typedef struct {
    const char *name;
    uint64_t hash;
} Reference;

static const Reference Old[] = {
    {"KRK", 0xc6dbe25f08425dc7ull},  {"KNK", 0x012a365ebf99d5d6ull},   {"KPK", 0x804e129dbd566e4full},
    {"KCK", 0xace6216cc3128af8ull},  {"KRKA", 0xe82605163c399606ull},  {"KNKA", 0x05979082397433ffull},
    {"KNKB", 0xc66146dbcf8390f8ull}, {"KPKA", 0xd5de47651b3a50acull},  {"KPKB", 0x62f87cc7c2f03c79ull},
    {"KCKA", 0x8d6d936bf89d91aeull}, {"KNKAB", 0xe991627d1cd8ea0full}, {"KPPK", 0x505e09c6d62bd468ull},
    {"KNPK", 0x755c0a759fdcd8b3ull},
};
enum { OLD_NB = sizeof Old / sizeof Old[0] };

static EgtbSet Set;

static int build_all(void **state) {
    (void)state;
    const char *names[OLD_NB];
    for (int i = 0; i < OLD_NB; i++)
        names[i] = Old[i].name;
    egtb_set_init(&Set, "");
    return egtb_test_build(&Set, names, OLD_NB, 2) ? 0 : -1;
}

static int free_all(void **state) {
    (void)state;
    egtb_set_free(&Set);
    return 0;
}

static uint64_t values_hash(const EgtbTable *t) {
    size_t bytes = t->lay.positions * sizeof(uint16_t);
    return egtb_xxh64(t->val[BLACK], bytes, egtb_xxh64(t->val[RED], bytes, 0));
}

static void test_values_equal_the_edge_solver(void **state) {
    (void)state;
    for (int i = 0; i < OLD_NB; i++) {
        uint64_t h = values_hash(egtb_test_table(&Set, Old[i].name));
        if (h != Old[i].hash) fail_msg("%s: values hash %016llx", Old[i].name, (unsigned long long)h);
    }
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_equal_the_edge_solver),
    };
    return cmocka_run_group_tests(tests, build_all, free_all);
}
