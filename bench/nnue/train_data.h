// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The trainer's reader of tuong-datagen files (docs/nnue.md, "Training
 * data"). Little-endian: a 16-byte header (magic "TNGDATA1", uint32 record
 * size = 36, uint32 reserved = 0), then 36-byte records:
 *
 *   bytes  0-11  occupancy: bit s % 8 of byte s / 8 for point s (a0 = 0)
 *   bytes 12-27  piece codes of the occupied points in increasing point
 *                order, two per byte, low nibble first (types.h codes)
 *   bytes 28-29  int16 search score, side to move's view (engine units)
 *   byte  30     result, side to move's view: 0 loss, 1 draw, 2 win
 *   byte  31     side to move: 0 Red, 1 Black
 *   bytes 32-33  uint16 ply
 *   bytes 34-35  reserved
 *
 * Everything is loaded into memory as raw records (36 bytes a position:
 * 30 M positions are about 1 GB) and decoded when a batch needs it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "position.h"

enum { TRAIN_HEADER_SIZE = 16, TRAIN_RECORD_SIZE = 36, TRAIN_MAX_PIECES = 32 };
#define TRAIN_DATA_MAGIC "TNGDATA1"

/* One decoded record. */
typedef struct {
    int count; /* pieces */
    uint8_t square[TRAIN_MAX_PIECES];
    Piece piece[TRAIN_MAX_PIECES];
    int16_t score;  /* side to move's view */
    uint8_t result; /* 0 loss, 1 draw, 2 win for the side to move */
    Color stm;
    uint16_t ply;
} TrainPosition;

/* Raw records in memory. */
typedef struct {
    unsigned char *records;
    size_t count;
} TrainData;

/* Append the records of a data file (at most max_records more if nonzero;
 * the first ones). Every record is checked; on failure err says what and
 * where, and d is unchanged. */
bool train_data_load(TrainData *d, const char *path, size_t max_records, char *err, size_t errlen);
/* The same for a --data argument: FILE, or FILE@FIRST:END (records FIRST
 * to END - 1; "FILE@FIRST:" to the end) when no file has the whole name.
 * A range reads only what it names: the file may hold more, and end in
 * part of a record being written. */
bool train_data_load_spec(TrainData *d, const char *spec, size_t max_records, char *err, size_t errlen);
void train_data_free(TrainData *d);
static inline const unsigned char *train_record(const TrainData *d, size_t i) {
    return d->records + i * TRAIN_RECORD_SIZE;
}

/* Decode / encode one record; decoding fails (with a reason) on a record
 * that no position can have. */
bool train_record_decode(const unsigned char *rec, TrainPosition *p, char *err, size_t errlen);
void train_record_encode(const TrainPosition *p, unsigned char *rec);
/* Decode a record already checked (at load): no checks, fast. */
void train_record_unpack(const unsigned char *rec, TrainPosition *p);
/* Write the 16-byte file header. */
bool train_data_write_header(FILE *f);

/* The record of a Position (score and result from its side to move). */
void train_position_from(const Position *pos, int score, int result, int ply, TrainPosition *out);
/* Mirror left-right (file f -> 8 - f). */
void train_position_mirror(const TrainPosition *src, TrainPosition *dst);
/* Each colour's king square (SQ_NONE if absent). */
void train_position_kings(const TrainPosition *p, Square king[COLOR_NB]);
