// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "egtb_xq.h"

static const char Magic[8] = {'T', 'U', 'O', 'N', 'G', 'T', 'B', '1'};

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static const uint64_t FnvBasis = 0xcbf29ce484222325ULL;

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static uint64_t get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

bool egtb_table_alloc(EgtbTable *t, const EgtbMaterial *mat, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    egtb_sig_name(mat, t->name);
    if (!egtb_layout_init(&t->lay, mat)) {
        snprintf(err, errlen, "%s: piece groups too large to index", t->name);
        return false;
    }
    for (int c = 0; c < COLOR_NB; c++) {
        t->val[c] = calloc(t->lay.positions ? t->lay.positions : 1, sizeof(uint16_t));
        if (!t->val[c]) {
            egtb_table_free(t);
            snprintf(err, errlen, "%s: out of memory for %llu positions", t->name,
                     (unsigned long long)t->lay.positions);
            return false;
        }
    }
    return true;
}

void egtb_table_free(EgtbTable *t) {
    free(t->val[RED]);
    free(t->val[BLACK]);
    egtb_layout_free(&t->lay);
    memset(t, 0, sizeof *t);
}

/* The value bytes of one side, little-endian, into buf (2N bytes). */
static void values_to_bytes(const EgtbTable *t, Color c, uint8_t *buf) {
    for (uint64_t i = 0; i < t->lay.positions; i++) {
        buf[2 * i] = (uint8_t)t->val[c][i];
        buf[2 * i + 1] = (uint8_t)(t->val[c][i] >> 8);
    }
}

bool egtb_table_write(const EgtbTable *t, const char *dir, char *err, size_t errlen) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s%s", dir, t->name, EGTB_FILE_EXT);
    size_t side_bytes = (size_t)t->lay.positions * 2;
    uint8_t *buf = malloc(side_bytes ? side_bytes : 1);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    uint64_t sum = FnvBasis;
    for (int c = 0; c < COLOR_NB; c++) {
        values_to_bytes(t, (Color)c, buf);
        sum = fnv1a(sum, buf, side_bytes);
    }
    uint8_t head[EGTB_HEADER_SIZE] = {0};
    memcpy(head, Magic, sizeof Magic);
    put_u32(head + 8, EGTB_VERSION);
    put_u32(head + 12, egtb_sig_material_key(&t->lay.mat));
    memcpy(head + 16, t->name, strlen(t->name) < 16 ? strlen(t->name) : 16);
    put_u64(head + 32, t->lay.positions);
    put_u32(head + 40, COLOR_NB);
    put_u64(head + 48, sum);
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(head, 1, sizeof head, f) == sizeof head;
    for (int c = 0; ok && c < COLOR_NB; c++) {
        values_to_bytes(t, (Color)c, buf);
        ok = fwrite(buf, 1, side_bytes, f) == side_bytes;
    }
    if (f && fclose(f) != 0) ok = false;
    free(buf);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

bool egtb_table_parse(EgtbTable *t, const uint8_t *data, size_t size, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    if (size < EGTB_HEADER_SIZE || memcmp(data, Magic, sizeof Magic) != 0) {
        snprintf(err, errlen, "not a Tuong table (bad magic or shorter than its header)");
        return false;
    }
    if (get_u32(data + 8) != EGTB_VERSION) {
        snprintf(err, errlen, "table version %u, this build reads %d", get_u32(data + 8), EGTB_VERSION);
        return false;
    }
    char name[17];
    memcpy(name, data + 16, 16);
    name[16] = '\0';
    EgtbMaterial mat;
    char why[200];
    if (!egtb_sig_parse(&mat, name, why, sizeof why)) {
        snprintf(err, errlen, "bad signature in header: %s", why);
        return false;
    }
    char norm[EGTB_NAME_MAX];
    if (strcmp(egtb_sig_name(&mat, norm), name) != 0 || get_u32(data + 12) != egtb_sig_material_key(&mat) ||
        get_u32(data + 40) != COLOR_NB || get_u32(data + 44) != 0) {
        snprintf(err, errlen, "header of %s is inconsistent (name, key, table count or flags)", name);
        return false;
    }
    if (egtb_sig_piece_count(&mat) > 4 || mat.count[RED][PAWN] > 3 || mat.count[BLACK][PAWN] > 3) {
        /* keep a hostile header from asking for a huge layout (PPPP: 9 M raw placements) */
        snprintf(err, errlen, "%s: more pieces than this build handles", name);
        return false;
    }
    if (!egtb_table_alloc(t, &mat, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    uint64_t n = t->lay.positions;
    if (get_u64(data + 32) != n || size != EGTB_HEADER_SIZE + 4 * n) {
        snprintf(err, errlen, "%s: size does not match its signature (%llu positions per side expected)", name,
                 (unsigned long long)n);
        egtb_table_free(t);
        return false;
    }
    const uint8_t *body = data + EGTB_HEADER_SIZE;
    if (fnv1a(FnvBasis, body, (size_t)(4 * n)) != get_u64(data + 48)) {
        snprintf(err, errlen, "%s: checksum mismatch (corrupt file)", name);
        egtb_table_free(t);
        return false;
    }
    for (int c = 0; c < COLOR_NB; c++)
        for (uint64_t i = 0; i < n; i++) {
            const uint8_t *p = body + 2 * (c * n + i);
            t->val[c][i] = (uint16_t)(p[0] | p[1] << 8);
        }
    return true;
}

bool egtb_table_read(EgtbTable *t, const char *path, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *p = realloc(data, cap);
            if (!p) break;
            data = p;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (read_error || !data) {
        free(data);
        snprintf(err, errlen, "%s: read error", path);
        return false;
    }
    char why[300];
    bool ok = egtb_table_parse(t, data, size, why, sizeof why);
    free(data);
    if (!ok) snprintf(err, errlen, "%s: %s", path, why);
    return ok;
}

void egtb_set_init(EgtbSet *set, const char *dir) {
    memset(set, 0, sizeof *set);
    snprintf(set->dir, sizeof set->dir, "%s", dir ? dir : "");
}

void egtb_set_free(EgtbSet *set) {
    for (int i = 0; i < set->count; i++) {
        egtb_table_free(set->table[i]);
        free(set->table[i]);
    }
    set->count = 0;
}

bool egtb_set_add(EgtbSet *set, EgtbTable *t) {
    if (set->count == EGTB_SET_MAX) return false;
    set->table[set->count++] = t;
    return true;
}

EgtbTable *egtb_set_get(EgtbSet *set, const EgtbMaterial *mat, char *err, size_t errlen) {
    char name[EGTB_NAME_MAX];
    egtb_sig_name(mat, name);
    for (int i = 0; i < set->count; i++)
        if (!strcmp(set->table[i]->name, name)) return set->table[i];
    if (!set->dir[0]) {
        snprintf(err, errlen, "no table for %s", name);
        return NULL;
    }
    /* xiangqitb's DTC file first (ours or xiangqitb's), else our .ttb. */
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s.lzdtc", set->dir, name);
    bool xq = stat(path, &st) == 0;
    if (!xq) snprintf(path, sizeof path, "%s/%s%s", set->dir, name, EGTB_FILE_EXT);
    EgtbTable *t = malloc(sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (xq ? !egtb_xq_read_table(t, path, mat, err, errlen) : !egtb_table_read(t, path, err, errlen)) {
        free(t);
        return NULL;
    }
    if (strcmp(t->name, name) != 0) {
        snprintf(err, errlen, "%s holds %s, not %s", path, t->name, name);
        egtb_table_free(t);
        free(t);
        return NULL;
    }
    if (!egtb_set_add(set, t)) {
        snprintf(err, errlen, "too many tables loaded");
        egtb_table_free(t);
        free(t);
        return NULL;
    }
    return t;
}

bool egtb_probe(EgtbSet *set, const Position *pos, uint16_t *value, char *err, size_t errlen) {
    EgtbMaterial mat;
    egtb_sig_of_position(pos, &mat);
    egtb_sig_normalise(&mat);
    if (!egtb_sig_has_attackers(&mat, RED) && !egtb_sig_has_attackers(&mat, BLACK)) {
        *value = 0;
        return true;
    }
    EgtbTable *t = egtb_set_get(set, &mat, err, errlen);
    if (!t) return false;
    Color side;
    uint64_t idx = egtb_index_of(&t->lay, pos, &side);
    *value = t->val[side][idx];
    return true;
}
