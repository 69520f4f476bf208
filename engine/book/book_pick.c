// SPDX-License-Identifier: GPL-3.0-or-later
#include "book_pick.h"

#include <math.h>

#include "zobrist.h"

static int heaviest(const BookMoves *moves) {
    int best = -1;
    for (int i = 0; i < moves->count; i++)
        if (moves->moves[i].weight > 0 && (best < 0 || moves->moves[i].weight > moves->moves[best].weight)) best = i;
    return best;
}

static double exponent(BookRandomness r) {
    return r == BOOK_RANDOM_SMALL    ? BOOK_EXPONENT_SMALL
           : r == BOOK_RANDOM_MEDIUM ? BOOK_EXPONENT_MEDIUM
                                     : BOOK_EXPONENT_LARGE;
}

int book_pick(const BookMoves *moves, BookRandomness r, uint64_t *rng) {
    if (r == BOOK_RANDOM_NONE) return heaviest(moves);
    double e = exponent(r), odds[MAX_MOVES], total = 0;
    for (int i = 0; i < moves->count; i++) {
        odds[i] = moves->moves[i].weight ? pow(moves->moves[i].weight, e) : 0;
        total += odds[i];
    }
    if (total <= 0) return -1;
    double x = (double)(prng_next(rng) >> 11) * 0x1p-53 * total; /* uniform in [0, total) */
    int last = -1;
    for (int i = 0; i < moves->count; i++) {
        if (odds[i] <= 0) continue;
        last = i;
        x -= odds[i];
        if (x < 0) return i;
    }
    return last; /* rounding left x at 0 */
}
