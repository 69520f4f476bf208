// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_data.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint32_t get_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u16(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)(v & 0xFF);
    p[1] = (unsigned char)(v >> 8 & 0xFF);
}

bool train_record_decode(const unsigned char *rec, TrainPosition *p, char *err, size_t errlen) {
    int n = 0, kings[COLOR_NB] = {0, 0};
    if (rec[11] & 0xFC) {
        snprintf(err, errlen, "occupancy bits beyond point 89 are set");
        return false;
    }
    for (int s = 0; s < SQUARE_NB; s++) {
        if (!(rec[s / 8] >> (s % 8) & 1)) continue;
        if (n == TRAIN_MAX_PIECES) {
            snprintf(err, errlen, "more than %d occupied points", TRAIN_MAX_PIECES);
            return false;
        }
        Piece pc = (Piece)(rec[12 + n / 2] >> (n % 2 ? 4 : 0) & 0xF);
        if (!type_of(pc)) {
            snprintf(err, errlen, "piece code %d on point %d", pc, s);
            return false;
        }
        if (type_of(pc) == KING) kings[color_of(pc)]++;
        p->square[n] = (uint8_t)s;
        p->piece[n++] = pc;
    }
    if (kings[RED] != 1 || kings[BLACK] != 1) {
        snprintf(err, errlen, "%d red and %d black kings", kings[RED], kings[BLACK]);
        return false;
    }
    if (rec[30] > 2 || rec[31] > 1) {
        snprintf(err, errlen, "result %d or side to move %d out of range", rec[30], rec[31]);
        return false;
    }
    p->count = n;
    p->score = (int16_t)(uint16_t)(rec[28] | rec[29] << 8);
    p->result = rec[30];
    p->stm = (Color)rec[31];
    p->ply = (uint16_t)(rec[32] | rec[33] << 8);
    return true;
}

void train_record_unpack(const unsigned char *rec, TrainPosition *p) {
    uint64_t lo = 0;
    for (int i = 7; i >= 0; i--)
        lo = lo << 8 | rec[i];
    uint32_t hi = get_u32(rec + 8);
    int n = 0;
    for (; lo && n < TRAIN_MAX_PIECES; lo &= lo - 1, n++) {
        p->square[n] = (uint8_t)__builtin_ctzll(lo);
        p->piece[n] = (Piece)(rec[12 + n / 2] >> (n % 2 ? 4 : 0) & 0xF);
    }
    for (; hi && n < TRAIN_MAX_PIECES; hi &= hi - 1, n++) {
        p->square[n] = (uint8_t)(64 + __builtin_ctz(hi));
        p->piece[n] = (Piece)(rec[12 + n / 2] >> (n % 2 ? 4 : 0) & 0xF);
    }
    p->count = n;
    p->score = (int16_t)(uint16_t)(rec[28] | rec[29] << 8);
    p->result = rec[30];
    p->stm = (Color)rec[31];
    p->ply = (uint16_t)(rec[32] | rec[33] << 8);
}

void train_record_encode(const TrainPosition *p, unsigned char *rec) {
    memset(rec, 0, TRAIN_RECORD_SIZE);
    /* Records list pieces in increasing point order. */
    Piece on[SQUARE_NB] = {0};
    for (int i = 0; i < p->count; i++)
        on[p->square[i]] = p->piece[i];
    int n = 0;
    for (int s = 0; s < SQUARE_NB; s++) {
        if (!on[s]) continue;
        rec[s / 8] |= (unsigned char)(1u << (s % 8));
        rec[12 + n / 2] |= (unsigned char)(on[s] << (n % 2 ? 4 : 0));
        n++;
    }
    put_u16(rec + 28, (uint16_t)p->score);
    rec[30] = p->result;
    rec[31] = (unsigned char)p->stm;
    put_u16(rec + 32, p->ply);
}

bool train_data_write_header(FILE *f) {
    unsigned char h[TRAIN_HEADER_SIZE] = {0};
    memcpy(h, TRAIN_DATA_MAGIC, 8);
    h[8] = TRAIN_RECORD_SIZE;
    return fwrite(h, 1, sizeof h, f) == sizeof h;
}

/* Open path and check its header and size; *count gets the whole records.
 * A file whose size is not the header plus whole records is refused unless
 * only a prefix is read (tail_ok): a pool file that tuong-datagen is still
 * appending to can end in part of a game's write. */
static FILE *open_checked(const char *path, bool tail_ok, size_t *count, char *err, size_t errlen) {
    struct stat info;
    if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
        snprintf(err, errlen, "'%.200s' is not a regular file", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open '%.200s': %s", path, strerror(errno));
        return NULL;
    }
    unsigned char h[TRAIN_HEADER_SIZE];
    long long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftello(f);
    bool ok = size >= 0 && fseek(f, 0, SEEK_SET) == 0;
    if (!ok)
        snprintf(err, errlen, "'%.200s' is not a regular file", path);
    else if (size < TRAIN_HEADER_SIZE || fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, TRAIN_DATA_MAGIC, 8))
        ok = false, snprintf(err, errlen, "'%.200s' is not a Tuong training data file (no TNGDATA1 header)", path);
    else if (get_u32(h + 8) != TRAIN_RECORD_SIZE || get_u32(h + 12) != 0)
        ok = false, snprintf(err, errlen, "'%.200s': record size %u / reserved %u in the header, expected %d / 0", path,
                             (unsigned)get_u32(h + 8), (unsigned)get_u32(h + 12), TRAIN_RECORD_SIZE);
    else if (!tail_ok && (size - TRAIN_HEADER_SIZE) % TRAIN_RECORD_SIZE)
        ok = false, snprintf(err, errlen, "'%.200s': %lld bytes is not 16 + 36 x records (truncated?)", path, size);
    if (!ok) {
        fclose(f);
        return NULL;
    }
    *count = (size_t)(size - TRAIN_HEADER_SIZE) / TRAIN_RECORD_SIZE;
    return f;
}

/* Records [first, end) of path (end 0: to the end of the file), at most
 * max_records of them if nonzero. */
static bool load_range(TrainData *d, const char *path, size_t first, size_t end, size_t max_records, char *err,
                       size_t errlen) {
    size_t n;
    FILE *f = open_checked(path, end != 0, &n, err, errlen);
    if (!f) return false;
    if (end > n || (first && first >= (end ? end : n))) {
        snprintf(err, errlen, "'%.200s' holds %zu records: no records %zu:%zu in it", path, n, first, end ? end : n);
        fclose(f);
        return false;
    }
    if (end) n = end;
    n -= first;
    if (max_records && n > max_records) n = max_records;
    unsigned char *grown = realloc(d->records, (d->count + n) * TRAIN_RECORD_SIZE + 1);
    if (!grown) {
        fclose(f);
        snprintf(err, errlen, "out of memory for %zu records of '%.200s'", n, path);
        return false;
    }
    d->records = grown;
    unsigned char *dst = grown + d->count * TRAIN_RECORD_SIZE;
    bool ok = fseeko(f, (off_t)TRAIN_HEADER_SIZE + (off_t)first * TRAIN_RECORD_SIZE, SEEK_SET) == 0 &&
              fread(dst, TRAIN_RECORD_SIZE, n, f) == n;
    fclose(f);
    if (!ok) {
        snprintf(err, errlen, "'%.200s': read error", path);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        TrainPosition p;
        char why[120];
        if (!train_record_decode(dst + i * TRAIN_RECORD_SIZE, &p, why, sizeof why)) {
            snprintf(err, errlen, "'%.200s': record %zu is corrupt: %s", path, first + i, why);
            return false;
        }
    }
    d->count += n;
    return true;
}

bool train_data_load(TrainData *d, const char *path, size_t max_records, char *err, size_t errlen) {
    return load_range(d, path, 0, 0, max_records, err, errlen);
}

/* A whole number of at most 12 digits at *s, moved past it. */
static bool parse_count(const char **s, size_t *out) {
    const char *p = *s;
    size_t v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 13)
        v = v * 10 + (size_t)(*p++ - '0'), digits++;
    if (!digits || digits > 12) return false;
    *out = v;
    *s = p;
    return true;
}

bool train_data_load_spec(TrainData *d, const char *spec, size_t max_records, char *err, size_t errlen) {
    const char *at = strrchr(spec, '@');
    struct stat info;
    if (!at || stat(spec, &info) == 0) return train_data_load(d, spec, max_records, err, errlen);
    size_t first = 0, end = 0;
    const char *s = at + 1;
    bool ok = parse_count(&s, &first) && *s++ == ':';
    if (ok && *s) ok = parse_count(&s, &end) && !*s && end > first;
    if (!ok) {
        snprintf(err, errlen, "'%.200s': a range is FILE@FIRST:END or FILE@FIRST: (records FIRST to END - 1)", spec);
        return false;
    }
    char path[4096];
    size_t len = (size_t)(at - spec);
    if (len >= sizeof path) {
        snprintf(err, errlen, "'%.200s...': path too long", spec);
        return false;
    }
    memcpy(path, spec, len);
    path[len] = 0;
    return load_range(d, path, first, end, max_records, err, errlen);
}

void train_data_free(TrainData *d) {
    free(d->records);
    d->records = NULL;
    d->count = 0;
}

void train_position_from(const Position *pos, int score, int result, int ply, TrainPosition *out) {
    int n = 0;
    for (Square s = 0; s < SQUARE_NB && n < TRAIN_MAX_PIECES; s++)
        if (pos->board[s]) {
            out->square[n] = (uint8_t)s;
            out->piece[n++] = pos->board[s];
        }
    out->count = n;
    out->score = (int16_t)(score < INT16_MIN ? INT16_MIN : score > INT16_MAX ? INT16_MAX : score);
    out->result = (uint8_t)result;
    out->stm = pos->side;
    out->ply = (uint16_t)ply;
}

void train_position_mirror(const TrainPosition *src, TrainPosition *dst) {
    *dst = *src;
    for (int i = 0; i < src->count; i++) {
        int s = src->square[i];
        dst->square[i] = (uint8_t)(s - s % 9 + 8 - s % 9);
    }
}

void train_position_kings(const TrainPosition *p, Square king[COLOR_NB]) {
    king[RED] = king[BLACK] = SQ_NONE;
    for (int i = 0; i < p->count; i++)
        if (type_of(p->piece[i]) == KING) king[color_of(p->piece[i])] = p->square[i];
}
