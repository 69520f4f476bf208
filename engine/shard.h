// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Shards of a long deterministic job (docs/cluster.md): `--shard K/N` runs
 * part K (0-based, 0..N-1, as Slurm's `--array=0-(N-1)` numbers its tasks)
 * of a job whose items (games, perft subtrees) are numbered 0..T-1, and a
 * merge puts the parts' result files back together.
 *
 * Two ways to deal the items:
 *   contiguous: shard K holds items [T*K/N, T*(K+1)/N), so the shards'
 *               outputs concatenated in shard order are the whole run's
 *               (data files, games in game order);
 *   dealt:      shard K holds the items i with i % N == K, which spreads
 *               neighbouring items of similar cost (perft subtrees).
 *
 * Every result file names its shard and a fingerprint of the run (a hash of
 * whatever decides the output: settings, inputs, engine version), so the
 * merge can refuse a set with a shard missing, twice, or from another run.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { SHARD_COUNT_MAX = 1000000 };

typedef struct {
    int index; /* K, 0..count-1 */
    int count; /* N, 1..SHARD_COUNT_MAX */
} ShardSpec;

/* Parse "K/N" with 0 <= K < N <= SHARD_COUNT_MAX; false on anything else. */
bool shard_parse(const char *text, ShardSpec *out);
/* The contiguous share of shard s of items 0..total-1: [*first, *end). */
void shard_range(uint64_t total, ShardSpec s, uint64_t *first, uint64_t *end);
/* Is item i dealt to shard s (i % N == K)? */
bool shard_deals(uint64_t i, ShardSpec s);

/* FNV-1a, 64 bits: fingerprints of runs and checksums of shard bodies. */
#define SHARD_HASH_INIT UINT64_C(0xcbf29ce484222325)
uint64_t shard_hash(uint64_t h, const void *data, size_t n);
/* shard_hash of a NUL-terminated string and its terminator (so that
 * "ab","c" and "a","bc" differ). */
uint64_t shard_hash_str(uint64_t h, const char *s);
/* shard_hash of a 64-bit number in little-endian byte order. */
uint64_t shard_hash_u64(uint64_t h, uint64_t v);

/* What a merge knows of one result file, read from its header. */
typedef struct {
    const char *name; /* the file name, for messages */
    ShardSpec spec;
    uint64_t run; /* fingerprint of the run */
} ShardInfo;

/* Check that files[0..n) are the shards 0..N-1 of one run, each exactly
 * once. On success order[k] is the position in files of shard k (order
 * has room for files[0].spec.count entries, at most n). On failure false
 * with one message naming the offending file in err: a shard of another
 * run or of a split into another number of shards, the same shard twice,
 * or a shard missing. */
bool shard_check_set(const ShardInfo *files, int n, int *order, char *err, size_t errlen);
/* The same for a prefix of the split: files[0..n) must be the shards
 * 0..n-1 of one run (n <= N), each once; order[k] for k < n as above. What
 * a run carried over several sessions or machines has played so far. */
bool shard_check_prefix(const ShardInfo *files, int n, int *order, char *err, size_t errlen);

/* Print a message into err (printf format) and return false: the one-line
 * refusals of the shard readers and merges. */
bool shard_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The whole file at path in a malloc'd buffer (its length in *len), or
 * NULL with a message naming the file. */
char *shard_read_file(const char *path, size_t *len, char *err, size_t errlen);
