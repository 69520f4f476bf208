// SPDX-License-Identifier: GPL-3.0-or-later
#include "book_key.h"

#include <pthread.h>

/* ElephantEye's board is 16x16 with the 9x10 points at x 3..11, y 3..12
 * (y grows towards Red). */
enum { EE_SQUARE_NB = 256, EE_KIND_NB = 14, EE_LEFT = 3, EE_TOP = 3, EE_BOTTOM = 12 };

typedef struct {
    uint32_t lock0, lock1;
} Locks;

static Locks PieceLocks[EE_KIND_NB][SQUARE_NB];
static Locks SideLocks;
static pthread_once_t TablesOnce = PTHREAD_ONCE_INIT;

/* RC4 (the public stream cipher), as ElephantEye seeds its tables. */
typedef struct {
    uint8_t s[256];
    uint8_t i, j;
} Rc4;

static void rc4_init_zero_key(Rc4 *r) {
    for (int i = 0; i < 256; i++)
        r->s[i] = (uint8_t)i;
    uint8_t j = 0;
    for (int i = 0; i < 256; i++) {
        j = (uint8_t)(j + r->s[i]); /* every key byte is zero */
        uint8_t t = r->s[i];
        r->s[i] = r->s[j];
        r->s[j] = t;
    }
    r->i = r->j = 0;
}

static uint8_t rc4_byte(Rc4 *r) {
    r->i = (uint8_t)(r->i + 1);
    r->j = (uint8_t)(r->j + r->s[r->i]);
    uint8_t t = r->s[r->i];
    r->s[r->i] = r->s[r->j];
    r->s[r->j] = t;
    return r->s[(uint8_t)(r->s[r->i] + r->s[r->j])];
}

static uint32_t rc4_word(Rc4 *r) {
    uint32_t w = 0;
    for (int k = 0; k < 4; k++)
        w |= (uint32_t)rc4_byte(r) << (8 * k);
    return w;
}

/* One table entry: key (unused here), lock0, lock1. */
static Locks rc4_entry(Rc4 *r) {
    (void)rc4_word(r);
    Locks l;
    l.lock0 = rc4_word(r);
    l.lock1 = rc4_word(r);
    return l;
}

/* Tuong's square of an ElephantEye square, or SQ_NONE off the board. */
static Square square_from_ee(int sq) {
    int x = sq & 15, y = sq >> 4;
    if (x < EE_LEFT || x >= EE_LEFT + FILE_NB || y < EE_TOP || y > EE_BOTTOM) return SQ_NONE;
    return make_square(x - EE_LEFT, EE_BOTTOM - y);
}

static int square_to_ee(Square s) { return (EE_BOTTOM - rank_of(s)) * 16 + file_of(s) + EE_LEFT; }

static void tables_build(void) {
    Rc4 r;
    rc4_init_zero_key(&r);
    SideLocks = rc4_entry(&r);
    for (int kind = 0; kind < EE_KIND_NB; kind++)
        for (int sq = 0; sq < EE_SQUARE_NB; sq++) {
            Locks l = rc4_entry(&r);
            Square s = square_from_ee(sq);
            if (s != SQ_NONE) PieceLocks[kind][s] = l;
        }
}

/* ElephantEye's piece kind: Tuong's type less one, Black's after Red's. */
static int ee_kind(Piece p) { return type_of(p) - 1 + (color_of(p) == BLACK ? 7 : 0); }

static Square mirror_square(Square s) { return make_square(FILE_NB - 1 - file_of(s), rank_of(s)); }

static BookKey join(Locks l) { return (BookKey)l.lock1 << 32 | l.lock0; }

static void locks_xor(Locks *a, const Locks *b) {
    a->lock0 ^= b->lock0;
    a->lock1 ^= b->lock1;
}

BookKeys book_keys(const Position *pos) {
    pthread_once(&TablesOnce, tables_build);
    Locks k = {0, 0}, m = {0, 0};
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos->board[s];
        if (p == NO_PIECE) continue;
        locks_xor(&k, &PieceLocks[ee_kind(p)][s]);
        locks_xor(&m, &PieceLocks[ee_kind(p)][mirror_square(s)]);
    }
    if (pos->side == BLACK) {
        locks_xor(&k, &SideLocks);
        locks_xor(&m, &SideLocks);
    }
    return (BookKeys){join(k), join(m)};
}

Move book_mirror_move(Move m) { return make_move(mirror_square(move_from(m)), mirror_square(move_to(m))); }

uint16_t book_ee_move(Move m) { return (uint16_t)(square_to_ee(move_from(m)) | square_to_ee(move_to(m)) << 8); }

Move book_from_ee_move(uint16_t code) {
    Square from = square_from_ee(code & 0xFF), to = square_from_ee(code >> 8);
    if (from == SQ_NONE || to == SQ_NONE || from == to) return MOVE_NONE;
    return make_move(from, to);
}
