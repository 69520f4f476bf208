// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egtb_xq.h"

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
    for (int c = 0; c < COLOR_NB; c++) {
        free(t->val[c]);
        free(t->dtm[c]);
        free(t->order[c]);
    }
    egtb_layout_free(&t->lay);
    memset(t, 0, sizeof *t);
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

void egtb_set_trim(EgtbSet *set, const EgtbMaterial *keep, int nkeep, uint64_t bytes_max) {
    uint64_t bytes = 0;
    for (int i = 0; i < set->count; i++)
        bytes += egtb_table_bytes(set->table[i]);
    int kept = 0;
    for (int i = 0; i < set->count; i++) {
        EgtbTable *t = set->table[i];
        bool wanted = false;
        for (int k = 0; k < nkeep; k++)
            wanted |= !memcmp(&keep[k], &t->lay.mat, sizeof keep[k]);
        if (wanted || bytes <= bytes_max) {
            set->table[kept++] = t;
            continue;
        }
        bytes -= egtb_table_bytes(t);
        egtb_table_free(t);
        free(t);
    }
    set->count = kept;
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
    char path[1200];
    snprintf(path, sizeof path, "%s/%s%s", set->dir, name, EGTB_DTC_EXT);
    EgtbTable *t = malloc(sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (!egtb_xq_read_table(t, path, mat, err, errlen)) {
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

EgtbTable *egtb_set_get_dtm(EgtbSet *set, const EgtbMaterial *mat, char *err, size_t errlen) {
    EgtbTable *t = egtb_set_get(set, mat, err, errlen);
    if (!t || t->dtm[RED]) return t;
    if (!set->dir[0]) {
        snprintf(err, errlen, "no DTM for %s", t->name);
        return NULL;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/%s%s", set->dir, t->name, EGTB_DTM_EXT);
    return egtb_xq_read_dtm(t, path, err, errlen) ? t : NULL;
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
    *value = egtb_table_value(t, pos);
    return true;
}

uint16_t egtb_table_value(const EgtbTable *t, const Position *pos) {
    Color side;
    uint64_t idx = egtb_index_of(&t->lay, pos, &side);
    return t->val[side][idx];
}

uint16_t egtb_table_dtm(const EgtbTable *t, const Position *pos) {
    Color side;
    uint64_t idx = egtb_index_of(&t->lay, pos, &side);
    return t->dtm[side][idx];
}
