// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Opening books, read whole into memory and probed by binary search. Two
 * formats (docs/book.md):
 *
 *   Tuong's own (".tbk"), little-endian:
 *     header, 32 bytes:  0 magic "TUONGBK\0"   8 u32 version (1)
 *                       12 u32 entry size (24) 16 u64 entry count
 *                       24 u64 reserved (0)
 *     entries, 24 bytes: 0 u64 key (book_key.h)
 *                        8 u16 move, from | to << 8, square = rank * 9 + file
 *                       10 u16 weight
 *                       12 u32 wins  16 u32 draws  20 u32 losses
 *                          (games that went on with the move, mover's view)
 *     sorted by key, then move.
 *
 *   ElephantEye / XQWizard BOOK.DAT: no header; 8-byte records
 *     0 u32 lock1 of the key   4 u16 move (ElephantEye's encoding)
 *     6 u16 weight
 *     sorted by lock1.
 *
 * Both store a position under the smaller key of it and its mirror image
 * (both when it is symmetric); a probe looks up the position's own key and,
 * when that is absent, its mirror's, and turns mirrored moves back, as
 * ElephantEye does. Every move a probe returns is legal in the position.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "move.h"
#include "position.h"

typedef enum { BOOK_FORMAT_TUONG = 1, BOOK_FORMAT_ELEEYE = 2 } BookFormat;

enum {
    BOOK_HEADER_SIZE = 32,
    BOOK_ENTRY_SIZE = 24,
    BOOK_VERSION = 1,
    BOOK_EE_RECORD_SIZE = 8,
    BOOK_MAX_MB = 1024, /* larger files are refused: a xiangqi book is a few MB */
};

#define BOOK_MAGIC "TUONGBK" /* plus its terminating zero: 8 bytes */

typedef struct {
    Move move;
    uint32_t weight;
    uint32_t wins, draws, losses; /* 0 in BOOK.DAT, which keeps no counts */
} BookMove;

typedef struct {
    int count;
    BookMove moves[MAX_MOVES];
} BookMoves;

typedef struct Book Book;

/* Read and check a book file of either format; NULL with a one-line reason
 * in err (missing, not a regular file, empty, truncated, corrupt, foreign). */
Book *book_open(const char *path, char *err, size_t errlen);
void book_close(Book *b);

BookFormat book_format(const Book *b);
/* "Tuong book" or "ElephantEye BOOK.DAT". */
const char *book_format_name(BookFormat f);
size_t book_entry_count(const Book *b);

/* The legal book moves of pos, heaviest first (equal weights in file
 * order); a move listed twice has its counts added. Returns out->count. */
int book_probe(const Book *b, const Position *pos, BookMoves *out);

/* Moves in Tuong's file encoding; MOVE_NONE for a code that is no move. */
static inline uint16_t book_file_move(Move m) { return (uint16_t)(move_from(m) | move_to(m) << 8); }
static inline Move book_from_file_move(uint16_t code) {
    int from = code & 0xFF, to = code >> 8;
    return from < SQUARE_NB && to < SQUARE_NB && from != to ? make_move(from, to) : MOVE_NONE;
}
