// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The engine's endgame tables: xiangqitb's WDL (NAME.lzw), DTC
 * (NAME.lzdtc) and DTM (NAME.lzdtm) files found in a list of directories, mapped read-only and
 * probed one block at a time through a small shared cache of decoded
 * blocks (docs/egtb.md, "The prober").
 *
 * Loading is not thread-safe and must not overlap a search; probing is, and
 * allocates nothing. Values are for the side to move and ignore the game's
 * history: the caller decides when the history overrides them (the move
 * limit, repetitions already played; docs/egtb.md, "Rules").
 */
#include <stdbool.h>
#include <stdint.h>

#include "position.h"

typedef enum { EGTB_LOSS = -1, EGTB_DRAW = 0, EGTB_WIN = 1 } EgtbWdl;

/* A DTC entry (docs/egtb.md, "Values"): v is 0 for a draw, odd for a loss
 * and even for a win of the side to move, v - 1 plies to conversion; order
 * is the rule round that settled it (0: no repetition rule involved). */
typedef struct {
    uint16_t v;
    uint8_t order;
} EgtbDtc;

/* A DTM entry (docs/egtb.md, "DTM files"): v is 0 for a draw, else v - 1
 * plies to mate; win tells a win of the side to move from a loss (taken
 * from the entry's flag, not from the parity of v); rule holds bits 12-15
 * (0 unless the file kept them). */
typedef struct {
    uint16_t v;
    bool win;
    uint8_t rule;
} EgtbDtm;

/* One line about loading: error set for a refused file or directory. */
typedef void (*EgtbReportFn)(void *ctx, bool error, const char *text);

/* Forget the loaded tables, then load every table named NAME.lzw,
 * NAME.lzdtc or NAME.lzdtm in the directories of `paths` (separated by ';'; the first
 * directory with a file wins). Each refused file or directory is reported
 * once and left out; then one summary line. Returns the number of tables
 * usable in the search (those with a WDL file). */
int egtb_load(const char *paths, EgtbReportFn report, void *ctx);
/* Unmap every table and free the caches. */
void egtb_unload(void);

/* Pieces besides the kings in the largest loaded table (0: none): a
 * position with more is never probed, at the cost of one comparison. */
extern int EgtbMaxPieces;

/* Tables loaded with a WDL file / with a DTC file / with a DTM file. */
int egtb_wdl_count(void);
int egtb_dtc_count(void);
int egtb_dtm_count(void);

/* WDL of pos for its side to move; false when no table covers it (or the
 * block does not decode). Material with no chariot, horse, cannon or pawn
 * on either side is a draw without a table. */
bool egtb_probe_wdl(const Position *pos, EgtbWdl *wdl);
/* DTC of pos; false when no DTC file covers it. */
bool egtb_probe_dtc(const Position *pos, EgtbDtc *dtc);
/* DTM of pos; false when no DTM file covers it (a draw without a table,
 * no attacker left, gives true and v 0). */
bool egtb_probe_dtm(const Position *pos, EgtbDtm *dtm);
