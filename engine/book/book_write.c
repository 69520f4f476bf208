// SPDX-License-Identifier: GPL-3.0-or-later
#include "book_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v) {
    put16(p, v);
    put16(p + 2, v >> 16);
}
static void put64(uint8_t *p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t clip_weight(uint32_t w) { return w > BOOK_WEIGHT_MAX ? BOOK_WEIGHT_MAX : w; }

/* Key (lock1 first, as BookKey is laid out), then the move as stored. */
static int cmp_tuong(const void *a, const void *b) {
    const BookEntry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (int)book_file_move(x->move) - (int)book_file_move(y->move);
}

static int cmp_eleeye(const void *a, const void *b) {
    const BookEntry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (int)book_ee_move(x->move) - (int)book_ee_move(y->move);
}

static void encode_tuong(uint8_t *e, const BookEntry *x) {
    put64(e, x->key);
    put16(e + 8, book_file_move(x->move));
    put16(e + 10, clip_weight(x->weight));
    put32(e + 12, x->wins);
    put32(e + 16, x->draws);
    put32(e + 20, x->losses);
}

static void encode_eleeye(uint8_t *e, const BookEntry *x) {
    put32(e, book_key_lock1(x->key));
    put16(e + 4, book_ee_move(x->move));
    put16(e + 6, clip_weight(x->weight));
}

static bool write_header(FILE *f, size_t count) {
    uint8_t h[BOOK_HEADER_SIZE] = {0};
    memcpy(h, BOOK_MAGIC, sizeof BOOK_MAGIC);
    put32(h + 8, BOOK_VERSION);
    put32(h + 12, BOOK_ENTRY_SIZE);
    put64(h + 16, count);
    return fwrite(h, sizeof h, 1, f) == 1;
}

bool book_write(const char *path, BookFormat format, BookEntry *entries, size_t count, char *err, size_t errlen) {
    bool tuong = format == BOOK_FORMAT_TUONG;
    if (count > 1) qsort(entries, count, sizeof *entries, tuong ? cmp_tuong : cmp_eleeye);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        return false;
    }
    bool ok = !tuong || write_header(f, count);
    for (size_t i = 0; ok && i < count; i++) {
        uint8_t e[BOOK_ENTRY_SIZE];
        if (tuong)
            encode_tuong(e, &entries[i]);
        else
            encode_eleeye(e, &entries[i]);
        ok = fwrite(e, tuong ? BOOK_ENTRY_SIZE : BOOK_EE_RECORD_SIZE, 1, f) == 1;
    }
    if (fclose(f) != 0) ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        remove(path);
    }
    return ok;
}
