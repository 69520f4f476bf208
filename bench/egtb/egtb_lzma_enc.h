// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * An LZMA encoder for xiangqitb's DTC blocks, the counterpart of the
 * engine's decoder (engine/egtb/egtb_lzma.h), written from the LZMA
 * specification.
 */
#include <stddef.h>
#include <stdint.h>

/* Encode src as one xiangqitb block: a raw LZMA stream (lc 3, lp 0, pb 2,
 * dictionary 1 MiB, no end marker) followed by its 5 property bytes, into
 * dst of dst_cap bytes. A plain greedy coder (longest match from a hash
 * chain, or a repeat of the last distance), not an optimal parser: any
 * LZMA decoder reads it. Returns the size, or 0 if it does not fit. */
size_t egtb_lzma_encode_block(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap);
