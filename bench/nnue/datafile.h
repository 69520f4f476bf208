// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Training data files for the network (docs/nnue.md, "Training data
 * format"): a 16-byte header, then records of exactly 36 bytes, all
 * little-endian.
 *
 * Header:  0-7 magic "TNGDATA1" | 8-11 uint32 record size (36) | 12-15 uint32 0
 *
 * Record:
 *   0-11   occupancy: bit s%8 of byte s/8 is set when point s (0..89, the
 *          engine's numbering, types.h) holds a piece; bits 90..95 are 0
 *   12-27  the Piece codes (types.h, 1..7 and 9..15) of the occupied points
 *          in increasing point order, two per byte, low nibble first; the
 *          nibbles after the last piece are 0 (at most 32 pieces)
 *   28-29  int16 search score, side to move's view, engine units
 *   30     result for the side to move: 0 loss, 1 draw, 2 win
 *   31     side to move: 0 Red, 1 Black
 *   32-33  uint16 ply: plies from the game's start position (the opening
 *          line's own moves included)
 *   34-35  0
 *
 * A file whose header differs or whose size is not 16 + 36 k is refused.
 * Portable C (stdio only): the trainer links this on every platform.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"

#define DATAFILE_MAGIC "TNGDATA1"
enum {
    DATAFILE_MAGIC_SIZE = 8,
    DATAFILE_HEADER_SIZE = 16,
    DATAFILE_RECORD_SIZE = 36,
    DATAFILE_MAX_PIECES = 32,
    DATAFILE_OCC_BYTES = 12,
    DATAFILE_PIECE_OFFSET = 12,
    DATAFILE_SCORE_OFFSET = 28,
    DATAFILE_RESULT_OFFSET = 30,
    DATAFILE_SIDE_OFFSET = 31,
    DATAFILE_PLY_OFFSET = 32,
    DATAFILE_RESERVED_OFFSET = 34,
};

/* Game result for the side to move, as stored in byte 30. */
typedef enum { DATA_LOSS = 0, DATA_DRAW = 1, DATA_WIN = 2, DATA_RESULT_NB = 3 } DataResult;

/* One packed record, byte for byte as in the file. */
typedef struct {
    uint8_t b[DATAFILE_RECORD_SIZE];
} DataRecord;

/* One record unpacked. */
typedef struct {
    Piece board[SQUARE_NB]; /* NO_PIECE on empty points */
    int piece_count;
    Color side;
    int score;         /* side to move's view */
    DataResult result; /* side to move's view */
    int ply;
} DataEntry;

/* Pack a position with its label; false (rec untouched) when it has more
 * than 32 pieces or a field does not fit (score outside int16, result or
 * ply out of range). */
bool datafile_pack(const Position *pos, int score, DataResult result, int ply, DataRecord *rec);
/* Set the result byte of a packed record. */
void datafile_set_result(DataRecord *rec, DataResult result);
/* Set the score of a packed record (score within int16). */
void datafile_set_score(DataRecord *rec, int score);
/* Unpack with structural checks (padding bits and nibbles zero, piece codes
 * valid, result/side/reserved in range); false with the reason in err. */
bool datafile_unpack(const DataRecord *rec, DataEntry *e, char *err, size_t errlen);
/* Build a Position from an entry through the engine's FEN validation
 * (one king each, points a piece can reach, the side not to move not in
 * check); false with the reason in err. Needs engine_init() first. */
bool datafile_to_position(const DataEntry *e, Position *pos, char *err, size_t errlen);

/* Fill a 16-byte header. */
void datafile_header(uint8_t header[DATAFILE_HEADER_SIZE]);
/* Check a header read from a file (n bytes could be read). */
bool datafile_check_header(const uint8_t *header, size_t n, char *err, size_t errlen);

/* Open an existing data file for reading: header and size are checked and
 * *count receives the number of records; the stream is left at the first
 * record. NULL with the reason in err. */
FILE *datafile_open_read(const char *path, uint64_t *count, char *err, size_t errlen);
/* Read up to n records; returns how many were read. */
size_t datafile_read(FILE *f, DataRecord *recs, size_t n);
/* Open for appending: a missing or empty file gets the header; an existing
 * one must be a whole data file. *count receives the records already in it.
 * NULL with the reason in err. */
FILE *datafile_open_append(const char *path, uint64_t *count, char *err, size_t errlen);
/* Append n records; false on a write error. */
bool datafile_write(FILE *f, const DataRecord *recs, size_t n);
