// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Move-generation counting: perft(d) counts the leaves of the legal move
 * tree to depth d (the last ply counted in bulk from the legal list).
 *
 * The threaded form splits the tree into tasks (one per root move, or per
 * root move and reply from depth PERFT_SPLIT_TWO_PLIES up) that the threads
 * take in order; an optional perft table (perft_table.h) shared by the
 * threads remembers subtree counts. Counts are exact either way. */
#include <stdint.h>
#include <stdio.h>

#include "perft_table.h"
#include "position.h"

/* PERFT_TABLE_MIN_DEPTH: the shallowest subtree stored in the table (a
 * depth-1 count costs less than a probe). PERFT_TABLE_WORTH_DEPTH: below
 * it the protocol's `go perft` takes no table (zeroing it would cost more
 * than it saves). */
enum {
    PERFT_THREADS_MAX = 256,
    PERFT_SPLIT_TWO_PLIES = 4,
    PERFT_TABLE_MIN_DEPTH = 2,
    PERFT_TABLE_WORTH_DEPTH = 5,
};

typedef struct {
    int threads;       /* counting threads, 1..PERFT_THREADS_MAX */
    PerftTable *table; /* NULL: no table */
} PerftOptions;

/* Single thread, no table, counted in place. */
uint64_t perft(Position *pos, int depth);
/* perft(depth) of pos with the threads and table of opt (pos is not changed). */
uint64_t perft_count(const Position *pos, int depth, const PerftOptions *opt);
/* Print "<move>: <count>" per root move (in generation order, as soon as
 * each is complete), then "Nodes searched: N" and the time and speed, to
 * out; returns the total. */
uint64_t perft_divide_with(const Position *pos, int depth, int rank_base, const PerftOptions *opt, FILE *out);
/* perft_divide_with() on one thread without a table. */
uint64_t perft_divide(Position *pos, int depth, int rank_base, FILE *out);
