// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Deep perft across machines (docs/perft.md, docs/cluster.md):
 * `tuong perft D [FEN] --split S --shard K/N` numbers the positions S plies
 * below the root 0..M-1 (depth-first, moves in generation order), counts
 * perft(D - S) below those dealt to shard K (index % N == K) and writes a
 * result file; `tuong perft merge FILE...` checks that the files hold every
 * subtree exactly once and prints the per-root-move counts and the total
 * as `tuong perft D FEN` does (without its time lines).
 *
 * Result file (text, one item a line):
 *   tuong-perft-shard 1
 *   fen <the root FEN as the engine writes it>
 *   depth D split S subtrees M shard K/N run <16 hex digits>
 *   sub <index> <S moves, ICCS> <count>        one line per dealt subtree,
 *   ...                                         in increasing index
 *   end <number of sub lines> <sum of their counts>
 * run is a fingerprint of (FEN, D, S, M); a file without its end line, or
 * whose end line disagrees, is truncated.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fen.h"
#include "perft.h"
#include "position.h"
#include "shard.h"

enum { PERFT_SPLIT_MAX = 4, PERFT_SUB_MOVES_MAX = PERFT_SPLIT_MAX * 6 };

typedef struct {
    uint64_t index, count;
    char moves[PERFT_SUB_MOVES_MAX]; /* the S moves, space-separated */
} PerftSub;

/* One result file, parsed. */
typedef struct {
    char fen[FEN_MAX];
    int depth, split;
    uint64_t subtrees, run;
    ShardSpec spec;
    PerftSub *subs; /* heap, sub_count of them */
    size_t sub_count;
    uint64_t sum;
} PerftShardFile;

/* Count shard spec of the split run (depth, split) below pos with opt's
 * threads and table, and write the result file to out; false on a write
 * error or when memory for the split runs out. */
bool perft_shard_run(const Position *pos, int depth, int split, ShardSpec spec, const PerftOptions *opt, FILE *out);
/* Parse a result file's text (len bytes, not NUL-terminated); false with
 * the reason in err (truncated, malformed, a line that does not belong to
 * the file's shard). Free f->subs with perft_shard_free either way. */
bool perft_shard_parse(const char *text, size_t len, PerftShardFile *f, char *err, size_t errlen);
void perft_shard_free(PerftShardFile *f);
/* `tuong perft merge FILE...`: check the set and print the counts to out;
 * one error line naming the file to err. Returns the exit status. */
int perft_merge_main(int argc, char **argv, FILE *out, FILE *err);
