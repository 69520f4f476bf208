// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_lzma.h"

#include <string.h>


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

static int bit(Range *rc, LzmaProb *p) {
    uint32_t bound = (rc->range >> LZMA_PROB_BITS) * *p;
    int b;
    if (rc->code < bound) {
        rc->range = bound;
        *p += ((1 << LZMA_PROB_BITS) - *p) >> LZMA_MOVE_BITS;
        b = 0;
    } else {
        rc->range -= bound;
        rc->code -= bound;
        *p -= *p >> LZMA_MOVE_BITS;
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
static uint32_t tree(Range *rc, LzmaProb *probs, int n) {
    uint32_t m = 1;
    for (int i = 0; i < n; i++) m = (m << 1) | (uint32_t)bit(rc, &probs[m]);
    return m - (1u << n);
}

/* The same, least significant bit first. */
static uint32_t tree_reverse(Range *rc, LzmaProb *probs, int n) {
    uint32_t m = 1, sym = 0;
    for (int i = 0; i < n; i++) {
        uint32_t b = (uint32_t)bit(rc, &probs[m]);
        m = (m << 1) | b;
        sym |= b << i;
    }
    return sym;
}


static uint32_t length(Range *rc, LzmaLenModel *m, uint32_t pos_state) {
    if (!bit(rc, &m->choice)) return tree(rc, m->low[pos_state], 3);
    if (!bit(rc, &m->choice2)) return LZMA_LEN_LOW + tree(rc, m->mid[pos_state], 3);
    return LZMA_LEN_LOW + LZMA_LEN_MID + tree(rc, m->high, 8);
}



static uint32_t distance(Range *rc, LzmaModel *m, uint32_t len) {
    uint32_t slot = tree(rc, m->pos_slot[len < LZMA_LEN_STATES - 1 ? len : LZMA_LEN_STATES - 1], 6);
    if (slot < 4) return slot;
    int direct = (int)(slot >> 1) - 1;
    uint32_t dist = (2 | (slot & 1)) << direct;
    if (slot < LZMA_END_POS_MODEL) return dist + tree_reverse(rc, m->pos + dist - slot, direct);
    dist += direct_bits(rc, direct - LZMA_ALIGN_BITS) << LZMA_ALIGN_BITS;
    return dist + tree_reverse(rc, m->align, LZMA_ALIGN_BITS);
}

bool egtb_lzma_decode_block(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size, EgtbLzmaWork *work) {
    if (src_size < LZMA_PROPS_SIZE + 5) return false;
    const uint8_t *props = src + src_size - LZMA_PROPS_SIZE;
    if (props[0] >= 9 * 5 * 5) return false;
    int lc = props[0] % 9, lp = props[0] / 9 % 5, pb = props[0] / 45;
    Range rc = {.in = src, .end = src + src_size - LZMA_PROPS_SIZE, .range = 0xFFFFFFFFu};
    if (next_byte(&rc) != 0) return false;
    for (int i = 0; i < 4; i++) rc.code = (rc.code << 8) | next_byte(&rc);
    if (rc.code == rc.range) return false;

    size_t nlit = (size_t)0x300 << (lc + lp);
    if (lc + lp > LZMA_LCLP_MAX) return false;
    LzmaProb *lit = work->literal;
    LzmaModel *m = &work->model;
    lzma_probs_init(lit, nlit);
    lzma_probs_init((LzmaProb *)m, sizeof *m / sizeof(LzmaProb));

    uint32_t state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
    uint32_t pb_mask = (1u << pb) - 1, lp_mask = (1u << lp) - 1;
    size_t out = 0;
    bool ok = true;
    while (out < dst_size && ok && !rc.error) {
        uint32_t ps = (uint32_t)out & pb_mask;
        if (!bit(&rc, &m->is_match[state][ps])) { /* a literal */
            uint32_t prev = out ? dst[out - 1] : 0;
            LzmaProb *p = lit + 0x300 * ((((uint32_t)out & lp_mask) << lc) + (prev >> (8 - lc)));
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
        len += LZMA_MATCH_MIN;
        if (rep0 >= out || len > dst_size - out) {
            ok = false;
            break;
        }
        for (; len > 0; len--, out++) dst[out] = dst[out - rep0 - 1];
    }
    return ok && !rc.error && out == dst_size;
}

