// SPDX-License-Identifier: GPL-3.0-or-later
/* The table of tunable search parameters (search_params.h). */
#include "search_params.h"

#include <stddef.h>
#include <strings.h>

#ifdef TUONG_TUNING
#define TUONG_DEFINE_PARAM(name, def, lo, hi, step) int name = def;
TUONG_SEARCH_PARAMS(TUONG_DEFINE_PARAM)
#undef TUONG_DEFINE_PARAM
#define TUONG_PARAM_ROW(name, def, lo, hi, step) {#name, def, lo, hi, step, &name},
#else
#define TUONG_PARAM_ROW(name, def, lo, hi, step) {#name, def, lo, hi, step, NULL},
#endif

const SearchParam SearchParams[] = {TUONG_SEARCH_PARAMS(TUONG_PARAM_ROW)};
#undef TUONG_PARAM_ROW
const int SearchParamCount = (int)(sizeof SearchParams / sizeof SearchParams[0]);

const SearchParam *params_find(const char *name) {
    for (int i = 0; i < SearchParamCount; i++)
        if (!strcasecmp(SearchParams[i].name, name)) return &SearchParams[i];
    return NULL;
}

bool params_set(const char *name, int value) {
    const SearchParam *p = params_find(name);
    if (!p || !p->value || value < p->min || value > p->max) return false;
    *p->value = value;
    return true;
}

void params_print(FILE *out) {
    for (int i = 0; i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        fprintf(out, "%s,%d,%d,%d,%d\n", p->name, p->value ? *p->value : p->def, p->min, p->max, p->step);
    }
}

bool params_tunable(void) {
#ifdef TUONG_TUNING
    return true;
#else
    return false;
#endif
}
