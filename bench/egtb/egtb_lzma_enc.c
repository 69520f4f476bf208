// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_lzma_enc.h"

#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_lzma.h"

/* The encoder mirrors the decoder (engine/egtb/egtb_lzma.c) model by model. */
enum { ENC_LC = 3, ENC_LP = 0, ENC_PB = 2, MATCH_MAX = 273, HASH_BITS = 16, CHAIN_TRIES = 32 };
static const uint32_t EncDictSize = 1u << 20;

typedef struct {
    uint64_t low;
    uint32_t range;
    uint8_t cache;
    uint64_t cache_size;
    uint8_t *out;
    size_t at, cap;
    bool full;
} Coder;

static void put_byte(Coder *c, uint8_t b) {
    if (c->at < c->cap) c->out[c->at++] = b;
    else c->full = true;
}

static void shift_low(Coder *c) {
    if ((uint32_t)c->low < 0xFF000000u || (c->low >> 32) != 0) {
        uint8_t carry = (uint8_t)(c->low >> 32), temp = c->cache;
        do {
            put_byte(c, (uint8_t)(temp + carry));
            temp = 0xFF;
        } while (--c->cache_size != 0);
        c->cache = (uint8_t)(c->low >> 24);
    }
    c->cache_size++;
    c->low = (c->low & 0x00FFFFFFu) << 8;
}

static void put_bit(Coder *c, LzmaProb *p, uint32_t b) {
    uint32_t bound = (c->range >> LZMA_PROB_BITS) * *p;
    if (!b) {
        c->range = bound;
        *p += ((1 << LZMA_PROB_BITS) - *p) >> LZMA_MOVE_BITS;
    } else {
        c->low += bound;
        c->range -= bound;
        *p -= *p >> LZMA_MOVE_BITS;
    }
    while (c->range < (1u << 24)) {
        c->range <<= 8;
        shift_low(c);
    }
}

static void put_direct(Coder *c, uint32_t v, int n) {
    for (int i = n - 1; i >= 0; i--) {
        c->range >>= 1;
        if ((v >> i) & 1) c->low += c->range;
        while (c->range < (1u << 24)) {
            c->range <<= 8;
            shift_low(c);
        }
    }
}

static void put_tree(Coder *c, LzmaProb *probs, int n, uint32_t v) {
    uint32_t m = 1;
    for (int i = n - 1; i >= 0; i--) {
        uint32_t b = (v >> i) & 1;
        put_bit(c, &probs[m], b);
        m = (m << 1) | b;
    }
}

static void put_tree_reverse(Coder *c, LzmaProb *probs, int n, uint32_t v) {
    uint32_t m = 1;
    for (int i = 0; i < n; i++) {
        uint32_t b = v & 1;
        v >>= 1;
        put_bit(c, &probs[m], b);
        m = (m << 1) | b;
    }
}

/* len is the match length minus LZMA_MATCH_MIN. */
static void put_length(Coder *c, LzmaLenModel *m, uint32_t len, uint32_t pos_state) {
    if (len < LZMA_LEN_LOW) {
        put_bit(c, &m->choice, 0);
        put_tree(c, m->low[pos_state], 3, len);
    } else if (len < LZMA_LEN_LOW + LZMA_LEN_MID) {
        put_bit(c, &m->choice, 1);
        put_bit(c, &m->choice2, 0);
        put_tree(c, m->mid[pos_state], 3, len - LZMA_LEN_LOW);
    } else {
        put_bit(c, &m->choice, 1);
        put_bit(c, &m->choice2, 1);
        put_tree(c, m->high, 8, len - LZMA_LEN_LOW - LZMA_LEN_MID);
    }
}

static void put_distance(Coder *c, LzmaModel *m, uint32_t dist, uint32_t len) {
    uint32_t slot;
    if (dist < 4) {
        slot = dist;
    } else {
        int top = 31 - __builtin_clz(dist);
        slot = (uint32_t)(top << 1) | ((dist >> (top - 1)) & 1);
    }
    put_tree(c, m->pos_slot[len < LZMA_LEN_STATES - 1 ? len : LZMA_LEN_STATES - 1], 6, slot);
    if (slot < 4) return;
    int direct = (int)(slot >> 1) - 1;
    uint32_t base = (2 | (slot & 1)) << direct, rest = dist - base;
    if (slot < LZMA_END_POS_MODEL) {
        put_tree_reverse(c, m->pos + base - slot, direct, rest);
    } else {
        put_direct(c, rest >> LZMA_ALIGN_BITS, direct - LZMA_ALIGN_BITS);
        put_tree_reverse(c, m->align, LZMA_ALIGN_BITS, rest & ((1u << LZMA_ALIGN_BITS) - 1));
    }
}

static size_t match_length(const uint8_t *src, size_t size, size_t pos, size_t from) {
    size_t n = 0, limit = size - pos < MATCH_MAX ? size - pos : MATCH_MAX;
    while (n < limit && src[from + n] == src[pos + n]) n++;
    return n;
}

static uint32_t hash3(const uint8_t *p) { return ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) * 2654435761u >> (32 - HASH_BITS); }

size_t egtb_lzma_encode_block(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap) {
    if (size > EncDictSize || dst_cap < LZMA_PROPS_SIZE) return 0;
    size_t nlit = (size_t)0x300 << (ENC_LC + ENC_LP);
    LzmaProb *lit = malloc(nlit * sizeof *lit);
    LzmaModel *m = malloc(sizeof *m);
    int32_t *head = malloc(sizeof(int32_t) << HASH_BITS), *prev = malloc(sizeof(int32_t) * (size ? size : 1));
    if (!lit || !m || !head || !prev) {
        free(lit);
        free(m);
        free(head);
        free(prev);
        return 0;
    }
    lzma_probs_init(lit, nlit);
    lzma_probs_init((LzmaProb *)m, sizeof *m / sizeof(LzmaProb));
    memset(head, 0xFF, sizeof(int32_t) << HASH_BITS);
    Coder c = {.range = 0xFFFFFFFFu, .cache_size = 1, .out = dst, .cap = dst_cap - LZMA_PROPS_SIZE};
    uint32_t state = 0, rep0 = 0, pb_mask = (1u << ENC_PB) - 1; /* only rep0 is ever repeated */
    size_t pos = 0;
    while (pos < size && !c.full) {
        /* The longest earlier match (hash chain), and a repeat of rep0. */
        size_t best = 0, best_dist = 0;
        if (pos + 3 <= size) {
            uint32_t h = hash3(src + pos);
            int32_t cand = head[h];
            for (int tries = 0; cand >= 0 && tries < CHAIN_TRIES; tries++, cand = prev[cand]) {
                size_t len = match_length(src, size, pos, (size_t)cand);
                if (len > best) {
                    best = len;
                    best_dist = pos - (size_t)cand - 1;
                }
            }
            prev[pos] = head[h];
            head[h] = (int32_t)pos;
        }
        size_t rep_len = pos > rep0 ? match_length(src, size, pos, pos - rep0 - 1) : 0;
        uint32_t ps = (uint32_t)pos & pb_mask;
        size_t len = 0;
        if (rep_len >= LZMA_MATCH_MIN && rep_len + 1 >= best) { /* a repeat is cheaper than a new distance */
            len = rep_len;
            put_bit(&c, &m->is_match[state][ps], 1);
            put_bit(&c, &m->is_rep[state], 1);
            put_bit(&c, &m->is_rep_g0[state], 0);
            put_bit(&c, &m->is_rep0_long[state][ps], 1);
            put_length(&c, &m->rep_len, (uint32_t)(len - LZMA_MATCH_MIN), ps);
            state = state < 7 ? 8 : 11;
        } else if (best >= 3) {
            len = best;
            put_bit(&c, &m->is_match[state][ps], 1);
            put_bit(&c, &m->is_rep[state], 0);
            put_length(&c, &m->len, (uint32_t)(len - LZMA_MATCH_MIN), ps);
            state = state < 7 ? 7 : 10;
            put_distance(&c, m, (uint32_t)best_dist, (uint32_t)(len - LZMA_MATCH_MIN));
            rep0 = (uint32_t)best_dist;
        } else { /* a literal, guided by the byte at rep0 after a match */
            put_bit(&c, &m->is_match[state][ps], 0);
            uint32_t prev_byte = pos ? src[pos - 1] : 0, byte = src[pos], sym = 1;
            LzmaProb *p = lit + 0x300 * (prev_byte >> (8 - ENC_LC));
            bool matched = state >= 7;
            uint32_t match = matched ? src[pos - rep0 - 1] : 0;
            for (int i = 7; i >= 0; i--) {
                uint32_t b = (byte >> i) & 1;
                if (matched) {
                    uint32_t mb = (match >> i) & 1;
                    put_bit(&c, &p[((1 + mb) << 8) + sym], b);
                    matched = mb == b;
                } else {
                    put_bit(&c, &p[sym], b);
                }
                sym = (sym << 1) | b;
            }
            state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
            pos++;
            continue;
        }
        /* Index the positions the match covers (the first is done). */
        for (size_t k = pos + 1; k < pos + len && k + 3 <= size; k++) {
            uint32_t h = hash3(src + k);
            prev[k] = head[h];
            head[h] = (int32_t)k;
        }
        pos += len;
    }
    for (int i = 0; i < 5; i++) shift_low(&c);
    free(lit);
    free(m);
    free(head);
    free(prev);
    if (c.full) return 0;
    size_t n = c.at;
    dst[n++] = (uint8_t)((ENC_PB * 5 + ENC_LP) * 9 + ENC_LC);
    for (int i = 0; i < 4; i++) dst[n++] = (uint8_t)(EncDictSize >> (8 * i));
    return n;
}
