// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Shards of a `tuong-datagen --games G` run (docs/cluster.md):
 * `--shard K/N` plays games [G*K/N, G*(K+1)/N) of the seed's sequence into
 * a shard file, and `tuong-datagen merge OUT SHARD...` joins shards 0..N-1
 * into the data file that one unsharded run with that seed writes, byte
 * for byte (the games are deterministic by number and written in order,
 * pool.h).
 *
 * Shard file: a 96-byte header, then the records of its games in game
 * order (the data file's 36-byte records, datafile.h). Little-endian:
 *   0-7   magic "TNGSHRD1"
 *   8-11  uint32 header size (96)      12-15 uint32 record size (36)
 *   16-19 uint32 shard index K         20-23 uint32 shard count N
 *   24-31 uint64 games of the whole run (G)
 *   32-39 uint64 first game            40-47 uint64 games in this shard
 *   48-55 uint64 seed                  56-63 uint64 run fingerprint
 *   64-71 uint64 records               72-79 uint64 FNV-1a of the records
 *   80-95 0
 * The fingerprint hashes what decides the games: the engine version, the
 * seed, G, every play setting and every opening line. A shard is written
 * to OUT.part and renamed to OUT when whole, so OUT is either absent or
 * complete.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openings.h"
#include "pool.h"
#include "shard.h"

#define DATASHARD_MAGIC "TNGSHRD1"
enum { DATASHARD_HEADER_SIZE = 96 };

typedef struct {
    ShardSpec spec;
    uint64_t total_games, first_game, games, seed, run, records, checksum;
} DataShardHeader;

/* Pack and unpack the header; unpack checks the magic, the sizes, the
 * zero padding and that the shard's games are its share of the run
 * (false with the reason in err). */
void datashard_pack(const DataShardHeader *h, uint8_t out[DATASHARD_HEADER_SIZE]);
bool datashard_unpack(const uint8_t in[DATASHARD_HEADER_SIZE], DataShardHeader *h, char *err, size_t errlen);
/* The run fingerprint of a whole run's configuration (cfg->games = G). */
uint64_t datashard_fingerprint(const PoolConfig *cfg, const OpeningBook *book);

/* Play shard `spec` of the run cfg (games = G, out_path = the shard file)
 * into the shard file; returns the exit code (0 also when the file is
 * already this shard, whole). */
int datashard_generate(const PoolConfig *cfg, const OpeningBook *book, ShardSpec spec);
/* `tuong-datagen merge OUT SHARD...`: returns the exit code. */
int datagen_merge(int argc, char **argv);
