// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Reading GUI lines robustly: any length up to READER_LINE_MAX is read
 * whole (a 100 KB `position ... moves` line stays one command); a longer
 * line is skipped to its newline and flagged. NUL bytes are kept and
 * flagged rather than silently cutting the line. A last line without a
 * newline before EOF still counts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { READER_LINE_MAX = 1 << 20 };

typedef struct {
    char *text; /* NUL-terminated, without the newline; owned by the reader */
    size_t len; /* bytes before the terminator (NUL bytes inside count) */
    size_t cap;
    bool has_nul;  /* the line held a NUL byte */
    bool too_long; /* the line was longer than READER_LINE_MAX and was dropped */
} InputLine;

/* Read the next line into line (reusing its buffer); false at end of input. */
bool reader_next(FILE *in, InputLine *line);
/* Release the buffer. */
void reader_free(InputLine *line);
