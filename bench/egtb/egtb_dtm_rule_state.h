// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The both-sides DTM generator's working state (egtb_dtm_rule.h), shared
 * by its files: egtb_dtm_rule.c (entries, rule marks, rule losses, the
 * plain steps, the driver) and egtb_dtm_raise.c (the final raising steps).
 * Not for use outside them.
 *
 * Entries are kept in xiangqitb's own 16-bit form while generating
 * (docs/egtb.md, "DTM files"), because its steps test the bits directly:
 * bits 0-10 the value, bit 11 the win flag (while open: "holds a capture
 * score"), bits 12-15 the rule marks, 0xFFFF illegal. Every pass runs on
 * one thread over the indices in order: xiangqitb run on one thread
 * updates entries in place in that order, and some passes read entries
 * they have just written, so the order is part of the result.
 */
#include <stdbool.h>
#include <stdint.h>

#include "egtb_capture.h"
#include "egtb_reindex.h"
#include "egtb_table.h"
#include "egtb_unmove.h"
#include "movegen.h"

enum {
    E_ILLEGAL = 0xFFFF,
    E_SCORE = 0x7FF,      /* the value, or an open entry's capture score */
    E_WIN = 1 << 11,      /* settled: a win; open: a capture score is held */
    CHECK_WIN = 1 << 15,  /* s is checked here (the victim of a perpetual check) */
    CHECK_LOSE = 1 << 14, /* s gave the check that led here (a perpetual checker) */
    CHASE_WIN = 1 << 13,  /* s is chased here */
    CHASE_LOSE = 1 << 12, /* s chased into here */
    RULE_MASK = 0xF000,
    BAN_WIN = CHECK_WIN | CHASE_WIN,
    BAN_LOSE = CHECK_LOSE | CHASE_LOSE,
    E_SCORE_MAX = EGTB_DTM_MAX, /* the largest value; xiangqitb's "no capture score" too */
};

static inline bool e_legal(uint16_t e) { return e != E_ILLEGAL; }
static inline unsigned e_score(uint16_t e) { return e & E_SCORE; }
static inline bool e_is_win(uint16_t e) { return e != E_ILLEGAL && (e & E_WIN); }
static inline bool e_is_lose(uint16_t e) { return e != E_ILLEGAL && (e & E_SCORE) && !(e & E_WIN); }
/* An illegal entry has every flag: as xiangqitb's has_flag; callers test
 * legality first where it matters, as it does. */
static inline bool e_has(uint16_t e, uint16_t f) { return (e & f) != 0; }
static inline bool e_ban_win(uint16_t e) { return e != E_ILLEGAL && (e & BAN_WIN); }
static inline bool e_ban_lose(uint16_t e) { return e != E_ILLEGAL && (e & BAN_LOSE); }
/* Open entries: a held capture score, even (a win by capture) or odd. */
static inline bool e_cap_win(uint16_t e) { return (e & E_WIN) && !(e & 1); }
static inline bool e_cap_lose(uint16_t e) { return (e & E_WIN) && (e & 1); }
/* A settled entry keeping e's rule marks. */
static inline uint16_t e_win(uint16_t e, unsigned v) { return (uint16_t)((e & RULE_MASK) | E_WIN | v); }
static inline uint16_t e_lose(uint16_t e, unsigned v) { return (uint16_t)((e & RULE_MASK) | v); }
static inline uint16_t e_set_score(uint16_t e, unsigned v) { return (uint16_t)((e & ~E_SCORE) | v); }

typedef enum { WDL_DRAW, WDL_WIN, WDL_LOSE, WDL_ILLEGAL } Wdl;

typedef struct {
    EgtbTable *t; /* t->val: the signature's DTC, read as its WDL */
    const EgtbLayout *lay;
    uint64_t n;                  /* positions per side to move */
    uint64_t words;              /* 64-bit words of a bitmap */
    uint16_t *e[COLOR_NB];       /* the entries */
    uint64_t *unknown[COLOR_NB]; /* open entries (later: entries still to raise) */
    uint64_t *pre, *gen, *win;   /* work sets, as xiangqitb's */
    EgtbCaptures caps;           /* the smaller tables' DTM */
    Position *pos;               /* the position a pass looks at; children are made on it */
    EgtbParentScratch scratch;
    unsigned max_build[COLOR_NB]; /* the largest value seen per winning side in the first entries */
    unsigned max_step;            /* the raising steps' bound, grown as they go */
    bool failed;
    char err[256];
} DtmRule;

static inline bool bit_test(const uint64_t *b, uint64_t i) { return b[i >> 6] >> (i & 63) & 1; }
static inline void bit_set(uint64_t *b, uint64_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *b, uint64_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }
void dtm_bits_clear(const DtmRule *D, uint64_t *b);

static inline Wdl dtm_wdl(const DtmRule *D, int c, uint64_t i) {
    uint16_t v = D->t->val[c][i];
    return v == EGTB_ILLEGAL ? WDL_ILLEGAL : v == 0 ? WDL_DRAW : egtb_is_win(v) ? WDL_WIN : WDL_LOSE;
}

/* A position's legal quiet moves and the indices of their children (the
 * other side to move), without turning the board: the child as made on
 * the board, so points computed on it need no mirroring. */
typedef struct {
    EgtbReindex r;
    MoveList quiets;
    uint64_t child[MAX_MOVES];
} Kids;

/* Fill k from pos as it stands. */
void dtm_kids(const DtmRule *D, const Position *pos, Kids *k);
/* Decode index i with side c to move into D->pos and fill k from it. */
void dtm_decode(DtmRule *D, uint64_t i, int c, Kids *k);
/* The parents of (i, c) (the other side to move), as xiangqitb's
 * un-moves with their mirror images: each is passed to fn. */
void dtm_parents(DtmRule *D, uint64_t i, int c, void (*fn)(void *ctx, uint64_t parent), void *ctx);
/* The least w + 1 over the side to move's legal captures into a smaller
 * table's loss of DTM w (E_SCORE_MAX when none): search_cap_win_score. */
unsigned dtm_cap_win_score(DtmRule *D, Position *pos);

/* gen_pre_bits: the open parents (D->unknown) of the positions in D->gen
 * with side me to move go into D->pre; true if there is one. plain (the
 * plain steps): only positions of value n, an open capture win of score n
 * being settled on the way (and put in D->win). */
bool dtm_gen_pre(DtmRule *D, int me, unsigned n, bool plain);

/* Record the first fault. */
void dtm_fail(DtmRule *D, const char *why, uint64_t i, int c);

/* The final raising steps (egtb_dtm_raise.c; xiangqitb's
 * loop_build_check_chase). false after dtm_fail. */
bool dtm_raise(DtmRule *D);
