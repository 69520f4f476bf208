// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Scalar types shared by every engine module.
 *
 * Board indexing (ICCS coordinates, Red at the bottom):
 *
 *   rank 9   81 82 83 84 85 86 87 88 89   <- Black's back rank
 *   ...
 *   rank 1    9 10 11 12 13 14 15 16 17
 *   rank 0    0  1  2  3  4  5  6  7  8   <- Red's back rank
 *             a  b  c  d  e  f  g  h  i
 *
 *   square = rank * 9 + file, so a0 = 0, i0 = 8, e9 = 85, i9 = 89.
 *   The river lies between ranks 4 and 5.
 *
 * Pieces: a 4-bit code, colour in bit 3, type in bits 0-2 (0 = empty point).
 *   Red:   K=1 A=2 B=3 N=4 R=5 C=6 P=7     Black: the same plus 8 (9..15).
 */
#include <stdbool.h>
#include <stdint.h>

typedef int Square;
typedef int Score;
typedef int Depth;
typedef uint64_t Key;

enum { FILE_NB = 9, RANK_NB = 10, SQUARE_NB = 90, SQ_NONE = 127 };

typedef enum { RED = 0, BLACK = 1, COLOR_NB = 2 } Color;

typedef enum {
    NO_TYPE = 0,
    KING = 1,
    ADVISOR = 2,
    ELEPHANT = 3,
    HORSE = 4,
    ROOK = 5,
    CANNON = 6,
    PAWN = 7,
    TYPE_NB = 8
} PieceType;

typedef uint8_t Piece;
enum { NO_PIECE = 0, PIECE_NB = 16 };

/* Longest game history a Position keeps (plies since the root FEN) plus the
 * deepest search line; a 1000-move game with a deep search fits. */
enum { MAX_PLY = 128, MAX_HISTORY = 4096, MAX_MOVES = 192 };

static inline Piece make_piece(Color c, PieceType t) { return (Piece)((c << 3) | t); }
static inline PieceType type_of(Piece p) { return (PieceType)(p & 7); }
static inline Color color_of(Piece p) { return (Color)(p >> 3); }
static inline int file_of(Square s) { return s % 9; }
static inline int rank_of(Square s) { return s / 9; }
static inline Square make_square(int file, int rank) { return rank * 9 + file; }
static inline bool square_ok(int file, int rank) { return file >= 0 && file < 9 && rank >= 0 && rank < 10; }
/* Square seen from Red's side: Black's squares mirrored through the river. */
static inline Square relative_square(Color c, Square s) { return c == RED ? s : make_square(file_of(s), 9 - rank_of(s)); }
static inline int relative_rank(Color c, Square s) { return c == RED ? rank_of(s) : 9 - rank_of(s); }
