// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * xiangqitb's files (docs/egtb.md, "File layout") as whole tables: the
 * WDL file (NAME.lzw: LZ4 blocks) and the DTC file (NAME.lzdtc: LZMA
 * blocks), read through the engine's reader (engine/egtb/egtb_file.h) and
 * written with the encoders here. Written from the format description, not
 * from xiangqitb's code.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb/egtb_codec.h"
#include "egtb/egtb_file.h"
#include "egtb/egtb_index.h"
#include "egtb_table.h"

/* Parse a xiangqitb WDL file of lay's signature held in memory: one byte
 * per index into wdl[RED] (white to move) and, when the file has two
 * tables, wdl[BLACK]; *tables says how many (1 for a symmetric signature).
 * Each array is lay->positions long. false with a message on any fault. */
bool egtb_xq_parse_wdl(const EgtbLayout *lay, const uint8_t *file, size_t size, uint8_t *wdl[COLOR_NB], int *tables,
                       char *err, size_t errlen);

/* LZ4-compress src (one block, no dictionary) into dst of dst_cap bytes:
 * a plain greedy matcher whose output any LZ4 block decoder reads. Returns
 * the compressed size, or 0 if it does not fit. */
size_t egtb_lz4_encode(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap);

/* Write t's WDL as xiangqitb's DIR/NAME.lzw (one table for a symmetric
 * signature, else two; no dictionary, as xiangqitb for tables under 256
 * blocks); false with a message. */
bool egtb_xq_write_wdl(const EgtbTable *t, const char *dir, char *err, size_t errlen);

/* Parse a xiangqitb DTC file (NAME.lzdtc, LZMA blocks) of lay's signature:
 * the raw 16-bit entries per index into dtc[RED] and, with two tables,
 * dtc[BLACK] (docs/egtb.md, "Values": value, order; illegal stored as 0).
 * *order128 tells the entry layout. false with a message on any fault. */
bool egtb_xq_parse_dtc(const EgtbLayout *lay, const uint8_t *file, size_t size, uint16_t *dtc[COLOR_NB], int *tables,
                       bool *order128, char *err, size_t errlen);

/* Write t's DTC as xiangqitb's DIR/NAME.lzdtc (entries order << 10 | v,
 * the order-64 layout: a table with an order above 63 or a value above
 * 1023 is refused; illegal entries as 0; LZMA blocks of 1 MiB); false with
 * a message. */
bool egtb_xq_write_dtc(const EgtbTable *t, const char *dir, char *err, size_t errlen);

/* Load a table from xiangqitb's DTC file (ours or xiangqitb's) at path:
 * allocates t for mat, marks illegal indices itself (the file stores them
 * as 0); orders above 0 (values from rule rounds) go to t->order. A
 * symmetric signature's single table is Red to move; Black to move is
 * filled from it (egtb_sym.h). Refuses the order-128 layout, not written
 * yet. false with a message. */
bool egtb_xq_read_table(EgtbTable *t, const char *path, const EgtbMaterial *mat, char *err, size_t errlen);

/* Parse a xiangqitb DTM file (NAME.lzdtm, magic 0xc7b382a6, DTC's layout)
 * of lay's signature: raw entries as egtb_xq_parse_dtc; *rule_bits is
 * the header flag. */
bool egtb_xq_parse_dtm(const EgtbLayout *lay, const uint8_t *file, size_t size, uint16_t *dtm[COLOR_NB], int *tables,
                       bool *rule_bits, char *err, size_t errlen);

/* Write t's DTM (t->dtm) as DIR/NAME.lzdtm: wins v | 0x800, losses v,
 * draws and illegal entries 0, rule flag 0, a side with no win and no
 * loss singular; false with a message. */
bool egtb_xq_write_dtm(const EgtbTable *t, const char *dir, char *err, size_t errlen);

/* Read t->dtm from the DTM file at path; t must hold its DTC values
 * already (they say which indices are illegal). Refuses rule bits, a win
 * flag against the parity of its value, and a single table. false with a
 * message (t->dtm unchanged). */
bool egtb_xq_read_dtm(EgtbTable *t, const char *path, char *err, size_t errlen);
