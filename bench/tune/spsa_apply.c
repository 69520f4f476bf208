// SPDX-License-Identifier: GPL-3.0-or-later
/* Writing tuned values back into engine/search_params.h: only the digits of
 * the default column change; the column keeps its width when the new
 * number fits, so the file stays aligned and a second run with the same
 * values gives the same bytes. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spsa.h"

/* Where the fields of one "X(NAME, def, min, max, step)" line are. */
typedef struct {
    char name[SPSA_NAME_MAX];
    size_t field_at, field_len; /* the blanks before the default and its digits */
    long fields[4];             /* default, min, max, step */
} XLine;

/* Read blanks then a signed whole number followed by `end`; advances *i. */
static bool scan_number(const char *s, size_t *i, char end, long *out) {
    while (s[*i] == ' ' || s[*i] == '\t')
        (*i)++;
    char *stop;
    long v = strtol(s + *i, &stop, 10);
    if (stop == s + *i) return false;
    *i = (size_t)(stop - s);
    while (s[*i] == ' ' || s[*i] == '\t')
        (*i)++;
    if (s[*i] != end) return false;
    (*i)++;
    *out = v;
    return true;
}

static bool scan_xline(const char *line, XLine *x) {
    size_t i = 0, n = 0;
    while (line[i] == ' ' || line[i] == '\t')
        i++;
    if (line[i] != 'X' || line[i + 1] != '(') return false;
    for (i += 2; isalnum((unsigned char)line[i]) || line[i] == '_'; i++)
        if (n + 1 < sizeof x->name) x->name[n++] = line[i];
    x->name[n] = '\0';
    if (!n || line[i] != ',') return false;
    x->field_at = ++i;
    if (!scan_number(line, &i, ',', &x->fields[0])) return false;
    x->field_len = i - 1 - x->field_at; /* up to the comma */
    return scan_number(line, &i, ',', &x->fields[1]) && scan_number(line, &i, ',', &x->fields[2]) &&
           scan_number(line, &i, ')', &x->fields[3]);
}

/* The default field rewritten: right-aligned in the old width if it fits
 * with a blank in front, else one blank and the number. */
static void format_field(char *out, size_t size, size_t width, long value) {
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%ld", value);
    size_t pad = (size_t)n < width ? width - (size_t)n : 1;
    snprintf(out, size, "%*s%s", (int)pad, "", digits);
}

typedef struct {
    char *buf;
    size_t len, cap;
} Text;

static bool text_add(Text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *b = realloc(t->buf, cap);
        if (!b) return false;
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
    return true;
}

static int find_param(const SpsaState *s, const char *name) {
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->params[i].name, name)) return i;
    return -1;
}

/* The new default of p, inside the file's own range. */
static long new_default(const SpsaParam *p, const XLine *x, FILE *notes) {
    long v = lround(p->theta);
    if (notes && (x->fields[1] != p->min || x->fields[2] != p->max || x->fields[3] != p->step))
        fprintf(notes, "note: %s: the file has range %ld..%ld step %ld, the state %d..%d step %d\n", p->name,
                x->fields[1], x->fields[2], x->fields[3], p->min, p->max, p->step);
    if (v < x->fields[1] || v > x->fields[2]) {
        long c = v < x->fields[1] ? x->fields[1] : x->fields[2];
        if (notes) fprintf(notes, "note: %s: tuned %ld is outside the file's range, written as %ld\n", p->name, v, c);
        v = c;
    }
    return v;
}

/* Copy one line, with its default rewritten if it is a tuned X line. */
static bool apply_line(const SpsaState *s, const char *line, size_t len, Text *out, bool *found, int *changed,
                       FILE *notes) {
    char copy[512];
    XLine x;
    int i = -1;
    if (len < sizeof copy) {
        memcpy(copy, line, len);
        copy[len] = '\0';
        if (scan_xline(copy, &x)) i = find_param(s, x.name);
    }
    if (i < 0) return text_add(out, line, len);
    found[i] = true;
    long v = new_default(&s->params[i], &x, notes);
    char field[48];
    format_field(field, sizeof field, x.field_len, v);
    *changed += v != x.fields[0];
    return text_add(out, line, x.field_at) && text_add(out, field, strlen(field)) &&
           text_add(out, line + x.field_at + x.field_len, len - x.field_at - x.field_len);
}

char *spsa_apply_text(const SpsaState *s, const char *text, int *changed, FILE *notes, char *err, size_t errlen) {
    Text out = {NULL, 0, 0};
    bool found[SPSA_MAX_PARAMS] = {false}, ok = text_add(&out, "", 0);
    *changed = 0;
    for (const char *at = text; ok && *at;) {
        size_t len = strcspn(at, "\n");
        size_t eol = at[len] == '\n';
        ok = apply_line(s, at, len, &out, found, changed, notes) && text_add(&out, "\n", eol);
        at += len + eol;
    }
    if (!ok) {
        free(out.buf);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    for (int i = 0; i < s->count; i++) {
        if (found[i]) continue;
        free(out.buf);
        return snprintf(err, errlen, "parameter %s of the state has no X(%s, ...) line in the file", s->params[i].name,
                        s->params[i].name),
               NULL;
    }
    return out.buf;
}

bool spsa_apply_file(const SpsaState *s, const char *in, const char *out, int *changed, FILE *notes, char *err,
                     size_t errlen) {
    char *text = spsa_read_file(in, err, errlen);
    if (!text) return false;
    char msg[400];
    char *result = spsa_apply_text(s, text, changed, notes, msg, sizeof msg);
    free(text);
    if (!result) return snprintf(err, errlen, "%s: %s", in, msg), false;
    bool ok = spsa_write_atomic(out, result, strlen(result), err, errlen);
    free(result);
    return ok;
}
