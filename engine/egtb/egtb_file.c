// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "egtb_codec.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

enum { XQ_WDL_MAGIC = 0x7550918f, XQ_DTC_MAGIC = 0xb19122de, XQ_DTM_MAGIC = 0xc7b382a6, XQ_SINGULAR = 0x80 };
static const uint64_t XqChecksumSeed = 0xf0f0f0f0f0f0ULL;

/* What both file kinds start with: the size, the checksum, the magic, and
 * the material key with the table count (1 or 2) that must fit lay. */
static bool check_header(const EgtbLayout *lay, const uint8_t *file, size_t size, uint32_t magic, const char *kind,
                         int *tables, char *err, size_t errlen) {
    if (size < 16 || (size & 63) != 8) {
        snprintf(err, errlen, "not a xiangqitb file (size %zu is not 64 k + 8)", size);
        return false;
    }
    if (egtb_xxh64(file, size - 8, XqChecksumSeed) != egtb_rd64(file + size - 8)) {
        snprintf(err, errlen, "XXH64 checksum mismatch (corrupt or truncated file)");
        return false;
    }
    if (egtb_rd32(file) != magic) {
        snprintf(err, errlen, "not a xiangqitb %s file (magic %08x)", kind, egtb_rd32(file));
        return false;
    }
    uint32_t key_tables = egtb_rd32(file + 4);
    *tables = (int)(key_tables & 3);
    if ((key_tables >> 2) != egtb_sig_material_key(&lay->mat) || *tables < 1 || *tables > 2) {
        snprintf(err, errlen, "material key or table count does not fit the signature");
        return false;
    }
    return true;
}

/* Every block's compressed bytes lie inside the table's data. */
static bool offsets_fit(const EgtbFile *f, const EgtbFileTable *t) {
    for (uint32_t b = 0; b < t->blocks; b++) {
        uint64_t off, csize;
        if (f->kind == EGTB_FILE_WDL) {
            const uint8_t *o = t->offsets + (size_t)b * (size_t)(2 + t->width);
            csize = egtb_rd16(o);
            off = egtb_rd32(o + 2) | (t->width == 6 ? (uint64_t)egtb_rd16(o + 6) << 32 : 0);
        } else {
            uint64_t e = egtb_rd64(t->offsets + (size_t)b * 8);
            csize = e & 0xFFFFF;
            off = e >> 20;
        }
        if (off > t->data_size || csize > t->data_size - off) return false;
    }
    return true;
}

bool egtb_file_parse(EgtbFile *f, EgtbFileKind kind, const EgtbLayout *lay, const uint8_t *file, size_t size,
                     char *err, size_t errlen) {
    const bool wdl = kind == EGTB_FILE_WDL;
    memset(f, 0, sizeof *f);
    f->kind = kind;
    const bool dtm = kind == EGTB_FILE_DTM;
    if (!check_header(lay, file, size, wdl ? XQ_WDL_MAGIC : dtm ? XQ_DTM_MAGIC : XQ_DTC_MAGIC,
                      wdl ? "WDL" : dtm ? "DTM" : "DTC", &f->tables, err, errlen))
        return false;
    /* Bytes per side to move: 2-bit WDL entries packed four to a byte, or
     * 16-bit DTC or DTM entries. */
    uint64_t bytes = wdl ? (lay->positions + 3) / 4 : 2 * lay->positions;
    size_t at = 8, body = size - 8;
    for (int c = 0; c < f->tables; c++) {
        EgtbFileTable *t = &f->t[c];
        if (body - at < 2) goto truncated;
        if (file[at] & XQ_SINGULAR) {
            t->singular = true;
            t->value = wdl ? file[at + 1] : 0;
            at += 2;
            if (t->value > XQ_WDL_WIN) {
                snprintf(err, errlen, "table %d: singular value %u", c, t->value);
                return false;
            }
            continue;
        }
        if (body - at < (wdl ? 20u : 22u)) goto truncated;
        if (wdl) {
            t->width = file[at + 1];
            t->tail = egtb_rd16(file + at + 2);
            t->block = egtb_rd32(file + at + 4);
            t->blocks = egtb_rd32(file + at + 8);
            t->data_size = egtb_rd64(file + at + 12);
            at += 20;
        } else {
            /* Header byte 1: DTC's order-128 layout, DTM's "rule bits kept". */
            if (dtm)
                f->rule_bits |= file[at + 1] != 0;
            else
                f->order128 |= file[at + 1] != 0;
            t->tail = egtb_rd32(file + at + 2);
            t->block = egtb_rd32(file + at + 6);
            t->blocks = egtb_rd32(file + at + 10);
            t->data_size = egtb_rd64(file + at + 14);
            at += 22;
        }
        uint32_t max = wdl ? EGTB_WDL_BLOCK_MAX : EGTB_DTC_BLOCK_MAX;
        if ((wdl && t->width != 4 && t->width != 6) || t->block == 0 || t->block > max || t->blocks == 0 ||
            t->tail >= t->block || (uint64_t)t->block * (t->blocks - (t->tail != 0)) + t->tail != bytes) {
            snprintf(err, errlen, "table %d: block layout does not give %llu bytes", c, (unsigned long long)bytes);
            return false;
        }
    }
    for (int c = 0; wdl && c < f->tables; c++) { /* WDL: the dictionaries */
        EgtbFileTable *t = &f->t[c];
        if (t->singular) continue;
        if (body - at < 2) goto truncated;
        t->dict_size = egtb_rd16(file + at);
        at += 2;
        if (body - at < t->dict_size) goto truncated;
        t->dict = file + at;
        at += t->dict_size;
        if (t->dict_size) at += at & 1;
    }
    for (int c = 0; c < f->tables; c++) { /* the block offsets */
        EgtbFileTable *t = &f->t[c];
        if (t->singular) continue;
        size_t entry = wdl ? (size_t)(2 + t->width) : 8;
        if (at > body || (body - at) / entry < t->blocks) goto truncated;
        t->offsets = file + at;
        at += (size_t)t->blocks * entry;
    }
    for (int c = 0; c < f->tables; c++) { /* the compressed blocks */
        EgtbFileTable *t = &f->t[c];
        if (t->singular) continue;
        at = (at + 63) & ~(size_t)63;
        if (at > body || body - at < t->data_size) goto truncated;
        t->data = file + at;
        at += t->data_size;
        if (!offsets_fit(f, t)) {
            snprintf(err, errlen, "table %d: a block lies outside the data", c);
            return false;
        }
    }
    return true;
truncated:
    snprintf(err, errlen, "file ends inside its header");
    return false;
}

bool egtb_file_block(const EgtbFile *f, const EgtbFileTable *t, uint32_t b, uint8_t *dst, EgtbLzmaWork *work) {
    if (t->singular || b >= t->blocks) return false;
    uint32_t want = egtb_file_block_size(t, b);
    if (f->kind == EGTB_FILE_WDL) {
        const uint8_t *o = t->offsets + (size_t)b * (size_t)(2 + t->width);
        uint64_t csize = egtb_rd16(o), off = egtb_rd32(o + 2);
        if (t->width == 6) off |= (uint64_t)egtb_rd16(o + 6) << 32;
        return egtb_lz4_decode(t->data + off, csize, dst, want, t->dict, t->dict_size);
    }
    uint64_t e = egtb_rd64(t->offsets + (size_t)b * 8);
    return egtb_lzma_decode_block(t->data + (e >> 20), e & 0xFFFFF, dst, want, work);
}

#ifdef _WIN32
bool egtb_map_file(const char *path, EgtbMap *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        snprintf(err, errlen, "%s: cannot open (error %lu)", path, (unsigned long)GetLastError());
        return false;
    }
    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size) || size.QuadPart == 0) {
        snprintf(err, errlen, "%s: empty or unreadable file", path);
        CloseHandle(file);
        return false;
    }
    HANDLE mapping = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
    CloseHandle(file); /* the mapping keeps the file open */
    const void *view = mapping ? MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0) : NULL;
    if (!view) {
        snprintf(err, errlen, "%s: cannot map (error %lu)", path, (unsigned long)GetLastError());
        if (mapping) CloseHandle(mapping);
        return false;
    }
    m->data = view;
    m->size = (size_t)size.QuadPart;
    m->handle = mapping;
    return true;
}

void egtb_unmap_file(EgtbMap *m) {
    if (m->data) UnmapViewOfFile(m->data);
    if (m->handle) CloseHandle(m->handle);
    memset(m, 0, sizeof *m);
}
#else
bool egtb_map_file(const char *path, EgtbMap *m, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        snprintf(err, errlen, "%s: empty or unreadable file", path);
        close(fd);
        return false;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd); /* the mapping keeps the file open */
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return false;
    }
    m->data = p;
    m->size = (size_t)st.st_size;
    return true;
}

void egtb_unmap_file(EgtbMap *m) {
    if (m->data) munmap((void *)m->data, m->size);
    memset(m, 0, sizeof *m);
}
#endif
