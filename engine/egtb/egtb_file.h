// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * One xiangqitb table file, WDL (NAME.lzw), DTC (NAME.lzdtc) or DTM
 * (NAME.lzdtm: DTC's layout with its own magic), as
 * docs/egtb.md ("File layout") describes it: mapped into memory read-only
 * (mmap, or CreateFileMapping/MapViewOfFile on Windows), its header checked
 * once (size 64 k + 8, XXH64, magic, material key, block layout), then read
 * one block at a time. Parsing works on any bytes in memory, mapped or not
 * (the generator and the fuzzer hand it buffers).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_index.h"
#include "egtb_lzma.h"

typedef enum { EGTB_FILE_WDL = 0, EGTB_FILE_DTC, EGTB_FILE_DTM } EgtbFileKind;

/* xiangqitb's WDL entries: 0 draw, 1 loss, 2 win, 3 illegal (only
 * trustworthy for legal positions: illegal runs are overwritten). */
enum { XQ_WDL_DRAW = 0, XQ_WDL_LOSS = 1, XQ_WDL_WIN = 2, XQ_WDL_ILLEGAL = 3 };

/* Largest block the engine decodes: xiangqitb writes 64 KiB (WDL) and
 * 1 MiB (DTC). */
enum { EGTB_WDL_BLOCK_MAX = 1 << 20, EGTB_DTC_BLOCK_MAX = 1 << 20 };

/* One side to move's table inside a file. */
typedef struct {
    bool singular;               /* one value for every position */
    uint8_t value;               /* that value (WDL entry; DTC: 0, draw) */
    int width;                   /* WDL: bytes per block offset, 4 or 6 */
    uint32_t tail, block, blocks;   /* block size, count, size of a short last block (0: none) */
    uint64_t data_size;
    const uint8_t *dict, *offsets, *data;
    size_t dict_size;
} EgtbFileTable;

typedef struct {
    EgtbFileKind kind;
    int tables;      /* 1 (symmetric signature: Red to move only) or 2 */
    bool order128;   /* DTC: the order-128 entry layout */
    bool rule_bits;  /* DTM: entries may carry rule bits 12-15 (header byte 1) */
    EgtbFileTable t[COLOR_NB];
} EgtbFile;

/* Check and index a file of lay's signature held in file[0..size). The
 * bytes must outlive f. false with a one-line reason on any fault. */
bool egtb_file_parse(EgtbFile *f, EgtbFileKind kind, const EgtbLayout *lay, const uint8_t *file, size_t size,
                     char *err, size_t errlen);

/* Bytes block b of table c decodes to. */
static inline uint32_t egtb_file_block_size(const EgtbFileTable *t, uint32_t b) {
    return b == t->blocks - 1 && t->tail ? t->tail : t->block;
}

/* Decode block b of table t into dst (egtb_file_block_size bytes); work is
 * needed for DTC and DTM files only. false on bad data. Allocates nothing. */
bool egtb_file_block(const EgtbFile *f, const EgtbFileTable *t, uint32_t b, uint8_t *dst, EgtbLzmaWork *work);

/* A file mapped read-only. */
typedef struct {
    const uint8_t *data;
    size_t size;
    void *handle; /* Windows: the mapping object */
} EgtbMap;

/* Map path; false with a reason (missing, empty, unreadable). */
bool egtb_map_file(const char *path, EgtbMap *m, char *err, size_t errlen);
void egtb_unmap_file(EgtbMap *m);
