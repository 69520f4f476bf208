// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * An LZMA decoder for xiangqitb's DTC/DTM blocks (docs/egtb.md, "File
 * layout"): a raw LZMA stream (no .lzma header, no end marker) whose 5
 * property bytes follow it. Written from the LZMA specification (the range
 * coder, literal, length and distance models it describes), not from any
 * implementation's code.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode one xiangqitb block: src holds the stream then 5 property bytes
 * (lc/lp/pb byte, dictionary size); exactly dst_size bytes must come out.
 * false on any malformed input. */
bool egtb_lzma_decode_block(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size);

/* Encode src as one xiangqitb block: a raw LZMA stream (lc 3, lp 0, pb 2,
 * dictionary 1 MiB, no end marker) followed by its 5 property bytes, into
 * dst of dst_cap bytes. A plain greedy coder (longest match from a hash
 * chain, or a repeat of the last distance), not an optimal parser: any
 * LZMA decoder reads it. Returns the size, or 0 if it does not fit. */
size_t egtb_lzma_encode_block(const uint8_t *src, size_t size, uint8_t *dst, size_t dst_cap);
