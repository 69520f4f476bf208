// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * A solved signature in memory, its file, and a set of tables to probe.
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
 * File format, version 1 (ours, until the xiangqitb writer exists; every
 * integer little-endian):
 *   0   8  magic "TUONGTB1"
 *   8   4  version (1)
 *   12  4  xiangqitb material key of the signature
 *   16  16 signature name, NUL-padded ("KRKAA")
 *   32  8  positions per side N (the layout's index count)
 *   40  4  tables (2: Red to move, then Black to move)
 *   44  4  flags (0)
 *   48  8  FNV-1a 64 of the value bytes
 *   56  8  zero
 *   64  2N values with Red (the stronger side) to move, then 2N with Black
 * The file is named NAME.ttb.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_index.h"

enum { EGTB_ILLEGAL = 0xFFFF, EGTB_HEADER_SIZE = 64, EGTB_VERSION = 1 };

#define EGTB_FILE_EXT ".ttb"

typedef struct {
    EgtbLayout lay;
    char name[EGTB_NAME_MAX];
    uint16_t *val[COLOR_NB]; /* lay.positions values per side to move */
} EgtbTable;

static inline bool egtb_is_win(uint16_t v) { return v != EGTB_ILLEGAL && v != 0 && !(v & 1); }
static inline bool egtb_is_loss(uint16_t v) { return v != EGTB_ILLEGAL && (v & 1); }
static inline bool egtb_is_draw(uint16_t v) { return v == 0; }

/* Layout and zeroed (all draw) values for mat; false (and a message) on failure. */
bool egtb_table_alloc(EgtbTable *t, const EgtbMaterial *mat, char *err, size_t errlen);
void egtb_table_free(EgtbTable *t);

/* Write DIR/NAME.ttb; false and a message on failure. */
bool egtb_table_write(const EgtbTable *t, const char *dir, char *err, size_t errlen);
/* Read a table file and check it whole (size, magic, version, name, key,
 * index count, checksum); false and one message on any fault. */
bool egtb_table_read(EgtbTable *t, const char *path, char *err, size_t errlen);
/* Same, from bytes in memory (for the fuzzer). */
bool egtb_table_parse(EgtbTable *t, const uint8_t *data, size_t size, char *err, size_t errlen);

/* The tables known for probing, by signature. */
enum { EGTB_SET_MAX = 256 };
typedef struct {
    int count;
    EgtbTable *table[EGTB_SET_MAX];
    char dir[1024]; /* where missing tables are looked for ("" = nowhere) */
} EgtbSet;

void egtb_set_init(EgtbSet *set, const char *dir);
void egtb_set_free(EgtbSet *set);
/* Take ownership of a solved table. */
bool egtb_set_add(EgtbSet *set, EgtbTable *t);
/* The table of mat (normalised), loading it on first use from DIR/NAME.lzdtc
 * (xiangqitb's DTC file) or else DIR/NAME.ttb; NULL with a message if it is
 * neither in the set nor readable. */
EgtbTable *egtb_set_get(EgtbSet *set, const EgtbMaterial *mat, char *err, size_t errlen);

/* The value of pos for its side to move. Material without a chariot,
 * horse, cannon or pawn on either side is a draw without a table (as in
 * xiangqitb). false with a message when a table is missing. */
bool egtb_probe(EgtbSet *set, const Position *pos, uint16_t *value, char *err, size_t errlen);
