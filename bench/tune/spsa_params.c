// SPDX-License-Identifier: GPL-3.0-or-later
/* Choosing the tuned parameters from a `tuong params` listing. */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "spsa.h"

/* One "name,value,min,max,step" line; false if it is not one. */
static bool parse_listing_line(const char *line, SpsaParam *p) {
    char name[SPSA_NAME_MAX];
    int value, n = 0;
    if (sscanf(line, "%63[A-Za-z0-9_],%d,%d,%d,%d%n", name, &value, &p->min, &p->max, &p->step, &n) != 5) return false;
    if (line[n] != '\0' || p->min >= p->max || p->step < 1 || value < p->min || value > p->max) return false;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->theta = p->start = value;
    return true;
}

/* Is name chosen by the comma-separated globs? A glob with a leading '-'
 * excludes; with no including glob every name starts chosen. Marks which
 * globs matched. */
static bool chosen(const char *globs, const char *name, bool *used) {
    char copy[1024], *save = NULL;
    snprintf(copy, sizeof copy, "%s", globs);
    bool includes = false, included = false, excluded = false;
    int i = 0;
    for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save), i++) {
        while (*g == ' ')
            g++;
        bool minus = *g == '-';
        bool hit = fnmatch(g + minus, name, FNM_CASEFOLD) == 0;
        used[i] |= hit;
        includes |= !minus;
        if (minus)
            excluded |= hit;
        else
            included |= hit;
    }
    return (included || !includes) && !excluded;
}

/* The globs that matched nothing are an error: most likely a typo. */
static bool check_globs_used(const char *globs, const bool *used, char *err, size_t errlen) {
    char copy[1024], *save = NULL;
    snprintf(copy, sizeof copy, "%s", globs);
    int i = 0;
    for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save), i++) {
        while (*g == ' ')
            g++;
        if (!used[i]) return snprintf(err, errlen, "--params: '%s' matches no parameter of the engine", g), false;
    }
    return true;
}

bool spsa_params_select(SpsaState *s, const char *listing, const char *globs, char *err, size_t errlen) {
    bool all = !globs || !*globs, used[512] = {false};
    if (!all && strlen(globs) >= 1024) return snprintf(err, errlen, "--params list too long"), false;
    s->count = 0;
    int lines = 0;
    for (const char *at = listing; *at;) {
        size_t len = strcspn(at, "\n");
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), at);
        line[strcspn(line, "\r")] = '\0';
        at += len + (at[len] == '\n');
        if (!line[0]) continue;
        SpsaParam p;
        if (!parse_listing_line(line, &p))
            return snprintf(err, errlen, "unexpected line in the parameter listing: '%.60s'", line), false;
        lines++;
        if (!all && !chosen(globs, p.name, used)) continue;
        if (s->count == SPSA_MAX_PARAMS)
            return snprintf(err, errlen, "more than %d parameters", SPSA_MAX_PARAMS), false;
        s->params[s->count++] = p;
    }
    if (!lines) return snprintf(err, errlen, "the engine listed no parameters"), false;
    if (!all && !check_globs_used(globs, used, err, errlen)) return false;
    return s->count ? true : (snprintf(err, errlen, "--params '%s' leaves no parameter to tune", globs), false);
}
