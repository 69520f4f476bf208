// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The data pool (docs/nnue.md, "The data pool"): one directory outside the
 * repository that keeps the training data from one day's work to the next,
 * with its manifest (manifest.h). The directory is `--pool DIR`, else
 * $TUONG_DATA_DIR, else $XDG_DATA_HOME/tuong/data, else
 * $HOME/.local/share/tuong/data.
 *
 * The manifest is changed only under an flock on DIR/.manifest.lock, and
 * replaced whole (a new file renamed over the old), so a reader never sees
 * half of it and runs writing different files of one pool can share it.
 * POSIX.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "manifest.h"
#include "sha256.h"

enum { DATAPOOL_PATH_MAX = 4096 };

/* The pool directory: flag (--pool's value) when not NULL, else from the
 * environment as above; false with the reason when none can be found. */
bool datapool_dir(const char *flag, char *dir, size_t cap, char *err, size_t errlen);
/* Create dir and its missing parents. */
bool datapool_make_dir(const char *dir, char *err, size_t errlen);
/* Where a file of the pool lives: "DIR/NAME" (false when too long). */
bool datapool_path(const char *dir, const char *name, char *path, size_t cap);
/* Is the file at path directly inside dir (the same directory, however
 * spelt)? Its name inside the pool goes to name. */
bool datapool_holds(const char *dir, const char *path, char *name, size_t cap);

/* Load the manifest of dir: an empty one when dir has none yet; false with
 * "DIR/manifest.tsv: line N: why" for a damaged or foreign file. */
bool datapool_load(const char *dir, Manifest *m, char *err, size_t errlen);
/* Record e in dir's manifest (replacing the entry of the same file) under
 * the manifest's lock. */
bool datapool_record(const char *dir, const ManifestEntry *e, char *err, size_t errlen);

/* SHA-256 of the first `bytes` bytes of the file at path (UINT64_MAX: all
 * of it); *size receives the bytes hashed. */
bool datapool_hash_file(const char *path, uint64_t bytes, Sha256 *s, uint64_t *size, char *err, size_t errlen);
/* The current time in UTC, 2026-12-02T16:16:05Z. */
void datapool_now(char date[MANIFEST_DATE_SIZE]);
/* The network in use as the manifest names it: its hash in 8 hex digits,
 * or "none" (the hand-crafted evaluation). */
void datapool_net_name(char net[MANIFEST_TOKEN_MAX]);
/* Load a net file for the search (--evalfile); false with the reason. */
bool datapool_use_net(const char *path, char *err, size_t errlen);
/* "NAME@1a2b3c4d": a file's name and the start of its SHA-256, how the
 * manifest's settings and sources name an input. */
bool datapool_file_tag(const char *path, char *tag, size_t cap, char *err, size_t errlen);
