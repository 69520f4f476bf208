// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Serialised output to the GUI. The protocol thread and the search thread
 * both write here; each call writes whole lines under one mutex and flushes,
 * so lines never interleave and never wait in a buffer.
 */
#include <stdarg.h>
#include <stdio.h>

#include "protocol_parse.h"

/* Send every later line to `out`. */
void out_init(FILE *out);
/* Write one line (the newline is added) and flush. */
void out_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line shown to the user: `info message ...` (UCCI) or `info string ...`. */
void out_message(Dialect d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error: the message line with `error: ` in front. */
void out_error(Dialect d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hold the lock to write several lines straight to the stream (perft, eval,
 * bench); out_end() flushes and releases it. */
FILE *out_begin(void);
void out_end(void);
/* The prefix of a user-visible line in this dialect ("info string "). */
const char *out_info_prefix(Dialect d);
