// SPDX-License-Identifier: GPL-3.0-or-later
#include "datafile.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "fen.h"

static bool failf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

static void put_u16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static uint32_t get_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool piece_code_ok(unsigned code) { return code != NO_PIECE && code != 8 && code < PIECE_NB; }

/* ---------------------------------------------------------------------- */
/* Records                                                                 */

bool datafile_pack(const Position *pos, int score, DataResult result, int ply, DataRecord *rec) {
    if (score < INT16_MIN || score > INT16_MAX || (unsigned)result >= DATA_RESULT_NB || ply < 0 || ply > UINT16_MAX)
        return false;
    DataRecord r;
    memset(&r, 0, sizeof r);
    int n = 0;
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos->board[s];
        if (p == NO_PIECE) continue;
        if (n == DATAFILE_MAX_PIECES) return false;
        r.b[s / 8] |= (uint8_t)(1u << (s % 8));
        r.b[DATAFILE_PIECE_OFFSET + n / 2] |= (uint8_t)(p << (4 * (n % 2)));
        n++;
    }
    put_u16(&r.b[DATAFILE_SCORE_OFFSET], (uint16_t)(int16_t)score);
    r.b[DATAFILE_RESULT_OFFSET] = (uint8_t)result;
    r.b[DATAFILE_SIDE_OFFSET] = (uint8_t)pos->side;
    put_u16(&r.b[DATAFILE_PLY_OFFSET], (uint16_t)ply);
    *rec = r;
    return true;
}

void datafile_set_result(DataRecord *rec, DataResult result) { rec->b[DATAFILE_RESULT_OFFSET] = (uint8_t)result; }

void datafile_set_score(DataRecord *rec, int score) {
    put_u16(&rec->b[DATAFILE_SCORE_OFFSET], (uint16_t)(int16_t)score);
}

bool datafile_unpack(const DataRecord *rec, DataEntry *e, char *err, size_t errlen) {
    const uint8_t *b = rec->b;
    if (b[DATAFILE_OCC_BYTES - 1] >> (SQUARE_NB % 8))
        return failf(err, errlen, "occupancy bits beyond point 89 are set");
    memset(e->board, NO_PIECE, sizeof e->board);
    int n = 0;
    for (Square s = 0; s < SQUARE_NB; s++) {
        if (!(b[s / 8] >> (s % 8) & 1)) continue;
        if (n == DATAFILE_MAX_PIECES) return failf(err, errlen, "more than %d occupied points", DATAFILE_MAX_PIECES);
        unsigned code = b[DATAFILE_PIECE_OFFSET + n / 2] >> (4 * (n % 2)) & 15;
        if (!piece_code_ok(code)) return failf(err, errlen, "piece code %u on point %d is not a piece", code, s);
        e->board[s] = (Piece)code;
        n++;
    }
    for (int i = n; i < DATAFILE_MAX_PIECES; i++)
        if (b[DATAFILE_PIECE_OFFSET + i / 2] >> (4 * (i % 2)) & 15)
            return failf(err, errlen, "piece nibble %d is set but only %d points are occupied", i, n);
    if (b[DATAFILE_RESULT_OFFSET] >= DATA_RESULT_NB)
        return failf(err, errlen, "result %u is not 0, 1 or 2", b[DATAFILE_RESULT_OFFSET]);
    if (b[DATAFILE_SIDE_OFFSET] > BLACK)
        return failf(err, errlen, "side to move %u is not 0 or 1", b[DATAFILE_SIDE_OFFSET]);
    if (b[DATAFILE_RESERVED_OFFSET] || b[DATAFILE_RESERVED_OFFSET + 1])
        return failf(err, errlen, "reserved bytes are not 0");
    e->piece_count = n;
    e->side = (Color)b[DATAFILE_SIDE_OFFSET];
    e->score = (int16_t)get_u16(&b[DATAFILE_SCORE_OFFSET]);
    e->result = (DataResult)b[DATAFILE_RESULT_OFFSET];
    e->ply = get_u16(&b[DATAFILE_PLY_OFFSET]);
    return true;
}

bool datafile_to_position(const DataEntry *e, Position *pos, char *err, size_t errlen) {
    static const char Letters[] = " KABNRCP";
    char fen[FEN_MAX], *p = fen;
    for (int r = RANK_NB - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; f++) {
            Piece pc = e->board[make_square(f, r)];
            if (pc == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty) *p++ = (char)('0' + empty);
            empty = 0;
            char c = Letters[type_of(pc)];
            *p++ = color_of(pc) == RED ? c : (char)(c - 'A' + 'a');
        }
        if (empty) *p++ = (char)('0' + empty);
        if (r) *p++ = '/';
    }
    snprintf(p, (size_t)(fen + sizeof fen - p), " %c", e->side == RED ? 'w' : 'b');
    return fen_parse(pos, fen, err, errlen);
}

/* ---------------------------------------------------------------------- */
/* Files                                                                   */

void datafile_header(uint8_t header[DATAFILE_HEADER_SIZE]) {
    memcpy(header, DATAFILE_MAGIC, DATAFILE_MAGIC_SIZE);
    put_u32(header + 8, DATAFILE_RECORD_SIZE);
    put_u32(header + 12, 0);
}

bool datafile_check_header(const uint8_t *header, size_t n, char *err, size_t errlen) {
    size_t magic = n < DATAFILE_MAGIC_SIZE ? n : DATAFILE_MAGIC_SIZE;
    if (memcmp(header, DATAFILE_MAGIC, magic) != 0)
        return failf(err, errlen, "not a Tuong training data file (it does not start with %s)", DATAFILE_MAGIC);
    if (n < DATAFILE_HEADER_SIZE)
        return failf(err, errlen, "truncated: %zu bytes, shorter than the %d-byte header", n, DATAFILE_HEADER_SIZE);
    uint32_t size = get_u32(header + 8), reserved = get_u32(header + 12);
    if (size != DATAFILE_RECORD_SIZE)
        return failf(err, errlen, "record size %u in the header, this version reads %d", size, DATAFILE_RECORD_SIZE);
    if (reserved) return failf(err, errlen, "reserved header field is %u, not 0", reserved);
    return true;
}

/* Size of an open file in bytes, or -1. */
static int64_t file_size(FILE *f) {
#ifdef _WIN32
    if (_fseeki64(f, 0, SEEK_END) != 0) return -1;
    return _ftelli64(f);
#else
    if (fseeko(f, 0, SEEK_END) != 0) return -1;
    return (int64_t)ftello(f);
#endif
}

static bool seek_to(FILE *f, int64_t at) {
#ifdef _WIN32
    return _fseeki64(f, at, SEEK_SET) == 0;
#else
    return fseeko(f, (off_t)at, SEEK_SET) == 0;
#endif
}

/* Check header and size of an open file; *count receives the records. */
static bool check_open_file(FILE *f, const char *path, int64_t size, uint64_t *count, char *err, size_t errlen) {
    uint8_t header[DATAFILE_HEADER_SIZE];
    char why[200];
    if (!seek_to(f, 0)) return failf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    size_t n = fread(header, 1, sizeof header, f);
    if (!datafile_check_header(header, n, why, sizeof why)) return failf(err, errlen, "%s: %s", path, why);
    int64_t body = size - DATAFILE_HEADER_SIZE, extra = body % DATAFILE_RECORD_SIZE;
    if (extra)
        return failf(err, errlen,
                     "%s: truncated: %lld bytes is not %d + %d k; the last %lld bytes are part of a record "
                     "(truncate -s %lld %s keeps the whole ones)",
                     path, (long long)size, DATAFILE_HEADER_SIZE, DATAFILE_RECORD_SIZE, (long long)extra,
                     (long long)(size - extra), path);
    *count = (uint64_t)(body / DATAFILE_RECORD_SIZE);
    return true;
}

FILE *datafile_open_read(const char *path, uint64_t *count, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        failf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    int64_t size = file_size(f);
    if (size < 0 || !check_open_file(f, path, size, count, err, errlen) || !seek_to(f, DATAFILE_HEADER_SIZE)) {
        if (size < 0) failf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    return f;
}

size_t datafile_read(FILE *f, DataRecord *recs, size_t n) { return fread(recs, sizeof *recs, n, f); }

FILE *datafile_open_append(const char *path, uint64_t *count, char *err, size_t errlen) {
    FILE *f = fopen(path, "ab+");
    if (!f) {
        failf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
        return NULL;
    }
    int64_t size = file_size(f);
    bool ok = size >= 0;
    if (!ok) failf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    if (ok && size == 0) {
        uint8_t header[DATAFILE_HEADER_SIZE];
        datafile_header(header);
        ok = fwrite(header, 1, sizeof header, f) == sizeof header && fflush(f) == 0;
        if (!ok) failf(err, errlen, "%s: cannot write the header: %s", path, strerror(errno));
        *count = 0;
    } else if (ok) {
        ok = check_open_file(f, path, size, count, err, errlen);
    }
    if (!ok) {
        fclose(f);
        return NULL;
    }
    return f;
}

bool datafile_write(FILE *f, const DataRecord *recs, size_t n) { return fwrite(recs, sizeof *recs, n, f) == n; }
