// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * An LZMA decoder for xiangqitb's DTC/DTM blocks (docs/egtb.md, "File
 * layout"): a raw LZMA stream (no .lzma header, no end marker) whose 5
 * property bytes follow it. Written from the LZMA specification (the range
 * coder, literal, length and distance models it describes), not from any
 * implementation's code.
 *
 * The probability models are declared here because the encoder of
 * bench/egtb (egtb_lzma_enc.c) mirrors them; nothing else should use them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    LZMA_PROB_BITS = 11,
    LZMA_PROB_INIT = 1 << (LZMA_PROB_BITS - 1),
    LZMA_MOVE_BITS = 5,
    LZMA_STATES = 12,
    LZMA_POS_STATES_MAX = 16,
    LZMA_LEN_LOW = 8,
    LZMA_LEN_MID = 8,
    LZMA_LEN_HIGH = 256,
    LZMA_LEN_STATES = 4,
    LZMA_END_POS_MODEL = 14,
    LZMA_FULL_DISTANCES = 128,
    LZMA_ALIGN_BITS = 4,
    LZMA_MATCH_MIN = 2,
    LZMA_PROPS_SIZE = 5,
    /* lc + lp at most this (xiangqitb writes lc 3, lp 0), so that the
     * literal model fits a fixed workspace. */
    LZMA_LCLP_MAX = 4,
};

typedef uint16_t LzmaProb;

typedef struct {
    LzmaProb choice, choice2;
    LzmaProb low[LZMA_POS_STATES_MAX][1 << 3], mid[LZMA_POS_STATES_MAX][1 << 3], high[LZMA_LEN_HIGH];
} LzmaLenModel;

typedef struct {
    LzmaProb is_match[LZMA_STATES][LZMA_POS_STATES_MAX], is_rep[LZMA_STATES], is_rep_g0[LZMA_STATES],
        is_rep_g1[LZMA_STATES], is_rep_g2[LZMA_STATES], is_rep0_long[LZMA_STATES][LZMA_POS_STATES_MAX];
    LzmaProb pos_slot[LZMA_LEN_STATES][1 << 6], pos[1 + LZMA_FULL_DISTANCES - LZMA_END_POS_MODEL],
        align[1 << LZMA_ALIGN_BITS];
    LzmaLenModel len, rep_len;
} LzmaModel;

static inline void lzma_probs_init(LzmaProb *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = LZMA_PROB_INIT;
}

/* The decoder's models: about 26 KB, kept by the caller so that a probe
 * allocates nothing. */
typedef struct {
    LzmaModel model;
    LzmaProb literal[(size_t)0x300 << LZMA_LCLP_MAX];
} EgtbLzmaWork;

/* Decode one xiangqitb block: src holds the stream then 5 property bytes
 * (lc/lp/pb byte, dictionary size); exactly dst_size bytes must come out.
 * false on any malformed input, and for lc + lp above LZMA_LCLP_MAX. */
bool egtb_lzma_decode_block(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size, EgtbLzmaWork *work);
