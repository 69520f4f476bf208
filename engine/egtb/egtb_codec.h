// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The checksum and block decoder of xiangqitb's WDL files (docs/egtb.md,
 * "File layout"): XXH64 and the LZ4 block format, both written from their
 * public specifications. Little-endian readers for the file headers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint16_t egtb_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t egtb_rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t egtb_rd64(const uint8_t *p) { return egtb_rd32(p) | (uint64_t)egtb_rd32(p + 4) << 32; }

/* XXH64 of data with seed. */
uint64_t egtb_xxh64(const void *data, size_t size, uint64_t seed);

/* Decode one LZ4 block (no frame) of src into dst (exactly dst_size bytes
 * expected), with dict (may be empty) as the history before dst; false on
 * any malformed or mis-sized input. */
bool egtb_lz4_decode(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size, const uint8_t *dict,
                     size_t dict_size);
