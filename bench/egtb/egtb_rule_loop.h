// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The rule loop (docs/egtb.md, "The rule loop, step by step"): after the
 * plain retrograde pass, for signatures where both sides have attacking
 * pieces, the positions still open are searched for a side that can only
 * keep the game going by checking (or chasing) for ever. Such a side loses
 * (v = 1 at the current order) and the retrograde spread goes on from those
 * losses, order after order, until no new loss is found. It follows
 * xiangqitb's loop_build_check_chase so that the tables come out as its,
 * value and order at every index, and rests on the chess facts of
 * egtb_rule.h. Symmetric signatures (KRKR, KAPKAP) run it as any other:
 * xiangqitb keeps both colours in one frame while generating (a quiet move
 * never turns the board there) and writes only Red to move (egtb_sym.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "egtb_table.h"

/* The largest order a DTC entry of the order-64 layout holds (6 bits): a
 * table needing more is refused (the order-128 layout is not written). */
enum { EGTB_RULE_ORDER_MAX = 63 };

/* Memory the loop adds per position and side to move, beyond the solve's:
 * the flags word and the order byte (the lists of marked and settled nodes
 * come on top, a small part of the table, and the children kept for the
 * pruning passes, at most EGTB_RULE_CACHE_BYTES). */
enum { EGTB_RULE_LOOP_BYTES = sizeof(uint16_t) + sizeof(uint8_t) };

/* The most memory the loop spends keeping each listed node's children
 * across the pruning passes (4 bytes a child and 5 a node: KARKAR's 2.8
 * million listed nodes take about 150 MB, KCPKN's 11 million about 440 MB;
 * docs/egtb.md, "Rule loop in Tuong"). Nodes past it are decoded in every
 * pass, which gives the same tables, only slower: a smaller machine can
 * lower it. */
#define EGTB_RULE_CACHE_BYTES ((uint64_t)1 << 30)
/* The budget in force, EGTB_RULE_CACHE_BYTES unless a test lowers it to
 * run the decoding path (tests/test_egtb_rule_loop.c). */
extern uint64_t egtb_rule_cache_bytes;

typedef struct {
    unsigned orders;            /* rule rounds that found a loss (the largest order given) */
    uint64_t decided[COLOR_NB]; /* values settled by the rounds, per side to move */
    uint64_t marked;            /* nodes the first marking flagged */
    uint64_t check_losses;      /* rule losses v = 1: perpetual checkers */
    uint64_t chase_losses;      /* and perpetual chasers */
    uint64_t cached;            /* listed nodes whose children the passes kept */
    uint64_t cache_bytes;       /* the memory that took */
    double seconds;
} EgtbRuleLoopStats;

/* Does t's signature get the rule loop: do both sides attack? */
bool egtb_rule_loop_applies(const EgtbMaterial *mat);

/* Run the loop on t, whose plain pass is done (egtb_solve's steps 1 to 3:
 * values in t->val, 0 while open) with pending[] its count bytes
 * (EGTB_PENDING_*, node = side * positions + index), which the loop keeps
 * up to date. Sets t->order when some value gets an order above 0. The
 * first marking runs on `threads` threads (its flags do not depend on the
 * order); the orders run on one thread, positions in index order:
 * xiangqitb run on one thread updates its flags in place in that order,
 * and the tables depend on it. The result is the same for any `threads`.
 * false with a message (memory, an order past EGTB_RULE_ORDER_MAX, or a
 * position the loop's reasoning does not expect). */
bool egtb_rule_loop(EgtbTable *t, uint8_t *pending, int threads, EgtbRuleLoopStats *stats, char *err, size_t errlen);
