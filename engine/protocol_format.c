// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_format.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "notation.h"

/* Append formatted text at *pos, never past len. */
static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...) {
    if (*pos >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n > 0) *pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

static void append_pv(char *buf, size_t len, size_t *pos, int rank_base, const SearchInfo *info) {
    char text[MOVE_TEXT_MAX];
    if (info->pv_length <= 0) return;
    append(buf, len, pos, " pv");
    for (int i = 0; i < info->pv_length && i < MAX_PLY; i++)
        append(buf, len, pos, " %s", move_to_text(info->pv[i], rank_base, text));
}

char *fmt_info(char *buf, size_t len, Dialect d, int rank_base, const SearchInfo *info) {
    size_t pos = 0;
    buf[0] = '\0';
    int64_t ms = info->time_ms > 0 ? info->time_ms : 0;
    uint64_t nps = ms > 0 ? info->nodes * 1000 / (uint64_t)ms : info->nodes * 1000;
    if (d == DIALECT_UCCI) {
        /* GUIs read info fields by keyword (XQWizard takes Pikafish's UCI
         * lines with only `score cp` rewritten; uci2wb looks each keyword
         * up on the line that has the pv): time and nodes must ride on the
         * pv's line to be shown with it, and the pv runs to the end. */
        append(buf, len, &pos, "info depth %d score %d time %" PRId64 " nodes %" PRIu64 " nps %" PRIu64, info->depth,
               info->score, ms, info->nodes, nps);
        if (info->tables) append(buf, len, &pos, " tbhits %" PRIu64, info->tbhits); /* only with tables loaded */
        append_pv(buf, len, &pos, rank_base, info);
        return buf;
    }
    append(buf, len, &pos, "info depth %d seldepth %d multipv %d score ", info->depth,
           info->seldepth > info->depth ? info->seldepth : info->depth, info->multipv > 0 ? info->multipv : 1);
    if (score_is_mate(info->score))
        append(buf, len, &pos, "mate %d", score_mate_moves(info->score));
    else
        append(buf, len, &pos, "cp %d", info->score);
    if (info->bound == BOUND_LOWER)
        append(buf, len, &pos, " lowerbound");
    else if (info->bound == BOUND_UPPER)
        append(buf, len, &pos, " upperbound");
    append(buf, len, &pos, " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64, info->nodes, nps,
           info->hashfull, ms);
    if (info->tables) append(buf, len, &pos, " tbhits %" PRIu64, info->tbhits);
    append_pv(buf, len, &pos, rank_base, info);
    return buf;
}

char *fmt_info_time(char *buf, size_t len, const SearchInfo *info) {
    snprintf(buf, len, "info time %" PRId64 " nodes %" PRIu64, info->time_ms > 0 ? info->time_ms : 0, info->nodes);
    return buf;
}

char *fmt_currmove(char *buf, size_t len, Dialect d, int rank_base, Move m, int number, int depth) {
    char text[MOVE_TEXT_MAX];
    move_to_text(m, rank_base, text);
    if (d == DIALECT_UCCI)
        snprintf(buf, len, "info currmove %s", text);
    else
        snprintf(buf, len, "info depth %d currmove %s currmovenumber %d", depth, text, number);
    return buf;
}

char *fmt_bestmove(char *buf, size_t len, Dialect d, int rank_base, Move best, Move ponder, Verdict v) {
    char a[MOVE_TEXT_MAX], b[MOVE_TEXT_MAX];
    size_t pos = 0;
    buf[0] = '\0';
    if (best == MOVE_NONE) {
        append(buf, len, &pos, d == DIALECT_UCCI ? "nobestmove" : "bestmove (none)");
        return buf;
    }
    append(buf, len, &pos, "bestmove %s", move_to_text(best, rank_base, a));
    if (ponder != MOVE_NONE) append(buf, len, &pos, " ponder %s", move_to_text(ponder, rank_base, b));
    if (d == DIALECT_UCCI && v == VERDICT_DRAW) append(buf, len, &pos, " draw");
    if (d == DIALECT_UCCI && v == VERDICT_RESIGN) append(buf, len, &pos, " resign");
    return buf;
}

char *fmt_pophash(char *buf, size_t len, int rank_base, const ProbeResult *r) {
    char text[MOVE_TEXT_MAX];
    size_t pos = 0;
    buf[0] = '\0';
    append(buf, len, &pos, "pophash");
    if (!r->found) return buf;
    if (r->move != MOVE_NONE) append(buf, len, &pos, " bestmove %s", move_to_text(r->move, rank_base, text));
    if (r->bound & BOUND_LOWER) append(buf, len, &pos, " lowerbound %d depth %d", r->score, r->depth);
    if (r->bound & BOUND_UPPER) append(buf, len, &pos, " upperbound %d depth %d", r->score, r->depth);
    return buf;
}
