// SPDX-License-Identifier: GPL-3.0-or-later
#include "collect.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"

enum { COMPACT_MIN = 1 << 20 }; /* merge tallies once this many are unsorted */

bool collect_init(Collector *c, const CollectOptions *opt) {
    memset(c, 0, sizeof *c);
    c->opt = *opt;
    c->pos = malloc(sizeof *c->pos);
    return c->pos != NULL;
}

void collect_free(Collector *c) {
    free(c->items);
    free(c->pos);
    memset(c, 0, sizeof *c);
}

static int cmp_entry(const void *a, const void *b) {
    const BookEntry *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (int)x->move - (int)y->move;
}

/* Sort items[0..n) and merge equal (key, move) pairs; returns the new n. */
static size_t merge(BookEntry *items, size_t n, bool add_counts) {
    if (n < 2) return n; /* items may be NULL */
    qsort(items, n, sizeof *items, cmp_entry);
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out && !cmp_entry(&items[out - 1], &items[i])) {
            if (add_counts) {
                items[out - 1].wins += items[i].wins;
                items[out - 1].draws += items[i].draws;
                items[out - 1].losses += items[i].losses;
            }
        } else {
            items[out++] = items[i];
        }
    }
    return out;
}

static void compact(Collector *c) {
    c->count = merge(c->items, c->count, true);
    c->sorted = c->count;
}

static bool reserve(Collector *c, size_t more) {
    if (c->count + more <= c->cap) return true;
    size_t cap = c->cap ? c->cap * 2 : 4096;
    while (cap < c->count + more)
        cap *= 2;
    BookEntry *p = realloc(c->items, cap * sizeof *p);
    if (!p) return false;
    c->items = p;
    c->cap = cap;
    return true;
}

/* The tally of one ply in the stored orientation(s). */
static int tally_ply(const Position *pos, Move m, GameResult result, BookEntry *out) {
    BookKeys k = book_keys(pos);
    bool red = pos->side == RED;
    BookEntry e = {0};
    e.wins = result == (red ? RES_RED_WINS : RES_BLACK_WINS);
    e.losses = result == (red ? RES_BLACK_WINS : RES_RED_WINS);
    e.draws = result == RES_DRAW;
    int n = 0;
    if (k.key <= k.mirror) {
        e.key = k.key;
        e.move = m;
        out[n++] = e;
    }
    if (k.mirror <= k.key) {
        e.key = k.mirror;
        e.move = book_mirror_move(m);
        out[n++] = e;
    }
    return n;
}

bool collect_game(Collector *c, const char *fen, const Move *moves, int count, GameResult result, char *err,
                  size_t errlen) {
    if (!fen_parse(c->pos, fen[0] ? fen : START_FEN, err, errlen)) return false;
    if (count > c->opt.max_ply) count = c->opt.max_ply;
    if (!reserve(c, 2 * (size_t)count)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    BookEntry *game = c->items + c->count;
    size_t n = 0;
    for (int i = 0; i < count && !pos_history_full(c->pos); i++) {
        if (c->opt.side[c->pos->side]) n += (size_t)tally_ply(c->pos, moves[i], result, game + n);
        pos_make_move(c->pos, moves[i]);
    }
    c->count += merge(game, n, false); /* once per game */
    c->games++;
    if (c->count - c->sorted > (c->sorted > COMPACT_MIN ? c->sorted : COMPACT_MIN)) compact(c);
    return true;
}

static uint64_t weight_of(const CollectOptions *o, const BookEntry *e) {
    return (uint64_t)o->win * e->wins + (uint64_t)o->draw * e->draws + (uint64_t)o->loss * e->losses;
}

size_t collect_finish(Collector *c, BookEntry **entries, size_t *positions) {
    compact(c);
    size_t n = 0;
    uint64_t heaviest = 0;
    for (size_t i = 0; i < c->count; i++) {
        BookEntry e = c->items[i];
        uint64_t w = weight_of(&c->opt, &e);
        if (e.wins + e.draws + e.losses < (uint32_t)c->opt.min_games || w == 0) continue;
        heaviest = w > heaviest ? w : heaviest;
        c->items[n++] = e;
    }
    *positions = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = weight_of(&c->opt, &c->items[i]);
        if (heaviest > BOOK_WEIGHT_MAX) {
            w = w * BOOK_WEIGHT_MAX / heaviest;
            if (!w) w = 1; /* a kept move stays playable */
        }
        c->items[i].weight = (uint32_t)w;
        if (!i || c->items[i].key != c->items[i - 1].key) ++*positions;
    }
    c->count = c->sorted = n;
    *entries = c->items;
    return n;
}
