// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * SHA-256 (FIPS 180-4), for the data pool's manifest: a file's digest lets
 * anyone check that a data file is the one the manifest describes. Portable
 * C, fed in pieces of any size.
 */
#include <stddef.h>
#include <stdint.h>

enum { SHA256_DIGEST_SIZE = 32, SHA256_HEX_SIZE = 65 /* 64 digits and NUL */ };

typedef struct {
    uint32_t h[8];
    uint64_t length; /* bytes fed so far */
    uint8_t block[64];
    size_t used; /* bytes waiting in block */
} Sha256;

/* Start a digest. */
void sha256_init(Sha256 *s);
/* Feed n bytes. */
void sha256_update(Sha256 *s, const void *data, size_t n);
/* The digest of everything fed; s itself is left as it was, so feeding
 * may go on (a file that grows keeps one running digest). */
void sha256_final(const Sha256 *s, uint8_t digest[SHA256_DIGEST_SIZE]);
/* The digest in lowercase hex. */
void sha256_hex(const Sha256 *s, char hex[SHA256_HEX_SIZE]);
