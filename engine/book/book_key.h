// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Position keys of opening books: ElephantEye's Zobrist scheme, rebuilt in
 * Tuong's terms so that BOOK.DAT files of ElephantEye and XQWizard can be
 * read, and reused by Tuong's own book format (docs/book.md).
 *
 * ElephantEye draws its key tables from RC4 keyed with four zero bytes:
 * first the side-to-move entry, then one entry per (piece kind, square) of
 * its 16x16 board, kinds 0..6 = Red K A E H R C P and 7..13 = Black's,
 * squares 0..255 in order. Each entry is three 32-bit words taken as four
 * stream bytes, lowest byte first: `key` (used only by its own hash table,
 * skipped here), `lock0` and `lock1`. A position's locks are the XOR of its
 * pieces' entries, with the side entry XORed in when Black is to move.
 *
 * Its 16x16 square of ICCS file f (a = 0) and rank r (Red's back rank = 0)
 * is (12 - r) * 16 + f + 3; a move is from + 256 * to in those squares.
 *
 * Books also look positions up under their mirror image (files a..i turned
 * into i..a, same side to move), so each key comes with its mirror's.
 */
#include <stdint.h>

#include "move.h"
#include "position.h"

/* A book key: ElephantEye's lock1 in the high half, lock0 in the low half.
 * BOOK.DAT stores lock1 only (book_key_lock1). */
typedef uint64_t BookKey;

typedef struct {
    BookKey key;    /* the position as it stands */
    BookKey mirror; /* its left-right mirror image */
} BookKeys;

/* The keys of pos and of its mirror image. */
BookKeys book_keys(const Position *pos);

static inline uint32_t book_key_lock1(BookKey k) { return (uint32_t)(k >> 32); }

/* A move seen in the mirror (files a..i turned into i..a). */
Move book_mirror_move(Move m);

/* Moves in ElephantEye's 16-bit encoding; MOVE_NONE for a code whose
 * squares are off the board or equal. */
uint16_t book_ee_move(Move m);
Move book_from_ee_move(uint16_t code);
