// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * A solved signature in memory, and a set of tables to probe.
 *
 * Values (one uint16_t per index and side to move) follow xiangqitb's DTC
 * scores (docs/egtb.md, "Values"):
 *   0            draw
 *   odd v        the side to move loses; v - 1 plies until the winner
 *                mates it or captures ("conversion"): 1 = mated or
 *                stalemated now
 *   even v > 0   the side to move wins, converting in v - 1 plies:
 *                2 = mates or makes a winning capture with this move
 *   EGTB_ILLEGAL no such position (pieces on one point, side not to
 *                move in check, kings facing)
 *
 * On disk a table is xiangqitb's pair of files (egtb_xq.h): NAME.lzw
 * (WDL) and NAME.lzdtc (these values, illegal ones stored as 0).
 *
 * DTM (docs/egtb.md, "DTM files"), when asked for, is a second array on
 * the same scale: v - 1 plies to mate, the count going on through captures
 * into the smaller tables; the W/D/L is DTC's. On disk NAME.lzdtm.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb/egtb_index.h"

enum { EGTB_ILLEGAL = 0xFFFF };

#define EGTB_DTC_EXT ".lzdtc"
#define EGTB_WDL_EXT ".lzw"
#define EGTB_DTM_EXT ".lzdtm"
/* xiangqitb's WDL of both colours of a symmetric signature, NAME.lzw.gen,
 * left for its own generator (Tuong reads it only to compare). */
#define EGTB_WDL_GEN_SUFFIX ".gen"

/* The largest DTM value xiangqitb's entry holds (11 bits, its
 * DTM_SCORE_MAX): a longer mate is refused rather than written wrong. */
enum { EGTB_DTM_MAX = 2040 };
/* A stored DTM entry's fields: the value and the win flag. */
enum { EGTB_DTM_VALUE = 0x7FF, EGTB_DTM_WIN = 0x800 };

typedef struct {
    EgtbLayout lay;
    char name[EGTB_NAME_MAX];
    uint16_t *val[COLOR_NB]; /* lay.positions values per side to move */
    uint16_t *dtm[COLOR_NB]; /* DTM on the same scale; NULL until solved or loaded */
    /* dtm holds xiangqitb's stored entries instead (v | 0x800 for a win, v
     * for a loss, 0 for a draw, EGTB_ILLEGAL): a table where both sides
     * attack, whose DTM wins may be odd (egtb_dtm_rule.h). */
    bool dtm_flagged;
    /* The rule round (DTC "order", docs/egtb.md "Values") that settled each
     * value: 0 for values independent of the repetition rules. NULL when
     * every order is 0 (one side attacking, or no rule verdict found). */
    uint8_t *order[COLOR_NB];
} EgtbTable;

/* The order of index i with side c to move in t (0 without an order array). */
static inline unsigned egtb_table_order(const EgtbTable *t, int c, uint64_t i) {
    return t->order[c] ? t->order[c][i] : 0;
}

static inline bool egtb_is_win(uint16_t v) { return v != EGTB_ILLEGAL && v != 0 && !(v & 1); }
static inline bool egtb_is_loss(uint16_t v) { return v != EGTB_ILLEGAL && (v & 1); }
static inline bool egtb_is_draw(uint16_t v) { return v == 0; }

/* Layout and zeroed (all draw) values for mat; false (and a message) on failure. */
bool egtb_table_alloc(EgtbTable *t, const EgtbMaterial *mat, char *err, size_t errlen);
void egtb_table_free(EgtbTable *t);

/* The tables known for probing, by signature. */
enum { EGTB_SET_MAX = 256 };
typedef struct {
    int count;
    EgtbTable *table[EGTB_SET_MAX];
    char dir[1024]; /* where missing tables are looked for ("" = nowhere) */
} EgtbSet;

void egtb_set_init(EgtbSet *set, const char *dir);
void egtb_set_free(EgtbSet *set);
/* Memory a table's values (and orders, DTM) take. */
static inline uint64_t egtb_table_bytes(const EgtbTable *t) {
    uint64_t n = t->lay.positions;
    return (t->dtm[RED] ? 4 : 2) * n * sizeof(uint16_t) + (t->order[RED] ? n : 0) + (t->order[BLACK] ? n : 0);
}
/* Free the tables of the set, the oldest first, that are not among keep[0..nkeep-1], until
 * the values of those left take at most bytes_max (they load again from DIR when
 * asked for): a long build keeps only what its next tables read. */
void egtb_set_trim(EgtbSet *set, const EgtbMaterial *keep, int nkeep, uint64_t bytes_max);
/* Take ownership of a solved table. */
bool egtb_set_add(EgtbSet *set, EgtbTable *t);
/* The table of mat (normalised), loading it on first use from DIR/NAME.lzdtc
 * (xiangqitb's DTC file, ours or xiangqitb's); NULL with a message if it is
 * neither in the set nor readable. */
EgtbTable *egtb_set_get(EgtbSet *set, const EgtbMaterial *mat, char *err, size_t errlen);
/* The same, with its DTM: solved in this run, or read on first use from
 * DIR/NAME.lzdtm; NULL with a message when neither. */
EgtbTable *egtb_set_get_dtm(EgtbSet *set, const EgtbMaterial *mat, char *err, size_t errlen);

/* The value in t of pos for its side to move; pos has t's material, in
 * either colouring (egtb_index_of), and only its boards are read. */
uint16_t egtb_table_value(const EgtbTable *t, const Position *pos);
/* The same from the DTM array (which must be there). */
uint16_t egtb_table_dtm(const EgtbTable *t, const Position *pos);

/* The value of pos for its side to move. Material without a chariot,
 * horse, cannon or pawn on either side is a draw without a table (as in
 * xiangqitb). false with a message when a table is missing. */
bool egtb_probe(EgtbSet *set, const Position *pos, uint16_t *value, char *err, size_t errlen);
