// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Helpers shared by the cmocka tests. cmocka needs these includes first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "position.h"

/* Parse a FEN that must be valid (fails the test otherwise). */
void must_parse(Position *pos, const char *fen);
/* Open a file of the shared reference data (fails the test if missing). */
FILE *open_data(const char *relative);
enum { PERFT_DEPTHS_MAX = 16 };

/* One line of the perft reference (perft.epd):
 * "FEN ;D1 44 ;D2 1920 ..." gives the FEN and its node count per depth. */
typedef struct {
    char fen[512]; /* trailing blanks removed */
    int count;     /* depth/nodes pairs */
    int depth[PERFT_DEPTHS_MAX];
    uint64_t nodes[PERFT_DEPTHS_MAX];
} PerftRecord;

/* Read the next record of an open perft EPD file into rec, skipping lines
 * without ';' and fields that are not "D<depth> <nodes>"; false at the end. */
bool read_perft_record(FILE *f, PerftRecord *rec);
/* Is the sanitizer build running (tests shrink their node budgets)? */
int running_slow(void);
/* The twin of src with colours swapped and the board turned through the
 * river (src and dst must differ). */
void colour_mirror(const Position *src, Position *dst);
/* Run a shell command; its exit status (-1 if it did not exit), and its
 * standard output, NUL-terminated and cut to size - 1 bytes, in out. */
int run_command(const char *cmd, char *out, size_t size);
/* Tests of command-line tools in a scratch directory: dir/name (from a
 * small ring of buffers, so a few can be held at once), a text file
 * written there, one read back (empty if missing), and the tool run there
 * with args, its stdout and stderr kept (NUL-terminated, cut to fit);
 * returns the tool's exit code, -1 if it did not exit. */
/* The whole file at path, NUL-terminated, its size in *size (the test
 * fails if it cannot be read); free() it. */
char *test_slurp(const char *path, long *size);
/* Do the two files hold the same bytes? */
bool test_same_bytes(const char *a, const char *b);
const char *test_path_in(const char *dir, const char *name);
void test_write_text(const char *dir, const char *name, const char *text);
void test_read_text(const char *dir, const char *name, char *buf, size_t size);
int test_run_tool(const char *dir, const char *tool, const char *args, char *out, size_t out_size, char *err,
                  size_t err_size);
/* Play `plies` uniformly random legal moves from pos (fewer if the game
 * ends); rnd(n) draws from 0..n-1, so each test keeps its own seeded RNG. */
void random_walk(Position *pos, int plies, unsigned (*rnd)(unsigned n));
