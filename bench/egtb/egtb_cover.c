// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_cover.h"

#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_index.h"

/* The attacking pieces of one side: one or two of chariot, horse, cannon,
 * pawn, as counts. */
static const PieceType Attackers[] = {ROOK, HORSE, CANNON, PAWN};
enum { ATTACKER_TYPES = sizeof Attackers / sizeof Attackers[0], DEFENDERS_MAX = 2 };

static int by_size(const void *a, const void *b) {
    const EgtbCoverEntry *x = a, *y = b;
    if (x->positions != y->positions) return x->positions < y->positions ? -1 : 1;
    char nx[EGTB_NAME_MAX], ny[EGTB_NAME_MAX];
    return strcmp(egtb_sig_name(&x->mat, nx), egtb_sig_name(&y->mat, ny));
}

int egtb_cover_list(uint64_t max_positions, EgtbCoverEntry *out) {
    int n = 0;
    for (int a = 0; a < ATTACKER_TYPES; a++)
        for (int b = a - 1; b < ATTACKER_TYPES; b++) /* b = a - 1: one attacker only */
            for (int sa = 0; sa <= DEFENDERS_MAX; sa++)
                for (int sb = 0; sb <= DEFENDERS_MAX; sb++)
                    for (int wa = 0; wa <= DEFENDERS_MAX; wa++)
                        for (int wb = 0; wb <= DEFENDERS_MAX; wb++) {
                            EgtbMaterial m;
                            memset(&m, 0, sizeof m);
                            m.count[RED][KING] = m.count[BLACK][KING] = 1;
                            m.count[RED][Attackers[a]]++;
                            if (b >= a) m.count[RED][Attackers[b]]++;
                            m.count[RED][ADVISOR] = (uint8_t)sa;
                            m.count[RED][ELEPHANT] = (uint8_t)sb;
                            m.count[BLACK][ADVISOR] = (uint8_t)wa;
                            m.count[BLACK][ELEPHANT] = (uint8_t)wb;
                            egtb_sig_normalise(&m);
                            EgtbLayout lay;
                            if (!egtb_layout_init(&lay, &m)) return -1;
                            uint64_t positions = lay.positions;
                            egtb_layout_free(&lay);
                            if (positions > max_positions || n == EGTB_COVER_MAX) continue;
                            out[n++] = (EgtbCoverEntry){m, positions};
                        }
    qsort(out, (size_t)n, sizeof *out, by_size);
    return n;
}
