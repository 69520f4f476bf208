// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The rule loop's working state (egtb_rule_loop.h), shared by its two
 * files: egtb_rule_loop.c (the marking, the orders, the losses and their
 * spread) and egtb_rule_prune.c (stage 2, the pruning tests). Not for use
 * outside them.
 */
#include <stdbool.h>
#include <stdint.h>

#include "egtb_reindex.h"
#include "egtb_rule.h"
#include "egtb_rule_loop.h"
#include "egtb_unmove.h"
#include "movegen.h"

/* A node's flags while it is open (docs/egtb.md, "Flags"), one 16-bit word
 * per node. The first five are facts, fixed once the first marking is done;
 * the last four are the verdict candidates, set again each order and then
 * pruned. s is the side to move in the node, o the other. */
enum {
    CAP_DRAW = 1 << 0,   /* s has a capture into a drawn smaller table (and none into a won one) */
    CHECKER = 1 << 1,    /* o was in check at a parent and evaded into here: s may be a perpetual checker */
    CHASER = 1 << 2,     /* o escaped an attack into here: s may be a perpetual chaser */
    IN_CHECK = 1 << 3,   /* s is in check with a quiet evasion into an open node */
    IN_CHASE = 1 << 4,   /* s is not in check and escapes an attack into an open node */
    CHECK_WIN = 1 << 5,  /* candidate: s wins because o checks for ever */
    CHECK_LOSE = 1 << 6, /* candidate: s loses because s checks for ever */
    CHASE_WIN = 1 << 7,  /* candidate: s wins because o chases for ever */
    CHASE_LOSE = 1 << 8, /* candidate: s loses because s chases for ever */
    FACTS = CHECKER | CHASER | IN_CHECK | IN_CHASE,
    VERDICTS = CHECK_WIN | CHECK_LOSE | CHASE_WIN | CHASE_LOSE,
};

/* The three strengths of the pruning tests (xiangqitb's STEP_1..STEP_3):
 * each later one looks a ply further or lets fewer candidates through. */
typedef enum { STEP_1 = 1, STEP_2, STEP_3 } Step;

typedef struct {
    EgtbTable *t;
    const EgtbLayout *lay;
    uint64_t n;                 /* positions per side; node = side * n + index */
    uint8_t *pending;           /* the solver's count bytes (EGTB_PENDING_*) */
    uint16_t *flags;            /* per node */
    uint64_t *listed[COLOR_NB]; /* open nodes with a fact, in index order */
    uint64_t nlisted[COLOR_NB];
    /* The children of listed nodes, kept from one decode so that the
     * passes read them instead of decoding the node again
     * (egtb_rule_load): listed[c][k]'s kid_count[c][k] children start at
     * chunk_kids[c][k / CACHE_CHUNK] + kid_off[c][k], in the order
     * egtb_rule_view gives them; a chunk left NULL (past the memory budget,
     * EGTB_RULE_CACHE_BYTES) is decoded each time, as before. All NULL
     * when nothing is kept. */
    uint32_t **chunk_kids[COLOR_NB];
    uint32_t *kid_off[COLOR_NB];
    uint8_t *kid_count[COLOR_NB];
    unsigned order;            /* the round running */
    Position *pos;             /* the node being judged; its children are made on it and taken back */
    uint64_t *frontier, *next; /* the spread: nodes settled at the current level, and at the next */
    uint64_t nfrontier, nnext;
    uint64_t cap_frontier, cap_next; /* their room, grown as needed (a level is far smaller than the table) */
    unsigned level;
    EgtbParentScratch scratch;
    EgtbRuleLoopStats *stats;
    bool failed;
    char err[256];
} RuleLoop;

/* A position's legal quiet moves and the nodes they lead to. A view of a
 * listed node read from the cache (egtb_rule_load) has only the count and
 * the children (full false): the moves, r and L->pos come with
 * egtb_rule_full, which the tests call before they look at the board. */
typedef struct {
    EgtbReindex r;
    MoveList quiets;
    uint64_t child[MAX_MOVES];
    uint64_t node;     /* the node viewed (egtb_rule_load and egtb_rule_decode) */
    bool full;         /* quiets.moves, r and L->pos hold the node */
    bool have_threats; /* threats holds the position's (egtb_rule_view_escape) */
    MoveList threats;
} View;

static inline uint16_t *val_at(const RuleLoop *L, uint64_t node) {
    return node < L->n ? &L->t->val[RED][node] : &L->t->val[BLACK][node - L->n];
}
/* Open: no value yet (illegal positions have EGTB_ILLEGAL). */
static inline bool is_open(const RuleLoop *L, uint64_t node) { return *val_at(L, node) == 0; }
/* A settled child that is no win for its side to move: a loss (a settled
 * draw does not occur in a table where both sides attack). */
static inline bool settled_not_won(const RuleLoop *L, uint64_t node) { return egtb_is_loss(*val_at(L, node)); }

/* Record the first fault (the loop then stops): what, where. */
void egtb_rule_fail(RuleLoop *L, const char *why, uint64_t node);
/* The view of L->pos as it stands (a node, or a child made on it). */
void egtb_rule_view(const RuleLoop *L, View *v);
/* Decode node into L->pos and fill v from it. */
void egtb_rule_decode(const RuleLoop *L, uint64_t node, View *v);
/* The view of listed[c][k]: from the cache when it holds the node (count
 * and children only), else decoded. */
void egtb_rule_load(const RuleLoop *L, int c, uint64_t k, View *v);
/* Make v full (decode its node into L->pos) if it is not yet; the
 * children come out the same. */
static inline void egtb_rule_full(const RuleLoop *L, View *v) {
    if (!v->full) egtb_rule_decode(L, v->node, v);
}
/* egtb_rule_escape(L->pos, m) for L->pos at v's position (full), the
 * threats found once per view. */
static inline Bitboard egtb_rule_view_escape(const RuleLoop *L, View *v, Move m) {
    if (!v->have_threats) {
        egtb_rule_threats(L->pos, &v->threats);
        v->have_threats = true;
    }
    return egtb_rule_escape_from(L->pos, m, &v->threats);
}
/* Stage 2 of an order (docs/egtb.md, "The pruning tests"): STEP_1 to
 * STEP_3 each to a fixed point, then STEP_4 and STEP_2 again. */
void egtb_rule_prune(RuleLoop *L);
