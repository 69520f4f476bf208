// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_sample.h"

#include <stdio.h>
#include <stdlib.h>

#include "zobrist.h"

static bool wanted(uint16_t v, EgtbWant want) {
    switch (want) {
    case EGTB_WANT_WIN: return egtb_is_win(v);
    case EGTB_WANT_DRAW: return egtb_is_draw(v);
    default: return egtb_is_loss(v);
    }
}

static bool side_wanted(Color c, EgtbMover mover) {
    return mover == EGTB_MOVER_ANY || (c == RED) == (mover == EGTB_MOVER_STRONG);
}

uint64_t egtb_sample_count(const EgtbTable *t, EgtbWant want, EgtbMover mover) {
    uint64_t n = 0;
    for (int c = 0; c < COLOR_NB; c++)
        if (side_wanted((Color)c, mover))
            for (uint64_t i = 0; i < t->lay.positions; i++) n += wanted(t->val[c][i], want);
    return n;
}

/* Uniform in [0, k): plain `% k` would favour small values slightly, so
 * draws from the incomplete top range are thrown away. */
static uint64_t below(uint64_t *state, uint64_t k) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % k;
    for (;;) {
        uint64_t r = prng_next(state);
        if (r < limit) return r % k;
    }
}

bool egtb_sample(const EgtbTable *t, EgtbWant want, EgtbMover mover, int n, uint64_t seed, EgtbPick *out, char *err,
                 size_t errlen) {
    uint64_t have = egtb_sample_count(t, want, mover);
    if (n < 0 || (uint64_t)n > have) {
        static const char *const Value[] = {"won", "drawn", "lost"};
        static const char *const Mover[] = {" with the stronger side to move", " with the weaker side to move", ""};
        snprintf(err, errlen, "%s: %llu %s positions%s, %d asked for", t->name, (unsigned long long)have, Value[want],
                 Mover[mover], n);
        return false;
    }
    /* Every candidate as index * 2 + side, then a partial Fisher-Yates
     * shuffle: the first n are a uniform draw without repeats. */
    uint64_t *all = malloc((have ? have : 1) * sizeof *all);
    if (!all) {
        snprintf(err, errlen, "%s: out of memory for %llu candidates", t->name, (unsigned long long)have);
        return false;
    }
    uint64_t k = 0;
    for (int c = 0; c < COLOR_NB; c++)
        if (side_wanted((Color)c, mover))
            for (uint64_t i = 0; i < t->lay.positions; i++)
                if (wanted(t->val[c][i], want)) all[k++] = i * 2 + (uint64_t)c;
    uint64_t state = seed;
    for (int j = 0; j < n; j++) {
        uint64_t r = (uint64_t)j + below(&state, have - (uint64_t)j);
        uint64_t tmp = all[j];
        all[j] = all[r];
        all[r] = tmp;
        out[j].index = all[j] / 2;
        out[j].side = (Color)(all[j] % 2);
    }
    free(all);
    return true;
}
