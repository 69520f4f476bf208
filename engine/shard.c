// SPDX-License-Identifier: GPL-3.0-or-later
#include "shard.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole decimal number in [lo, hi] from s up to the first `stop` char;
 * *rest points past it. */
static bool parse_part(const char *s, char stop, long lo, long hi, long *out, const char **rest) {
    if (*s < '0' || *s > '9') return false; /* no sign, no blank */
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end != stop || v < lo || v > hi) return false;
    *out = v;
    *rest = end;
    return true;
}

bool shard_parse(const char *text, ShardSpec *out) {
    long k, n;
    const char *rest;
    if (!text || !parse_part(text, '/', 0, SHARD_COUNT_MAX - 1, &k, &rest)) return false;
    if (!parse_part(rest + 1, '\0', 1, SHARD_COUNT_MAX, &n, &rest) || k >= n) return false;
    *out = (ShardSpec){.index = (int)k, .count = (int)n};
    return true;
}

/* total * k / n without overflow for any 64-bit total. */
static uint64_t scaled(uint64_t total, int k, int n) {
    return (uint64_t)((unsigned __int128)total * (unsigned)k / (unsigned)n);
}

void shard_range(uint64_t total, ShardSpec s, uint64_t *first, uint64_t *end) {
    *first = scaled(total, s.index, s.count);
    *end = scaled(total, s.index + 1, s.count);
}

bool shard_deals(uint64_t i, ShardSpec s) { return i % (uint64_t)s.count == (uint64_t)s.index; }

uint64_t shard_hash(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t shard_hash_str(uint64_t h, const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return shard_hash(h, s, n + 1);
}

uint64_t shard_hash_u64(uint64_t h, uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return shard_hash(h, b, sizeof b);
}

/* shard_check_set and shard_check_prefix: the same checks, and either every
 * shard or shards 0..n-1 required. */
static bool check_shards(const ShardInfo *files, int n, int *order, bool prefix, char *err, size_t errlen) {
    if (n < 1) {
        snprintf(err, errlen, "no shard files given");
        return false;
    }
    const ShardInfo *ref = &files[0];
    int count = ref->spec.count;
    for (int i = 0; i < n; i++) {
        const ShardInfo *f = &files[i];
        if (f->spec.count != count || f->spec.index < 0 || f->spec.index >= count) {
            snprintf(err, errlen, "%s is shard %d/%d but %s is shard %d/%d: not one split", f->name, f->spec.index,
                     f->spec.count, ref->name, ref->spec.index, count);
            return false;
        }
        if (f->run != ref->run) {
            snprintf(err, errlen, "%s is a shard of another run than %s (other settings, inputs or engine version)",
                     f->name, ref->name);
            return false;
        }
    }
    int *seen = calloc((size_t)count, sizeof *seen);
    if (!seen) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        int k = files[i].spec.index;
        if (seen[k]) {
            snprintf(err, errlen, "%s and %s are both shard %d/%d", files[seen[k] - 1].name, files[i].name, k, count);
            ok = false;
        }
        seen[k] = i + 1;
    }
    int needed = prefix ? n : count;
    for (int k = 0; k < needed && ok; k++) {
        if (!seen[k] && prefix) {
            snprintf(err, errlen, "shard %d/%d is missing: a prefix is shards 0 to %d/%d without a gap (%s among them)",
                     k, count, n - 1, count, ref->name);
            ok = false;
        } else if (!seen[k]) {
            snprintf(err, errlen, "shard %d/%d is missing (%d of %d shard files given, %s among them)", k, count, n,
                     count, ref->name);
            ok = false;
        } else {
            order[k] = seen[k] - 1;
        }
    }
    free(seen);
    return ok;
}

bool shard_check_set(const ShardInfo *files, int n, int *order, char *err, size_t errlen) {
    return check_shards(files, n, order, false, err, errlen);
}

bool shard_check_prefix(const ShardInfo *files, int n, int *order, char *err, size_t errlen) {
    return check_shards(files, n, order, true, err, errlen);
}

bool shard_fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

char *shard_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        shard_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) free(buf);
        buf = bigger;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        shard_fail(err, errlen, "%s: cannot read", path);
        return NULL;
    }
    *len = n;
    return buf;
}
