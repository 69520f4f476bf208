// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Engine → GUI lines of both dialects, formatted into a buffer (pure: no
 * state, no output), so each one can be tested alone.
 */
#include <stddef.h>

#include "protocol_parse.h"
#include "search.h"

enum { FORMAT_LINE_MAX = 2048 };

typedef enum { VERDICT_NONE = 0, VERDICT_DRAW, VERDICT_RESIGN } Verdict;

/* UCCI: `info depth d score s time ms nodes n nps n pv ...` (score a plain
 *        integer; time, nodes and nps on the pv's line so that GUIs show them);
 * UCI:  `info depth d seldepth s multipv k score cp x|mate n [lowerbound|
 *        upperbound] nodes n nps n hashfull h time ms pv ...`. */
char *fmt_info(char *buf, size_t len, Dialect d, int rank_base, const SearchInfo *info);
/* UCCI `info time ms nodes n`, sent after each UCCI info depth line: the
 * spec's own kind of line for time and nodes, which ElephantEye sends. */
char *fmt_info_time(char *buf, size_t len, const SearchInfo *info);
/* `info currmove m` (UCCI) / `info depth d currmove m currmovenumber n` (UCI). */
char *fmt_currmove(char *buf, size_t len, Dialect d, int rank_base, Move m, int number, int depth);
/* `bestmove m [ponder p] [draw|resign]` (the verdict only in UCCI); with no
 * move: `nobestmove` (UCCI) or `bestmove (none)` (UCI). */
char *fmt_bestmove(char *buf, size_t len, Dialect d, int rank_base, Move best, Move ponder, Verdict v);
/* UCCI `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]`. */
char *fmt_pophash(char *buf, size_t len, int rank_base, const ProbeResult *r);
