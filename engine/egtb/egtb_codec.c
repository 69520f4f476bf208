// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_codec.h"

#include <string.h>

/* XXH64 (the public specification). */
static const uint64_t P1 = 0x9E3779B185EBCA87ULL, P2 = 0xC2B2AE3D27D4EB4FULL, P3 = 0x165667B19E3779F9ULL,
                      P4 = 0x85EBCA77C2B2AE63ULL, P5 = 0x27D4EB2F165667C5ULL;

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static uint64_t xxh_round(uint64_t acc, uint64_t input) { return rotl64(acc + input * P2, 31) * P1; }
static uint64_t xxh_merge(uint64_t acc, uint64_t v) { return (acc ^ xxh_round(0, v)) * P1 + P4; }

uint64_t egtb_xxh64(const void *data, size_t size, uint64_t seed) {
    const uint8_t *p = data, *end = p + size;
    uint64_t h;
    if (size >= 32) {
        uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
        for (; end - p >= 32; p += 32) {
            v1 = xxh_round(v1, egtb_rd64(p));
            v2 = xxh_round(v2, egtb_rd64(p + 8));
            v3 = xxh_round(v3, egtb_rd64(p + 16));
            v4 = xxh_round(v4, egtb_rd64(p + 24));
        }
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(h, v1);
        h = xxh_merge(h, v2);
        h = xxh_merge(h, v3);
        h = xxh_merge(h, v4);
    } else {
        h = seed + P5;
    }
    h += (uint64_t)size;
    for (; end - p >= 8; p += 8)
        h = rotl64(h ^ xxh_round(0, egtb_rd64(p)), 27) * P1 + P4;
    if (end - p >= 4) {
        h = rotl64(h ^ (uint64_t)egtb_rd32(p) * P1, 23) * P2 + P3;
        p += 4;
    }
    for (; p < end; p++)
        h = rotl64(h ^ *p * P5, 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

/* An LZ4 length: the nibble, plus 255-runs of extra bytes when it is 15. */
static bool lz4_length(const uint8_t **p, const uint8_t *end, size_t *len) {
    if (*len != 15) return true;
    for (;;) {
        if (*p >= end) return false;
        uint8_t b = *(*p)++;
        *len += b;
        if (b != 255) return true;
    }
}

bool egtb_lz4_decode(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size, const uint8_t *dict,
                     size_t dict_size) {
    const uint8_t *p = src, *end = src + src_size;
    size_t out = 0;
    while (p < end) {
        uint8_t token = *p++;
        size_t lit = token >> 4;
        if (!lz4_length(&p, end, &lit) || lit > (size_t)(end - p) || lit > dst_size - out) return false;
        memcpy(dst + out, p, lit);
        p += lit;
        out += lit;
        if (p == end) break; /* the last sequence has literals only */
        if (end - p < 2) return false;
        size_t offset = egtb_rd16(p);
        p += 2;
        size_t len = token & 15;
        if (offset == 0 || !lz4_length(&p, end, &len)) return false;
        len += 4;
        if (len > dst_size - out || offset > out + dict_size) return false;
        for (size_t i = 0; i < len; i++, out++) /* byte by byte: the match may overlap its copy */
            dst[out] = out >= offset ? dst[out - offset] : dict[dict_size - (offset - out)];
    }
    return out == dst_size;
}
