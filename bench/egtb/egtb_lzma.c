// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_lzma.h"

#include <stdlib.h>
#include <string.h>

enum {
    PROB_BITS = 11,
    PROB_INIT = 1 << (PROB_BITS - 1),
    MOVE_BITS = 5,
    STATES = 12,
    POS_STATES_MAX = 16,
    LEN_LOW = 8,
    LEN_MID = 8,
    LEN_HIGH = 256,
    LEN_STATES = 4,
    END_POS_MODEL = 14,
    FULL_DISTANCES = 128,
    ALIGN_BITS = 4,
    MATCH_MIN = 2,
    PROPS_SIZE = 5,
};

typedef uint16_t Prob;

typedef struct {
    const uint8_t *in, *end;
    uint32_t range, code;
    bool error; /* read past the input */
} Range;

static uint8_t next_byte(Range *rc) {
    if (rc->in < rc->end) return *rc->in++;
    rc->error = true;
    return 0;
}

static void normalize(Range *rc) {
    if (rc->range < (1u << 24)) {
        rc->range <<= 8;
        rc->code = (rc->code << 8) | next_byte(rc);
    }
}

static int bit(Range *rc, Prob *p) {
    uint32_t bound = (rc->range >> PROB_BITS) * *p;
    int b;
    if (rc->code < bound) {
        rc->range = bound;
        *p += ((1 << PROB_BITS) - *p) >> MOVE_BITS;
        b = 0;
    } else {
        rc->range -= bound;
        rc->code -= bound;
        *p -= *p >> MOVE_BITS;
        b = 1;
    }
    normalize(rc);
    return b;
}

static uint32_t direct_bits(Range *rc, int n) {
    uint32_t res = 0;
    for (; n > 0; n--) {
        rc->range >>= 1;
        uint32_t b = rc->code >= rc->range;
        if (b) rc->code -= rc->range;
        res = (res << 1) | b;
        normalize(rc);
    }
    return res;
}

/* A bit tree of n bits, most significant first. */
static uint32_t tree(Range *rc, Prob *probs, int n) {
    uint32_t m = 1;
    for (int i = 0; i < n; i++) m = (m << 1) | (uint32_t)bit(rc, &probs[m]);
    return m - (1u << n);
}

/* The same, least significant bit first. */
static uint32_t tree_reverse(Range *rc, Prob *probs, int n) {
    uint32_t m = 1, sym = 0;
    for (int i = 0; i < n; i++) {
        uint32_t b = (uint32_t)bit(rc, &probs[m]);
        m = (m << 1) | b;
        sym |= b << i;
    }
    return sym;
}

typedef struct {
    Prob choice, choice2;
    Prob low[POS_STATES_MAX][1 << 3], mid[POS_STATES_MAX][1 << 3], high[LEN_HIGH];
} LenModel;

static uint32_t length(Range *rc, LenModel *m, uint32_t pos_state) {
    if (!bit(rc, &m->choice)) return tree(rc, m->low[pos_state], 3);
    if (!bit(rc, &m->choice2)) return LEN_LOW + tree(rc, m->mid[pos_state], 3);
    return LEN_LOW + LEN_MID + tree(rc, m->high, 8);
}

typedef struct {
    Prob is_match[STATES][POS_STATES_MAX], is_rep[STATES], is_rep_g0[STATES], is_rep_g1[STATES],
        is_rep_g2[STATES], is_rep0_long[STATES][POS_STATES_MAX];
    Prob pos_slot[LEN_STATES][1 << 6], pos[1 + FULL_DISTANCES - END_POS_MODEL], align[1 << ALIGN_BITS];
    LenModel len, rep_len;
} Model;

static void probs_init(Prob *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = PROB_INIT;
}

static uint32_t distance(Range *rc, Model *m, uint32_t len) {
    uint32_t slot = tree(rc, m->pos_slot[len < LEN_STATES - 1 ? len : LEN_STATES - 1], 6);
    if (slot < 4) return slot;
    int direct = (int)(slot >> 1) - 1;
    uint32_t dist = (2 | (slot & 1)) << direct;
    if (slot < END_POS_MODEL) return dist + tree_reverse(rc, m->pos + dist - slot, direct);
    dist += direct_bits(rc, direct - ALIGN_BITS) << ALIGN_BITS;
    return dist + tree_reverse(rc, m->align, ALIGN_BITS);
}

bool egtb_lzma_decode_block(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size) {
    if (src_size < PROPS_SIZE + 5) return false;
    const uint8_t *props = src + src_size - PROPS_SIZE;
    if (props[0] >= 9 * 5 * 5) return false;
    int lc = props[0] % 9, lp = props[0] / 9 % 5, pb = props[0] / 45;
    Range rc = {.in = src, .end = src + src_size - PROPS_SIZE, .range = 0xFFFFFFFFu};
    if (next_byte(&rc) != 0) return false;
    for (int i = 0; i < 4; i++) rc.code = (rc.code << 8) | next_byte(&rc);
    if (rc.code == rc.range) return false;

    size_t nlit = (size_t)0x300 << (lc + lp);
    Prob *lit = malloc(nlit * sizeof *lit);
    Model *m = malloc(sizeof *m);
    if (!lit || !m) {
        free(lit);
        free(m);
        return false;
    }
    probs_init(lit, nlit);
    probs_init((Prob *)m, sizeof *m / sizeof(Prob));

    uint32_t state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
    uint32_t pb_mask = (1u << pb) - 1, lp_mask = (1u << lp) - 1;
    size_t out = 0;
    bool ok = true;
    while (out < dst_size && ok && !rc.error) {
        uint32_t ps = (uint32_t)out & pb_mask;
        if (!bit(&rc, &m->is_match[state][ps])) { /* a literal */
            uint32_t prev = out ? dst[out - 1] : 0;
            Prob *p = lit + 0x300 * ((((uint32_t)out & lp_mask) << lc) + (prev >> (8 - lc)));
            uint32_t sym = 1;
            if (state >= 7) { /* after a match: the byte at rep0 guides the first bits */
                if (rep0 >= out) {
                    ok = false;
                    break;
                }
                uint32_t match = dst[out - rep0 - 1];
                do {
                    uint32_t mb = (match >> 7) & 1;
                    match <<= 1;
                    uint32_t b = (uint32_t)bit(&rc, &p[((1 + mb) << 8) + sym]);
                    sym = (sym << 1) | b;
                    if (mb != b) break;
                } while (sym < 0x100);
            }
            while (sym < 0x100) sym = (sym << 1) | (uint32_t)bit(&rc, &p[sym]);
            dst[out++] = (uint8_t)sym;
            state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
            continue;
        }
        uint32_t len;
        if (bit(&rc, &m->is_rep[state])) {
            if (out == 0) {
                ok = false;
                break;
            }
            if (!bit(&rc, &m->is_rep_g0[state])) {
                if (!bit(&rc, &m->is_rep0_long[state][ps])) { /* one byte from rep0 */
                    if (rep0 >= out) {
                        ok = false;
                        break;
                    }
                    dst[out] = dst[out - rep0 - 1];
                    out++;
                    state = state < 7 ? 9 : 11;
                    continue;
                }
            } else {
                uint32_t d;
                if (!bit(&rc, &m->is_rep_g1[state])) {
                    d = rep1;
                } else {
                    if (!bit(&rc, &m->is_rep_g2[state])) {
                        d = rep2;
                    } else {
                        d = rep3;
                        rep3 = rep2;
                    }
                    rep2 = rep1;
                }
                rep1 = rep0;
                rep0 = d;
            }
            len = length(&rc, &m->rep_len, ps);
            state = state < 7 ? 8 : 11;
        } else {
            rep3 = rep2;
            rep2 = rep1;
            rep1 = rep0;
            len = length(&rc, &m->len, ps);
            state = state < 7 ? 7 : 10;
            rep0 = distance(&rc, m, len);
            if (rep0 == 0xFFFFFFFFu) break; /* end marker */
        }
        len += MATCH_MIN;
        if (rep0 >= out || len > dst_size - out) {
            ok = false;
            break;
        }
        for (; len > 0; len--, out++) dst[out] = dst[out - rep0 - 1];
    }
    free(lit);
    free(m);
    return ok && !rc.error && out == dst_size;
}

/* The encoder mirrors the decoder above model by model. */
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

static void put_bit(Coder *c, Prob *p, uint32_t b) {
    uint32_t bound = (c->range >> PROB_BITS) * *p;
    if (!b) {
        c->range = bound;
        *p += ((1 << PROB_BITS) - *p) >> MOVE_BITS;
    } else {
        c->low += bound;
        c->range -= bound;
        *p -= *p >> MOVE_BITS;
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

static void put_tree(Coder *c, Prob *probs, int n, uint32_t v) {
    uint32_t m = 1;
    for (int i = n - 1; i >= 0; i--) {
        uint32_t b = (v >> i) & 1;
        put_bit(c, &probs[m], b);
        m = (m << 1) | b;
    }
}

static void put_tree_reverse(Coder *c, Prob *probs, int n, uint32_t v) {
    uint32_t m = 1;
    for (int i = 0; i < n; i++) {
        uint32_t b = v & 1;
        v >>= 1;
        put_bit(c, &probs[m], b);
        m = (m << 1) | b;
    }
}

/* len is the match length minus MATCH_MIN. */
static void put_length(Coder *c, LenModel *m, uint32_t len, uint32_t pos_state) {
    if (len < LEN_LOW) {
        put_bit(c, &m->choice, 0);
        put_tree(c, m->low[pos_state], 3, len);
    } else if (len < LEN_LOW + LEN_MID) {
        put_bit(c, &m->choice, 1);
        put_bit(c, &m->choice2, 0);
        put_tree(c, m->mid[pos_state], 3, len - LEN_LOW);
    } else {
        put_bit(c, &m->choice, 1);
        put_bit(c, &m->choice2, 1);
        put_tree(c, m->high, 8, len - LEN_LOW - LEN_MID);
    }
}

static void put_distance(Coder *c, Model *m, uint32_t dist, uint32_t len) {
    uint32_t slot;
    if (dist < 4) {
        slot = dist;
    } else {
        int top = 31 - __builtin_clz(dist);
        slot = (uint32_t)(top << 1) | ((dist >> (top - 1)) & 1);
    }
    put_tree(c, m->pos_slot[len < LEN_STATES - 1 ? len : LEN_STATES - 1], 6, slot);
    if (slot < 4) return;
    int direct = (int)(slot >> 1) - 1;
    uint32_t base = (2 | (slot & 1)) << direct, rest = dist - base;
    if (slot < END_POS_MODEL) {
        put_tree_reverse(c, m->pos + base - slot, direct, rest);
    } else {
        put_direct(c, rest >> ALIGN_BITS, direct - ALIGN_BITS);
        put_tree_reverse(c, m->align, ALIGN_BITS, rest & ((1u << ALIGN_BITS) - 1));
    }
}

static size_t match_length(const uint8_t *src, size_t size, size_t pos, size_t from) {
    size_t n = 0, limit = size - pos < MATCH_MAX ? size - pos : MATCH_MAX;
    while (n < limit && src[from + n] == src[pos + n]) n++;
    return n;
}

static uint32_t hash3(const uint8_t *p) { return ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) * 2654435761u >> (32 - HASH_BITS); }

size_t egtb_lzma_encode_block(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap) {
    if (size > EncDictSize || dst_cap < PROPS_SIZE) return 0;
    size_t nlit = (size_t)0x300 << (ENC_LC + ENC_LP);
    Prob *lit = malloc(nlit * sizeof *lit);
    Model *m = malloc(sizeof *m);
    int32_t *head = malloc(sizeof(int32_t) << HASH_BITS), *prev = malloc(sizeof(int32_t) * (size ? size : 1));
    if (!lit || !m || !head || !prev) {
        free(lit);
        free(m);
        free(head);
        free(prev);
        return 0;
    }
    probs_init(lit, nlit);
    probs_init((Prob *)m, sizeof *m / sizeof(Prob));
    memset(head, 0xFF, sizeof(int32_t) << HASH_BITS);
    Coder c = {.range = 0xFFFFFFFFu, .cache_size = 1, .out = dst, .cap = dst_cap - PROPS_SIZE};
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
        if (rep_len >= MATCH_MIN && rep_len + 1 >= best) { /* a repeat is cheaper than a new distance */
            len = rep_len;
            put_bit(&c, &m->is_match[state][ps], 1);
            put_bit(&c, &m->is_rep[state], 1);
            put_bit(&c, &m->is_rep_g0[state], 0);
            put_bit(&c, &m->is_rep0_long[state][ps], 1);
            put_length(&c, &m->rep_len, (uint32_t)(len - MATCH_MIN), ps);
            state = state < 7 ? 8 : 11;
        } else if (best >= 3) {
            len = best;
            put_bit(&c, &m->is_match[state][ps], 1);
            put_bit(&c, &m->is_rep[state], 0);
            put_length(&c, &m->len, (uint32_t)(len - MATCH_MIN), ps);
            state = state < 7 ? 7 : 10;
            put_distance(&c, m, (uint32_t)best_dist, (uint32_t)(len - MATCH_MIN));
            rep0 = (uint32_t)best_dist;
        } else { /* a literal, guided by the byte at rep0 after a match */
            put_bit(&c, &m->is_match[state][ps], 0);
            uint32_t prev_byte = pos ? src[pos - 1] : 0, byte = src[pos], sym = 1;
            Prob *p = lit + 0x300 * (prev_byte >> (8 - ENC_LC));
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
