// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The protocol front end: UCCI 3.0 and the UCI xiangqi dialect, chosen by
 * the first command (see docs/protocol.md). A reader thread reads stdin; the
 * calling thread dispatches each line; the search runs on its own thread and
 * reports through callbacks. While the engine thinks, `isready`, `stop`,
 * `ponderhit`, `probe` and `quit` are answered at once and every other
 * command waits in a queue until the search has answered.
 */
#include <stdio.h>

/* Run the protocol on in/out until `quit` or end of input; returns the exit
 * code (0). Call once per process. */
int protocol_loop(FILE *in, FILE *out);
/* `bench [depth]` (depth NULL = the search's default depth): search the
 * benchmark positions; returns the exit code. */
int protocol_bench_command(const char *depth, FILE *out);
