// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The data pool's manifest (docs/nnue.md, "The data pool"): a text file
 * `manifest.tsv` beside the data files, one line per file, written by
 * tuong-datagen so anyone can see where each file came from and remake it.
 *
 *   # comment lines start with '#'
 *   file  kind  positions  games  next  sha256  commit  net  nodes  seed  settings  source  created  updated
 *
 * The header line (the column names, tab-separated, exactly as above) comes
 * before the first entry; then one entry per line, fields separated by one
 * tab, no field empty, no blanks inside a field:
 *
 *   file       the data file's name inside the pool (no '/')
 *   kind       selfplay (tuong-datagen generate) or rescore
 *   positions  records in the file
 *   games      whole games in it (selfplay), or - when unknown
 *   next       where a resumed run goes on: the next game number (selfplay)
 *              or the next input record (rescore); - when unknown
 *   sha256     of the whole file, 64 lowercase hex digits
 *   commit     the engine commit(s) that wrote it: `1cdf86af`, or
 *              `1cdf86af,2b3c4d5e@1200` when game 1200 on came from another
 *   net        the network's hash (8 hex digits), or `none` (hand-crafted)
 *   nodes      the soft node limit per move of the search that labelled it
 *   seed       the game sequence's seed, or - (rescore)
 *   settings   the other flags that change the data, key=value,key=value
 *   source     rescore: the input file and its sha256 prefix; else -
 *   created, updated   UTC, 2026-12-02T16:16:05Z
 *
 * This module only turns text into entries and back (no files, no engine),
 * so it can be fuzzed on its own (tests/fuzz/fuzz_manifest.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MANIFEST_NAME "manifest.tsv"
#define MANIFEST_UNKNOWN UINT64_MAX /* "-" in a number column */

enum {
    MANIFEST_COLUMNS = 14,
    MANIFEST_FILE_MAX = 128,     /* field lengths, NUL included */
    MANIFEST_TOKEN_MAX = 128,    /* commit, net, source */
    MANIFEST_SETTINGS_MAX = 512, /* settings */
    MANIFEST_DATE_SIZE = 21,     /* 2026-12-02T16:16:05Z and NUL */
    MANIFEST_SHA_SIZE = 65,
    MANIFEST_LINE_MAX = 2048,
};

typedef enum { MANIFEST_SELFPLAY = 0, MANIFEST_RESCORE = 1 } ManifestKind;

typedef struct {
    char file[MANIFEST_FILE_MAX];
    ManifestKind kind;
    uint64_t positions, games, next; /* games and next may be MANIFEST_UNKNOWN */
    char sha256[MANIFEST_SHA_SIZE];
    char commit[MANIFEST_TOKEN_MAX];
    char net[MANIFEST_TOKEN_MAX];
    uint64_t nodes;
    uint64_t seed; /* MANIFEST_UNKNOWN for a rescore */
    char settings[MANIFEST_SETTINGS_MAX];
    char source[MANIFEST_TOKEN_MAX];
    char created[MANIFEST_DATE_SIZE], updated[MANIFEST_DATE_SIZE];
} ManifestEntry;

typedef struct {
    ManifestEntry *entries;
    int count, cap;
} Manifest;

/* Parse a whole manifest (len bytes, no NUL needed) into m (empty before;
 * manifest_free it after, also on failure). False with "line N: why" in
 * err for anything that is not exactly the format above. */
bool manifest_parse(Manifest *m, const char *text, size_t len, char *err, size_t errlen);
/* Is every field of e well-formed (as the parser would accept it)? */
bool manifest_entry_check(const ManifestEntry *e, char *err, size_t errlen);
/* The manifest as text (malloc'd, NUL-terminated, *len bytes), comment and
 * header first; NULL when out of memory. */
char *manifest_format(const Manifest *m, size_t *len);
/* The entry of a file, or NULL. */
ManifestEntry *manifest_find(Manifest *m, const char *file);
/* Replace the entry of e->file, or append e; false when out of memory. */
bool manifest_put(Manifest *m, const ManifestEntry *e);
void manifest_free(Manifest *m);
/* The kind's name ("selfplay", "rescore"). */
const char *manifest_kind_name(ManifestKind kind);
