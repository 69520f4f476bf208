// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_xq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_file.h"
#include "egtb_lzma_enc.h"
#include "egtb_reindex.h"
#include "egtb_sym.h"

/* The header constants as egtb_file.c reads them. */
enum { XQ_WDL_MAGIC = 0x7550918f, XQ_DTC_MAGIC = 0xb19122de, XQ_DTM_MAGIC = 0xc7b382a6, XQ_SINGULAR = 0x80, XQ_WDL_BLOCK = 65536 };
static const uint64_t XqChecksumSeed = 0xf0f0f0f0f0f0ULL;

bool egtb_xq_parse_wdl(const EgtbLayout *lay, const uint8_t *file, size_t size, uint8_t *wdl[COLOR_NB], int *tables,
                       char *err, size_t errlen) {
    EgtbFile f;
    if (!egtb_file_parse(&f, EGTB_FILE_WDL, lay, file, size, err, errlen)) return false;
    *tables = f.tables;
    uint64_t n = lay->positions;
    uint8_t *buf = NULL;
    for (int c = 0; c < f.tables; c++) {
        const EgtbFileTable *t = &f.t[c];
        if (t->singular) {
            memset(wdl[c], t->value, n);
            continue;
        }
        if (!buf && !(buf = malloc(EGTB_WDL_BLOCK_MAX))) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        uint64_t pos = 0;
        for (uint32_t b = 0; b < t->blocks; b++) {
            if (!egtb_file_block(&f, t, b, buf, NULL)) {
                snprintf(err, errlen, "table %d block %u: bad LZ4 data", c, b);
                free(buf);
                return false;
            }
            for (size_t i = 0; i < egtb_file_block_size(t, b) && pos < n; i++)
                for (int k = 0; k < 4 && pos < n; k++)
                    wdl[c][pos++] = (buf[i] >> (2 * k)) & 3;
        }
    }
    free(buf);
    return true;
}

/* LZ4 block rules every decoder relies on: the last 5 bytes are literals
 * and no match starts within the last 12. */
enum { LZ4_MIN_MATCH = 4, LZ4_LAST_LITERALS = 5, LZ4_MF_LIMIT = 12, LZ4_HASH_BITS = 16 };

static size_t lz4_put_length(uint8_t *dst, size_t at, size_t cap, size_t len) {
    for (; len >= 255; len -= 255) {
        if (at >= cap) return SIZE_MAX;
        dst[at++] = 255;
    }
    if (at >= cap) return SIZE_MAX;
    dst[at++] = (uint8_t)len;
    return at;
}

/* One sequence: literals src[lit, lit + nlit), then (if mlen) a match. */
static size_t lz4_put_sequence(uint8_t *dst, size_t at, size_t cap, const uint8_t *lit, size_t nlit, size_t offset,
                               size_t mlen) {
    if (at >= cap) return SIZE_MAX;
    size_t token = at++;
    size_t mcode = mlen ? mlen - LZ4_MIN_MATCH : 0;
    dst[token] = (uint8_t)((nlit < 15 ? nlit : 15) << 4 | (mcode < 15 ? mcode : 15));
    if (nlit >= 15 && (at = lz4_put_length(dst, at, cap, nlit - 15)) == SIZE_MAX) return SIZE_MAX;
    if (nlit > cap - at) return SIZE_MAX;
    memcpy(dst + at, lit, nlit);
    at += nlit;
    if (!mlen) return at;
    if (cap - at < 2) return SIZE_MAX;
    dst[at++] = (uint8_t)offset;
    dst[at++] = (uint8_t)(offset >> 8);
    if (mcode >= 15) at = lz4_put_length(dst, at, cap, mcode - 15);
    return at;
}

size_t egtb_lz4_encode(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap) {
    static _Thread_local uint32_t table[1 << LZ4_HASH_BITS]; /* position + 1 of the last 4-byte sequence seen */
    memset(table, 0, sizeof table);
    size_t anchor = 0, at = 0, i = 0;
    while (size >= LZ4_MF_LIMIT + 1 && i + LZ4_MF_LIMIT <= size) {
        uint32_t seq = egtb_rd32(src + i);
        uint32_t h = (seq * 2654435761u) >> (32 - LZ4_HASH_BITS);
        size_t cand = table[h];
        table[h] = (uint32_t)(i + 1);
        if (cand == 0 || i - (cand - 1) > 65535 || egtb_rd32(src + cand - 1) != seq) {
            i++;
            continue;
        }
        size_t from = cand - 1, len = LZ4_MIN_MATCH;
        while (i + len < size - LZ4_LAST_LITERALS && src[from + len] == src[i + len])
            len++;
        at = lz4_put_sequence(dst, at, dst_cap, src + anchor, i - anchor, i - from, len);
        if (at == SIZE_MAX) return 0;
        i += len;
        anchor = i;
    }
    at = lz4_put_sequence(dst, at, dst_cap, src + anchor, size - anchor, 0, 0);
    return at == SIZE_MAX ? 0 : at;
}

static void wr16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void wr32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Write DIR/NAME+ext whole, through a .part file renamed at the end. */
static bool write_whole(const char *dir, const char *name, const char *ext, const uint8_t *data, size_t size, char *err,
                        size_t errlen) {
    char path[1200], tmp[1300];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(data, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = false;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

/* One side's table ready to write: singular, or its compressed blocks. */
typedef struct {
    bool singular;
    uint8_t value;
    uint32_t blocks, tail;
    uint8_t *data;   /* compressed blocks back to back */
    uint16_t *csize; /* per block */
    uint64_t data_size;
} XqSide;

static int xq_entry(uint16_t v) {
    return v == EGTB_ILLEGAL ? XQ_WDL_ILLEGAL : v == 0 ? XQ_WDL_DRAW : (v & 1) ? XQ_WDL_LOSS : XQ_WDL_WIN;
}

static bool xq_side_prepare(const EgtbTable *t, Color c, XqSide *x, char *err, size_t errlen) {
    uint64_t n = t->lay.positions, count[4] = {0};
    for (uint64_t i = 0; i < n; i++)
        count[xq_entry(t->val[c][i])]++;
    memset(x, 0, sizeof *x);
    /* xiangqitb's order of tests (save_compress_evtb). */
    int single = count[XQ_WDL_DRAW] + count[XQ_WDL_LOSS] == 0  ? XQ_WDL_WIN
                 : count[XQ_WDL_WIN] + count[XQ_WDL_LOSS] == 0 ? XQ_WDL_DRAW
                 : count[XQ_WDL_WIN] + count[XQ_WDL_DRAW] == 0 ? XQ_WDL_LOSS
                                                               : -1;
    if (single >= 0) {
        x->singular = true;
        x->value = (uint8_t)single;
        return true;
    }
    uint64_t packed = (n + 3) / 4;
    x->blocks = (uint32_t)((packed + XQ_WDL_BLOCK - 1) / XQ_WDL_BLOCK);
    x->tail = (uint32_t)(packed % XQ_WDL_BLOCK);
    uint8_t *raw = calloc(packed, 1);
    x->data = malloc((size_t)x->blocks * 65535);
    x->csize = malloc(sizeof(uint16_t) * x->blocks);
    if (!raw || !x->data || !x->csize) {
        free(raw);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    /* Illegal entries take the value before them (or the first legal one):
     * any value does, and runs of one value compress best. */
    int last = -1;
    for (uint64_t i = 0; i < n && last < 0; i++)
        if (xq_entry(t->val[c][i]) != XQ_WDL_ILLEGAL) last = xq_entry(t->val[c][i]);
    for (uint64_t i = 0; i < n; i++) {
        int e = xq_entry(t->val[c][i]);
        if (e == XQ_WDL_ILLEGAL) e = last;
        last = e;
        raw[i / 4] |= (uint8_t)(e << (2 * (i % 4)));
    }
    for (uint32_t b = 0; b < x->blocks; b++) {
        size_t len = b == x->blocks - 1 && x->tail ? x->tail : XQ_WDL_BLOCK;
        size_t got = egtb_lz4_encode(raw + (size_t)b * XQ_WDL_BLOCK, len, x->data + x->data_size, 65535);
        if (got == 0) {
            free(raw);
            snprintf(err, errlen, "%s: block %u does not compress below 64 KiB", t->name, b);
            return false;
        }
        x->csize[b] = (uint16_t)got;
        x->data_size += got;
    }
    free(raw);
    return true;
}

bool egtb_xq_write_wdl(const EgtbTable *t, const char *dir, char *err, size_t errlen) {
    int tables = egtb_sig_symmetric(&t->lay.mat) ? 1 : 2;
    XqSide x[COLOR_NB];
    memset(x, 0, sizeof x);
    bool ok = true;
    for (int c = 0; c < tables && ok; c++)
        ok = xq_side_prepare(t, (Color)c, &x[c], err, errlen);
    /* Sizes as save_evtb_table lays them out. */
    size_t size = 8;
    for (int c = 0; c < tables; c++)
        size += x[c].singular ? 2 : 20;
    for (int c = 0; c < tables; c++)
        size += x[c].singular ? 0 : 2 + (size_t)x[c].blocks * 6;
    size_t data_at[COLOR_NB] = {0};
    for (int c = 0; c < tables; c++) {
        if (x[c].singular) continue;
        size = (size + 63) & ~(size_t)63;
        data_at[c] = size;
        size += x[c].data_size;
    }
    size = (size + 63) & ~(size_t)63;
    uint8_t *file = ok ? calloc(size + 8, 1) : NULL;
    if (ok && !file) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    if (ok) {
        size_t at = 8;
        wr32(file, XQ_WDL_MAGIC);
        wr32(file + 4, (egtb_sig_material_key(&t->lay.mat) << 2) + (uint32_t)tables);
        for (int c = 0; c < tables; c++) {
            if (x[c].singular) {
                file[at] = XQ_SINGULAR;
                file[at + 1] = x[c].value;
                at += 2;
                continue;
            }
            file[at + 1] = 4; /* offset width */
            wr16(file + at + 2, (uint16_t)x[c].tail);
            wr32(file + at + 4, XQ_WDL_BLOCK);
            wr32(file + at + 8, x[c].blocks);
            wr64(file + at + 12, x[c].data_size);
            at += 20;
        }
        for (int c = 0; c < tables; c++)
            if (!x[c].singular) at += 2; /* no dictionary */
        for (int c = 0; c < tables; c++) {
            if (x[c].singular) continue;
            uint32_t off = 0;
            for (uint32_t b = 0; b < x[c].blocks; b++) {
                wr16(file + at, x[c].csize[b]);
                wr32(file + at + 2, off);
                off += x[c].csize[b];
                at += 6;
            }
            memcpy(file + data_at[c], x[c].data, x[c].data_size);
        }
        wr64(file + size, egtb_xxh64(file, size, XqChecksumSeed));
        ok = write_whole(dir, t->name, EGTB_WDL_EXT, file, size + 8, err, errlen);
    }
    free(file);
    for (int c = 0; c < COLOR_NB; c++) {
        free(x[c].data);
        free(x[c].csize);
    }
    return ok;
}

/* DTC or DTM entries (kind) into dtc[]; *flag is the header's byte 1. */
static bool parse_lzma16(EgtbFileKind kind, const EgtbLayout *lay, const uint8_t *file, size_t size,
                         uint16_t *dtc[COLOR_NB], int *tables, bool *flag, char *err, size_t errlen) {
    EgtbFile f;
    if (!egtb_file_parse(&f, kind, lay, file, size, err, errlen)) return false;
    *tables = f.tables;
    *flag = kind == EGTB_FILE_DTM ? f.rule_bits : f.order128;
    uint64_t n = lay->positions;
    uint8_t *buf = NULL;
    EgtbLzmaWork *work = NULL;
    bool ok = true;
    for (int c = 0; ok && c < f.tables; c++) {
        const EgtbFileTable *t = &f.t[c];
        if (t->singular) {
            memset(dtc[c], 0, n * sizeof(uint16_t));
            continue;
        }
        if (!buf && (!(buf = malloc(EGTB_DTC_BLOCK_MAX)) || !(work = malloc(sizeof *work)))) {
            snprintf(err, errlen, "out of memory");
            ok = false;
            break;
        }
        uint64_t pos = 0;
        for (uint32_t b = 0; ok && b < t->blocks; b++) {
            if (!egtb_file_block(&f, t, b, buf, work)) {
                snprintf(err, errlen, "table %d block %u: bad LZMA data", c, b);
                ok = false;
                break;
            }
            size_t want = egtb_file_block_size(t, b);
            for (size_t i = 0; i + 1 < want && pos < n; i += 2)
                dtc[c][pos++] = egtb_rd16(buf + i);
        }
    }
    free(buf);
    free(work);
    return ok;
}

bool egtb_xq_parse_dtc(const EgtbLayout *lay, const uint8_t *file, size_t size, uint16_t *dtc[COLOR_NB], int *tables,
                       bool *order128, char *err, size_t errlen) {
    return parse_lzma16(EGTB_FILE_DTC, lay, file, size, dtc, tables, order128, err, errlen);
}

bool egtb_xq_parse_dtm(const EgtbLayout *lay, const uint8_t *file, size_t size, uint16_t *dtm[COLOR_NB], int *tables,
                       bool *rule_bits, char *err, size_t errlen) {
    return parse_lzma16(EGTB_FILE_DTM, lay, file, size, dtm, tables, rule_bits, err, errlen);
}

enum { XQ_DTC_BLOCK = 1 << 20, XQ_DTC_CSIZE_MAX = (1 << 20) - 1 };

/* LZMA-compress bytes in blocks of 1 MiB into data (csize per block). */
static bool dtc_compress(const uint8_t *raw, uint64_t bytes, uint8_t *data, uint32_t *csize, uint64_t *data_size) {
    *data_size = 0;
    for (uint64_t at = 0, b = 0; at < bytes; at += XQ_DTC_BLOCK, b++) {
        size_t len = bytes - at < XQ_DTC_BLOCK ? (size_t)(bytes - at) : XQ_DTC_BLOCK;
        size_t got = egtb_lzma_encode_block(raw + at, len, data + *data_size, XQ_DTC_CSIZE_MAX);
        if (got == 0) return false;
        csize[b] = (uint32_t)got;
        *data_size += got;
    }
    return true;
}

/* DTM entries (docs/egtb.md, "DTM files"): v in bits 0-10, bit 11 the win
 * flag, rule bits 12-15 never set here (one side attacking). */
enum { XQ_DTM_SCORE = 0x7FF, XQ_DTM_WIN = 0x800, XQ_DTM_RULE_SHIFT = 12 };

/* DTC entries of the order-64 layout (docs/egtb.md, "Values"): v in bits
 * 0-9, the rule round that settled it in bits 10-15. */
enum { XQ_DTC_VALUE = 0x3FF, XQ_DTC_ORDER_SHIFT = 10, XQ_DTC_ORDER_MAX = 63 };

/* An entry as stored: illegal as 0; DTM wins with their flag; DTC values
 * with their order. */
static uint16_t entry_of(const EgtbTable *t, int c, uint64_t i, bool dtm) {
    uint16_t v = (dtm ? t->dtm : t->val)[c][i];
    if (v == EGTB_ILLEGAL) return 0;
    if (dtm && t->dtm_flagged) return v; /* already as stored */
    if (dtm) return egtb_is_win(v) ? (uint16_t)(v | XQ_DTM_WIN) : v;
    return (uint16_t)(egtb_table_order(t, c, i) << XQ_DTC_ORDER_SHIFT | v);
}

/* Every DTC value and order fits its field: a longer conversion or more
 * rule rounds would need the order-128 layout, which is not written. */
static bool dtc_fits(const EgtbTable *t, char *err, size_t errlen) {
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < t->lay.positions; i++) {
            uint16_t v = t->val[c][i];
            unsigned order = egtb_table_order(t, c, i);
            if (v != EGTB_ILLEGAL && (v > XQ_DTC_VALUE || order > XQ_DTC_ORDER_MAX)) {
                snprintf(err, errlen, "%s: value %u order %u at index %llu does not fit the order-64 DTC layout "
                         "(orders up to %d; the order-128 layout is not written)", t->name, v, order,
                         (unsigned long long)i, XQ_DTC_ORDER_MAX);
                return false;
            }
        }
    return true;
}

/* The DTC and DTM writer: both are 16-bit entries in LZMA blocks, told
 * apart by the magic. */
static bool write_lzma16(const EgtbTable *t, bool dtm, const char *dir, char *err, size_t errlen) {
    if (!dtm && !dtc_fits(t, err, errlen)) return false;
    int tables = egtb_sig_symmetric(&t->lay.mat) ? 1 : 2;
    uint64_t n = t->lay.positions, bytes = 2 * n;
    uint32_t blocks = (uint32_t)((bytes + XQ_DTC_BLOCK - 1) / XQ_DTC_BLOCK), tail = (uint32_t)(bytes % XQ_DTC_BLOCK);
    bool singular[COLOR_NB] = {true, true};
    uint8_t *data[COLOR_NB] = {NULL, NULL};
    uint32_t *csize[COLOR_NB] = {NULL, NULL};
    uint64_t data_size[COLOR_NB] = {0, 0};
    uint8_t *raw = malloc(bytes ? bytes : 1);
    bool ok = raw != NULL;
    if (!ok) snprintf(err, errlen, "out of memory");
    for (int c = 0; ok && c < tables; c++) {
        for (uint64_t i = 0; i < n; i++) {
            uint16_t v = entry_of(t, c, i, dtm);
            singular[c] &= v == 0; /* xiangqitb: singular only when all drawn */
            raw[2 * i] = (uint8_t)v;
            raw[2 * i + 1] = (uint8_t)(v >> 8);
        }
        if (singular[c]) continue;
        data[c] = malloc((size_t)blocks * XQ_DTC_CSIZE_MAX);
        csize[c] = malloc(sizeof(uint32_t) * blocks);
        ok = data[c] && csize[c] && dtc_compress(raw, bytes, data[c], csize[c], &data_size[c]);
        if (!ok) snprintf(err, errlen, "%s: out of memory, or a block does not compress below 1 MiB", t->name);
    }
    free(raw);
    /* Sizes as save_egtb_table lays them out. */
    size_t size = 8, data_at[COLOR_NB] = {0, 0};
    for (int c = 0; c < tables; c++)
        size += singular[c] ? 2 : 22 + (size_t)blocks * 8;
    for (int c = 0; c < tables; c++) {
        if (singular[c]) continue;
        size = (size + 63) & ~(size_t)63;
        data_at[c] = size;
        size += data_size[c];
    }
    size = (size + 63) & ~(size_t)63;
    uint8_t *file = ok ? calloc(size + 8, 1) : NULL;
    if (ok && !file) {
        snprintf(err, errlen, "out of memory");
        ok = false;
    }
    if (ok) {
        size_t at = 8;
        wr32(file, dtm ? XQ_DTM_MAGIC : XQ_DTC_MAGIC);
        wr32(file + 4, (egtb_sig_material_key(&t->lay.mat) << 2) + (uint32_t)tables);
        for (int c = 0; c < tables; c++) {
            if (singular[c]) {
                file[at] = XQ_SINGULAR; /* value 0: draw */
                at += 2;
                continue;
            }
            wr32(file + at + 2, tail); /* byte 1: order-128 (DTC) or rule-bits (DTM) flag, 0 */
            wr32(file + at + 6, XQ_DTC_BLOCK);
            wr32(file + at + 10, blocks);
            wr64(file + at + 14, data_size[c]);
            at += 22;
        }
        for (int c = 0; c < tables; c++) {
            if (singular[c]) continue;
            uint64_t off = 0;
            for (uint32_t b = 0; b < blocks; b++) {
                wr64(file + at, off << 20 | csize[c][b]);
                off += csize[c][b];
                at += 8;
            }
            memcpy(file + data_at[c], data[c], data_size[c]);
        }
        wr64(file + size, egtb_xxh64(file, size, XqChecksumSeed));
        ok = write_whole(dir, t->name, dtm ? EGTB_DTM_EXT : EGTB_DTC_EXT, file, size + 8, err, errlen);
    }
    free(file);
    for (int c = 0; c < COLOR_NB; c++) {
        free(data[c]);
        free(csize[c]);
    }
    return ok;
}

bool egtb_xq_write_dtc(const EgtbTable *t, const char *dir, char *err, size_t errlen) {
    return write_lzma16(t, false, dir, err, errlen);
}

bool egtb_xq_write_dtm(const EgtbTable *t, const char *dir, char *err, size_t errlen) {
    if (!t->dtm[RED] || !t->dtm[BLACK]) {
        snprintf(err, errlen, "%s: no DTM solved", t->name);
        return false;
    }
    return write_lzma16(t, true, dir, err, errlen);
}

/* The whole file at path, malloc'd (NULL when out of memory); *opened
 * false (errno set) when it cannot be opened. */
static uint8_t *read_all(const char *path, size_t *size, bool *opened) {
    uint8_t *file = NULL;
    size_t cap = 0, got;
    *size = 0;
    FILE *f = fopen(path, "rb");
    *opened = f != NULL;
    if (!f) return NULL;
    do {
        if (*size == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *p = realloc(file, cap);
            if (!p) {
                free(file);
                file = NULL;
                break;
            }
            file = p;
        }
        got = fread(file + *size, 1, cap - *size, f);
        *size += got;
    } while (got > 0);
    fclose(f);
    return file;
}

bool egtb_xq_read_table(EgtbTable *t, const char *path, const EgtbMaterial *mat, char *err, size_t errlen) {
    char why[400];
    if (!egtb_table_alloc(t, mat, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    size_t size = 0;
    bool opened;
    uint8_t *file = read_all(path, &size, &opened);
    if (!opened) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        egtb_table_free(t);
        return false;
    }
    uint64_t n = t->lay.positions;
    uint16_t *raw[COLOR_NB] = {malloc(2 * n + 2), malloc(2 * n + 2)};
    Position *pos = malloc(sizeof *pos);
    int tables = 0;
    bool order128 = false;
    bool ok = file && raw[RED] && raw[BLACK] && pos;
    if (!ok) snprintf(why, sizeof why, "out of memory");
    ok = ok && egtb_xq_parse_dtc(&t->lay, file, size, raw, &tables, &order128, why, sizeof why);
    /* A symmetric signature stores Red to move only; Black to move is its
     * turned image (egtb_sym.h). */
    if (ok && tables != (egtb_sig_symmetric(mat) ? 1 : 2)) {
        snprintf(why, sizeof why, "%d tables, where the signature has %d", tables, egtb_sig_symmetric(mat) ? 1 : 2);
        ok = false;
    }
    if (ok && order128) {
        snprintf(why, sizeof why, "the order-128 layout (rule rounds past 63): not supported");
        ok = false;
    }
    for (int c = 0; ok && c < tables; c++)
        for (uint64_t i = 0; ok && i < n; i++) {
            uint16_t e = raw[c][i], v = e & XQ_DTC_VALUE, order = e >> XQ_DTC_ORDER_SHIFT;
            /* The boards are all the legality test reads: no key or check
             * state computed (egtb_reindex_place), as in the solver. */
            if (!egtb_reindex_place(&t->lay, i, (Color)c, pos) || !egtb_decoded_legal(pos)) {
                t->val[c][i] = EGTB_ILLEGAL;
                continue;
            }
            t->val[c][i] = v;
            if (order == 0) continue;
            /* Values from rule rounds (the rule loop, egtb_rule_loop.h):
             * an order array only for tables that have them. */
            if (!t->order[c] && !(t->order[c] = calloc(n, 1))) {
                snprintf(why, sizeof why, "out of memory");
                ok = false;
            } else {
                t->order[c][i] = (uint8_t)order;
            }
        }
    if (ok && tables == 1) ok = egtb_sym_fill_black(t, why, sizeof why);
    free(file);
    free(raw[RED]);
    free(raw[BLACK]);
    free(pos);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        egtb_table_free(t);
    }
    return ok;
}

/* A stored DTM entry back on the solver's scale (wins even, losses odd);
 * false for what the generator does not read: rule bits, or a win flag
 * against the parity (a both-sides table, docs/egtb.md "DTM files"). */
static bool dtm_value(uint16_t e, uint16_t *v) {
    uint16_t x = e & XQ_DTM_SCORE;
    bool win = e & XQ_DTM_WIN;
    *v = x;
    if (e >> XQ_DTM_RULE_SHIFT) return false;
    return x == 0 ? !win : win == !(x & 1);
}

bool egtb_xq_read_dtm(EgtbTable *t, const char *path, char *err, size_t errlen) {
    char why[400] = "out of memory";
    uint64_t n = t->lay.positions;
    size_t size = 0;
    bool opened;
    uint8_t *file = read_all(path, &size, &opened);
    if (!opened) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    uint16_t *dtm[COLOR_NB] = {malloc(2 * n + 2), malloc(2 * n + 2)};
    int tables = 0;
    bool rule_bits = false;
    bool ok = file && dtm[RED] && dtm[BLACK] &&
              egtb_xq_parse_dtm(&t->lay, file, size, dtm, &tables, &rule_bits, why, sizeof why);
    bool symmetric = egtb_sig_symmetric(&t->lay.mat);
    if (ok && tables != (symmetric ? 1 : 2)) {
        snprintf(why, sizeof why, "%d tables, where the signature has %d", tables, symmetric ? 1 : 2);
        ok = false;
    }
    if (ok && rule_bits) {
        snprintf(why, sizeof why, "rule bits kept (both sides attacking): not supported");
        ok = false;
    }
    /* Where both sides attack the entries are kept as stored (win flag and
     * value: wins may be odd), their sign checked against DTC. */
    bool flagged = egtb_sig_has_attackers(&t->lay.mat, RED) && egtb_sig_has_attackers(&t->lay.mat, BLACK);
    for (int c = 0; ok && c < tables; c++)
        for (uint64_t i = 0; ok && i < n; i++) {
            uint16_t v, e = dtm[c][i];
            if (t->val[c][i] == EGTB_ILLEGAL) { /* illegal as in the DTC table: stored as 0 */
                dtm[c][i] = EGTB_ILLEGAL;
            } else if (flagged) {
                bool win = e & XQ_DTM_WIN, zero = (e & XQ_DTM_SCORE) == 0;
                if (zero ? e != 0 || t->val[c][i] != 0 : t->val[c][i] == 0 || win != egtb_is_win(t->val[c][i])) {
                    snprintf(why, sizeof why, "index %llu: entry %04x against DTC %u", (unsigned long long)i, e,
                             t->val[c][i]);
                    ok = false;
                }
            } else if (!dtm_value(dtm[c][i], &v)) {
                snprintf(why, sizeof why, "index %llu: entry %04x has rule bits or a win flag against its value",
                         (unsigned long long)i, dtm[c][i]);
                ok = false;
            } else {
                dtm[c][i] = v;
            }
        }
    free(file);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(dtm[RED]);
        free(dtm[BLACK]);
        return false;
    }
    for (int c = 0; c < COLOR_NB; c++) {
        free(t->dtm[c]);
        t->dtm[c] = dtm[c];
    }
    t->dtm_flagged = flagged;
    /* a symmetric signature stores Red to move only (as its DTC) */
    return tables == 2 || egtb_sym_fill_black_dtm(t, err, errlen);
}
