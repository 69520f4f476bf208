// SPDX-License-Identifier: GPL-3.0-or-later
/* Reading and probing book files (layouts in book.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book.h"
#include "book_key.h"
#include "movegen.h"
#include "sys.h"

struct Book {
    BookFormat format;
    size_t count;           /* entries */
    const uint8_t *entries; /* into data */
    uint8_t *data;          /* the whole file */
};

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

static size_t entry_size(const Book *b) {
    return b->format == BOOK_FORMAT_TUONG ? BOOK_ENTRY_SIZE : BOOK_EE_RECORD_SIZE;
}
static const uint8_t *entry_at(const Book *b, size_t i) { return b->entries + i * entry_size(b); }

/* The key an entry is sorted by: the whole key, or BOOK.DAT's lock1. */
static uint64_t entry_key(const Book *b, size_t i) {
    const uint8_t *e = entry_at(b, i);
    return b->format == BOOK_FORMAT_TUONG ? get64(e) : get32(e);
}

static Move entry_move(const Book *b, size_t i) {
    const uint8_t *e = entry_at(b, i);
    return b->format == BOOK_FORMAT_TUONG ? book_from_file_move(get16(e + 8)) : book_from_ee_move(get16(e + 4));
}

static BookMove entry_decode(const Book *b, size_t i) {
    const uint8_t *e = entry_at(b, i);
    BookMove m = {entry_move(b, i), 0, 0, 0, 0};
    if (b->format == BOOK_FORMAT_TUONG) {
        m.weight = get16(e + 10);
        m.wins = get32(e + 12);
        m.draws = get32(e + 16);
        m.losses = get32(e + 20);
    } else {
        m.weight = get16(e + 6);
    }
    return m;
}

/* Read a whole regular file; NULL with a reason. A FIFO or device is
 * refused before anything could block on it. */
static uint8_t *read_file(const char *path, size_t *size, char *err, size_t errlen) {
    int fd = sys_open_read(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    uint8_t *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        snprintf(err, errlen, "'%s' is not a regular file", path);
    else if (st.st_size == 0)
        snprintf(err, errlen, "'%s' is empty", path);
    else if (st.st_size > (off_t)BOOK_MAX_MB * 1024 * 1024)
        snprintf(err, errlen, "'%s' is larger than %d MB", path, BOOK_MAX_MB);
    else if (!(data = malloc((size_t)st.st_size)))
        snprintf(err, errlen, "no memory for '%s'", path);
    size_t done = 0;
    while (data && done < (size_t)st.st_size) {
        ssize_t n = read(fd, data + done, (size_t)st.st_size - done);
        if (n <= 0) {
            snprintf(err, errlen, "cannot read '%s': %s", path, n < 0 ? strerror(errno) : "file shrank");
            free(data);
            data = NULL;
        } else {
            done += (size_t)n;
        }
    }
    close(fd);
    *size = done;
    return data;
}

/* Could some piece make this move on an empty board? A cheap test that
 * tells a book from other bytes of the right size. */
static bool move_shape_ok(Move m) {
    int df = abs(file_of(move_from(m)) - file_of(move_to(m))), dr = abs(rank_of(move_from(m)) - rank_of(move_to(m)));
    return df == 0 || dr == 0 || (df == 1 && dr <= 2) || (df == 2 && dr <= 2);
}

/* Keys in order and every move a move on the board; else explain. */
static bool entries_ok(const Book *b, const char *path, char *err, size_t errlen) {
    const char *what = b->format == BOOK_FORMAT_TUONG ? "entry" : "record";
    for (size_t i = 0; i < b->count; i++) {
        Move m = entry_move(b, i);
        if (m == MOVE_NONE || !move_shape_ok(m)) {
            snprintf(err, errlen, "'%s': %s %zu holds no move on the board (the file is corrupt or no %s)", path, what,
                     i, book_format_name(b->format));
            return false;
        }
        if (i && entry_key(b, i) < entry_key(b, i - 1)) {
            snprintf(err, errlen, "'%s': %s %zu is out of key order (the file is corrupt or no %s)", path, what, i,
                     book_format_name(b->format));
            return false;
        }
    }
    return true;
}

static bool tuong_header_ok(Book *b, size_t size, const char *path, char *err, size_t errlen) {
    uint32_t version = get32(b->data + 8), esize = get32(b->data + 12);
    uint64_t count = size >= BOOK_HEADER_SIZE ? get64(b->data + 16) : 0;
    if (size < BOOK_HEADER_SIZE) {
        snprintf(err, errlen, "'%s' is truncated: %zu bytes, less than the %d-byte header", path, size,
                 BOOK_HEADER_SIZE);
    } else if (version != BOOK_VERSION || esize != BOOK_ENTRY_SIZE) {
        snprintf(err, errlen, "'%s': Tuong book version %u (entry size %u) is not the version %d this engine reads",
                 path, version, esize, BOOK_VERSION);
    } else if (count != (size - BOOK_HEADER_SIZE) / BOOK_ENTRY_SIZE || (size - BOOK_HEADER_SIZE) % BOOK_ENTRY_SIZE) {
        snprintf(err, errlen,
                 "'%s' is truncated or corrupt: the header promises %llu entries, the file holds %zu bytes", path,
                 (unsigned long long)count, size);
    } else {
        b->count = (size_t)count;
        b->entries = b->data + BOOK_HEADER_SIZE;
        return true;
    }
    return false;
}

static bool eleeye_layout_ok(Book *b, size_t size, const char *path, char *err, size_t errlen) {
    if (size % BOOK_EE_RECORD_SIZE) {
        snprintf(err, errlen,
                 "'%s' is neither a Tuong book (no header) nor an ElephantEye BOOK.DAT (%zu bytes is not a whole "
                 "number of %d-byte records)",
                 path, size, BOOK_EE_RECORD_SIZE);
        return false;
    }
    b->count = size / BOOK_EE_RECORD_SIZE;
    b->entries = b->data;
    return true;
}

Book *book_open(const char *path, char *err, size_t errlen) {
    Book *b = calloc(1, sizeof *b);
    size_t size = 0;
    if (!b || !(b->data = read_file(path, &size, err, errlen))) {
        if (!b) snprintf(err, errlen, "no memory for '%s'", path);
        free(b);
        return NULL;
    }
    bool tuong = size >= sizeof BOOK_MAGIC && !memcmp(b->data, BOOK_MAGIC, sizeof BOOK_MAGIC);
    b->format = tuong ? BOOK_FORMAT_TUONG : BOOK_FORMAT_ELEEYE;
    bool ok = tuong ? tuong_header_ok(b, size, path, err, errlen) : eleeye_layout_ok(b, size, path, err, errlen);
    if (!ok || !entries_ok(b, path, err, errlen)) {
        book_close(b);
        return NULL;
    }
    return b;
}

void book_close(Book *b) {
    if (!b) return;
    free(b->data);
    free(b);
}

BookFormat book_format(const Book *b) { return b->format; }
size_t book_entry_count(const Book *b) { return b->count; }

const char *book_format_name(BookFormat f) { return f == BOOK_FORMAT_TUONG ? "Tuong book" : "ElephantEye BOOK.DAT"; }

/* First entry whose key is not below key. */
static size_t lower_bound(const Book *b, uint64_t key) {
    size_t lo = 0, hi = b->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entry_key(b, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void add_move(BookMoves *out, BookMove m) {
    for (int i = 0; i < out->count; i++) {
        BookMove *o = &out->moves[i];
        if (o->move != m.move) continue;
        o->weight = o->weight + m.weight < o->weight ? UINT32_MAX : o->weight + m.weight;
        o->wins += m.wins;
        o->draws += m.draws;
        o->losses += m.losses;
        return;
    }
    if (out->count < MAX_MOVES) out->moves[out->count++] = m;
}

/* Collect the legal moves stored under key; false if the key is absent. */
static bool collect(const Book *b, BookKey key, bool mirrored, const Position *pos, BookMoves *out) {
    uint64_t k = b->format == BOOK_FORMAT_TUONG ? key : book_key_lock1(key);
    size_t i = lower_bound(b, k);
    if (i == b->count || entry_key(b, i) != k) return false;
    for (; i < b->count && entry_key(b, i) == k; i++) {
        BookMove m = entry_decode(b, i);
        if (mirrored) m.move = book_mirror_move(m.move);
        if (move_is_legal(pos, m.move)) add_move(out, m);
    }
    return true;
}

/* Heaviest first; insertion sort keeps equal weights in file order. */
static void sort_by_weight(BookMoves *out) {
    for (int i = 1; i < out->count; i++) {
        BookMove m = out->moves[i];
        int j = i;
        for (; j > 0 && out->moves[j - 1].weight < m.weight; j--)
            out->moves[j] = out->moves[j - 1];
        out->moves[j] = m;
    }
}

int book_probe(const Book *b, const Position *pos, BookMoves *out) {
    out->count = 0;
    BookKeys keys = book_keys(pos);
    /* A symmetric position is stored under its one key with both moves. */
    if (!collect(b, keys.key, false, pos, out) && keys.mirror != keys.key) collect(b, keys.mirror, true, pos, out);
    sort_by_weight(out);
    return out->count;
}
