// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Checking a move generator against a perft EPD file: one position a line,
 *
 *   <FEN> ;D1 44 ;D2 1920 ;D3 79666
 *
 * (the format of tests/data/perft.epd). Blank lines and lines starting with
 * '#' are skipped; an empty field (a trailing ';') is allowed; anything else
 * that is not `D<depth> <count>` makes the line malformed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fen.h"
#include "perft.h"

enum { PERFT_EPD_DEPTH_MAX = 20, PERFT_EPD_LINE_MAX = 4096, PERFT_EPD_FEN_MAX = 256 };

typedef struct {
    char fen[PERFT_EPD_FEN_MAX];
    bool has[PERFT_EPD_DEPTH_MAX + 1]; /* has[d]: a count is given for depth d */
    uint64_t nodes[PERFT_EPD_DEPTH_MAX + 1];
    int line; /* 1-based line number in the file */
} PerftEpdRecord;

typedef enum { EPD_LINE_EMPTY = 0, EPD_LINE_RECORD, EPD_LINE_ERROR } EpdLineKind;

/* Parse one line (trailing newline allowed) into rec. The FEN is only
 * split off here, not validated. On EPD_LINE_ERROR err holds the reason. */
EpdLineKind perft_epd_parse_line(const char *line, PerftEpdRecord *rec, char *err, size_t errlen);

/* Read every line of `path` (FENs validated) before counting anything, then
 * check each position's counts up to max_depth: one verdict line per
 * position and a summary to out. Returns the exit status: 0 all counts
 * match, 1 a count differs, 2 the file is missing, unreadable or malformed
 * (one error line to err, nothing counted). */
int perft_epd_check(const char *path, int max_depth, const PerftOptions *opt, FILE *out, FILE *err);
