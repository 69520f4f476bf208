// SPDX-License-Identifier: GPL-3.0-or-later
/* The data pool's manifest: text to entries and back (manifest.h). */
#include "manifest.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char Comment[] = "# Tuong training data pool: one line per data file, written by tuong-datagen "
                              "(docs/nnue.md, \"The data pool\").\n";
static const char *const Columns[MANIFEST_COLUMNS] = {
    "file", "kind",  "positions", "games",    "next",   "sha256",  "commit",
    "net",  "nodes", "seed",      "settings", "source", "created", "updated",
};
static const char *const KindNames[] = {"selfplay", "rescore"};

static bool failf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

const char *manifest_kind_name(ManifestKind kind) { return KindNames[kind == MANIFEST_RESCORE]; }

/* ---------------------------------------------------------------------- */
/* Field checks                                                            */

/* Printable ASCII without blanks: what a field may hold. */
static bool is_token(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (*s < 0x21 || *s > 0x7e) return false;
    return true;
}

static bool is_file_name(const char *s) {
    return is_token(s) && !strchr(s, '/') && !strchr(s, '\\') && strcmp(s, ".") && strcmp(s, "..") &&
           strcmp(s, MANIFEST_NAME);
}

static bool is_hex(const char *s, size_t n) {
    if (strlen(s) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static bool is_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

/* 2026-12-02T16:16:05Z, with plausible ranges. */
static bool is_date(const char *s) {
    if (strlen(s) != MANIFEST_DATE_SIZE - 1 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':' || s[19] != 'Z')
        return false;
    if (!is_digits(s, 4) || !is_digits(s + 5, 2) || !is_digits(s + 8, 2) || !is_digits(s + 11, 2) ||
        !is_digits(s + 14, 2) || !is_digits(s + 17, 2))
        return false;
    int month = atoi(s + 5), day = atoi(s + 8), hour = atoi(s + 11), minute = atoi(s + 14), second = atoi(s + 17);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
}

bool manifest_entry_check(const ManifestEntry *e, char *err, size_t errlen) {
    if (!memchr(e->file, 0, sizeof e->file) || !is_file_name(e->file))
        return failf(err, errlen, "file: not a plain file name");
    if (e->kind != MANIFEST_SELFPLAY && e->kind != MANIFEST_RESCORE) return failf(err, errlen, "kind: unknown");
    if (e->positions == MANIFEST_UNKNOWN) return failf(err, errlen, "positions: must be a number");
    if (e->games != MANIFEST_UNKNOWN && e->games > e->next && e->kind == MANIFEST_SELFPLAY)
        return failf(err, errlen, "games: more than next");
    if (!memchr(e->sha256, 0, sizeof e->sha256) || !is_hex(e->sha256, 64))
        return failf(err, errlen, "sha256: not 64 lowercase hex digits");
    if (!memchr(e->commit, 0, sizeof e->commit) || !is_token(e->commit))
        return failf(err, errlen, "commit: empty or has blanks");
    if (!memchr(e->net, 0, sizeof e->net) || !(is_hex(e->net, 8) || !strcmp(e->net, "none")))
        return failf(err, errlen, "net: not 8 lowercase hex digits or none");
    if (e->nodes == MANIFEST_UNKNOWN || e->nodes == 0) return failf(err, errlen, "nodes: must be a positive number");
    if ((e->kind == MANIFEST_SELFPLAY) != (e->seed != MANIFEST_UNKNOWN))
        return failf(err, errlen, "seed: a number for selfplay, - for rescore");
    if (!memchr(e->settings, 0, sizeof e->settings) || !is_token(e->settings))
        return failf(err, errlen, "settings: empty or has blanks");
    if (!memchr(e->source, 0, sizeof e->source) || !is_token(e->source))
        return failf(err, errlen, "source: empty or has blanks");
    if ((e->kind == MANIFEST_RESCORE) == !strcmp(e->source, "-"))
        return failf(err, errlen, "source: the input file for rescore, - for selfplay");
    if (!memchr(e->created, 0, sizeof e->created) || !is_date(e->created))
        return failf(err, errlen, "created: not a date like 2026-12-02T16:16:05Z");
    if (!memchr(e->updated, 0, sizeof e->updated) || !is_date(e->updated))
        return failf(err, errlen, "updated: not a date like 2026-12-02T16:16:05Z");
    return true;
}

/* ---------------------------------------------------------------------- */
/* Parsing                                                                 */

/* A decimal number without sign or leading zeros, or "-" when allowed. */
static bool parse_number(const char *s, bool dash_ok, uint64_t *out) {
    if (dash_ok && !strcmp(s, "-")) {
        *out = MANIFEST_UNKNOWN;
        return true;
    }
    size_t n = strlen(s);
    if (n == 0 || n > 20 || !is_digits(s, n) || (n > 1 && s[0] == '0')) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - 1 - d) / 10) return false; /* UINT64_MAX itself means unknown */
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool copy_field(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) return false;
    memcpy(dst, src, n + 1);
    return true;
}

/* Fill e from the 14 fields of one line; false with the reason. */
static bool parse_entry(char **f, ManifestEntry *e, char *err, size_t errlen) {
    memset(e, 0, sizeof *e);
    if (!copy_field(e->file, sizeof e->file, f[0]))
        return failf(err, errlen, "file: longer than %d bytes", MANIFEST_FILE_MAX - 1);
    if (!strcmp(f[1], KindNames[0]))
        e->kind = MANIFEST_SELFPLAY;
    else if (!strcmp(f[1], KindNames[1]))
        e->kind = MANIFEST_RESCORE;
    else
        return failf(err, errlen, "kind: '%.40s' is not selfplay or rescore", f[1]);
    if (!parse_number(f[2], false, &e->positions)) return failf(err, errlen, "positions: not a number");
    if (!parse_number(f[3], true, &e->games)) return failf(err, errlen, "games: not a number or -");
    if (!parse_number(f[4], true, &e->next)) return failf(err, errlen, "next: not a number or -");
    if (!copy_field(e->sha256, sizeof e->sha256, f[5])) return failf(err, errlen, "sha256: not 64 hex digits");
    if (!copy_field(e->commit, sizeof e->commit, f[6])) return failf(err, errlen, "commit: too long");
    if (!copy_field(e->net, sizeof e->net, f[7])) return failf(err, errlen, "net: too long");
    if (!parse_number(f[8], false, &e->nodes)) return failf(err, errlen, "nodes: not a number");
    if (!parse_number(f[9], true, &e->seed)) return failf(err, errlen, "seed: not a number or -");
    if (!copy_field(e->settings, sizeof e->settings, f[10])) return failf(err, errlen, "settings: too long");
    if (!copy_field(e->source, sizeof e->source, f[11])) return failf(err, errlen, "source: too long");
    if (!copy_field(e->created, sizeof e->created, f[12]) || !copy_field(e->updated, sizeof e->updated, f[13]))
        return failf(err, errlen, "dates: not like 2026-12-02T16:16:05Z");
    return manifest_entry_check(e, err, errlen);
}

/* Split line (modified in place) at tabs into at most max fields. */
static int split_tabs(char *line, char **fields, int max) {
    int n = 0;
    for (char *p = line;; p++) {
        if (n < max) fields[n] = p;
        n++;
        p = strchr(p, '\t');
        if (!p) break;
        *p = '\0';
    }
    return n;
}

static bool parse_line(Manifest *m, char *line, bool *header_seen, char *err, size_t errlen) {
    if (line[0] == '#') return true;
    char *f[MANIFEST_COLUMNS];
    int n = split_tabs(line, f, MANIFEST_COLUMNS);
    if (!*header_seen) {
        bool same = n == MANIFEST_COLUMNS;
        for (int i = 0; same && i < MANIFEST_COLUMNS; i++)
            same = !strcmp(f[i], Columns[i]);
        if (!same) return failf(err, errlen, "not a tuong-datagen manifest: the column header is missing");
        *header_seen = true;
        return true;
    }
    if (n != MANIFEST_COLUMNS) return failf(err, errlen, "%d tab-separated fields, expected %d", n, MANIFEST_COLUMNS);
    ManifestEntry e;
    if (!parse_entry(f, &e, err, errlen)) return false;
    if (manifest_find(m, e.file)) return failf(err, errlen, "%s is listed twice", e.file);
    return manifest_put(m, &e) || failf(err, errlen, "out of memory");
}

bool manifest_parse(Manifest *m, const char *text, size_t len, char *err, size_t errlen) {
    if (memchr(text, '\0', len)) return failf(err, errlen, "not a text file (it holds a NUL byte)");
    bool header_seen = false;
    char line[MANIFEST_LINE_MAX], why[300];
    size_t at = 0;
    for (int number = 1; at < len; number++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        if (n >= sizeof line) return failf(err, errlen, "line %d: longer than %d bytes", number, MANIFEST_LINE_MAX - 1);
        if (!nl) return failf(err, errlen, "line %d: the last line has no newline (a write cut short?)", number);
        memcpy(line, text + at, n);
        line[n] = '\0';
        at += n + 1;
        if (memchr(line, '\r', n)) return failf(err, errlen, "line %d: has a carriage return", number);
        if (n == 0) continue;
        if (!parse_line(m, line, &header_seen, why, sizeof why)) return failf(err, errlen, "line %d: %s", number, why);
    }
    if (!header_seen) return failf(err, errlen, "not a tuong-datagen manifest: the column header is missing");
    return true;
}

/* ---------------------------------------------------------------------- */
/* Writing and editing                                                     */

static void put_number(char *buf, size_t cap, uint64_t v) {
    if (v == MANIFEST_UNKNOWN)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%" PRIu64, v);
}

char *manifest_format(const Manifest *m, size_t *len) {
    size_t cap = sizeof Comment + 200 + (size_t)m->count * MANIFEST_LINE_MAX;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t n = (size_t)snprintf(out, cap, "%s", Comment);
    for (int i = 0; i < MANIFEST_COLUMNS; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%c", Columns[i], i + 1 < MANIFEST_COLUMNS ? '\t' : '\n');
    for (int i = 0; i < m->count; i++) {
        const ManifestEntry *e = &m->entries[i];
        char positions[24], games[24], next[24], nodes[24], seed[24];
        put_number(positions, sizeof positions, e->positions);
        put_number(games, sizeof games, e->games);
        put_number(next, sizeof next, e->next);
        put_number(nodes, sizeof nodes, e->nodes);
        put_number(seed, sizeof seed, e->seed);
        n += (size_t)snprintf(out + n, cap - n, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e->file,
                              manifest_kind_name(e->kind), positions, games, next, e->sha256, e->commit, e->net, nodes,
                              seed, e->settings, e->source, e->created, e->updated);
    }
    *len = n;
    return out;
}

ManifestEntry *manifest_find(Manifest *m, const char *file) {
    for (int i = 0; i < m->count; i++)
        if (!strcmp(m->entries[i].file, file)) return &m->entries[i];
    return NULL;
}

bool manifest_put(Manifest *m, const ManifestEntry *e) {
    ManifestEntry *old = manifest_find(m, e->file);
    if (old) {
        *old = *e;
        return true;
    }
    if (m->count == m->cap) {
        int cap = m->cap ? 2 * m->cap : 16;
        ManifestEntry *p = realloc(m->entries, sizeof *p * (size_t)cap);
        if (!p) return false;
        m->entries = p;
        m->cap = cap;
    }
    m->entries[m->count++] = *e;
    return true;
}

void manifest_free(Manifest *m) {
    free(m->entries);
    *m = (Manifest){0};
}
