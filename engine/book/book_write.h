// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Writing book files of either format (layouts in book.h); used by the
 * book maker (bench/book) and the tests. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book.h"
#include "book_key.h"

typedef struct {
    BookKey key; /* the position's key as stored (the smaller of it and its mirror's) */
    Move move;   /* the move in that stored orientation */
    uint32_t weight, wins, draws, losses;
} BookEntry;

enum { BOOK_WEIGHT_MAX = 65535 }; /* both formats keep 16-bit weights */

/* Sort entries into the format's order and write them to path (weights
 * above BOOK_WEIGHT_MAX are clipped). False with a reason in err. */
bool book_write(const char *path, BookFormat format, BookEntry *entries, size_t count, char *err, size_t errlen);
