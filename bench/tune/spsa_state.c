// SPDX-License-Identifier: GPL-3.0-or-later
/* The SPSA state file: a few `key value` lines, one `param` line per tuned
 * parameter and `end` (docs/tuning.md). Doubles are written with 17
 * significant digits so that a load gives back the very same bits, and a
 * resumed run continues exactly where the saved one stopped. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "spsa.h"

static const char Magic[] = "tuong-spsa-state 1";

static int state_format(const SpsaState *s, char *buf, size_t size) {
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, __VA_ARGS__)
    PUT("%s\n# tuong-tune spsa state (docs/tuning.md); param: name theta start min max step\n", Magic);
    PUT("iterations %d\ndone %d\npairs %d\nseed %" PRIu64 "\n", s->iterations, s->done, s->pairs, s->seed);
    PUT("alpha %.17g\ngamma %.17g\nA %.17g\na %.17g\nc %.17g\n", s->alpha, s->gamma, s->A, s->a, s->c);
    PUT("score %d %d %d\n", s->score.wins, s->score.draws, s->score.losses);
    for (int i = 0; i < s->count; i++) {
        const SpsaParam *p = &s->params[i];
        PUT("param %s %.17g %.17g %d %d %d\n", p->name, p->theta, p->start, p->min, p->max, p->step);
    }
    PUT("end\n");
#undef PUT
    return (int)n;
}

bool spsa_state_save(const SpsaState *s, const char *path, char *err, size_t errlen) {
    size_t size = 1024 + (size_t)s->count * (SPSA_NAME_MAX + 128);
    char *buf = malloc(size);
    if (!buf) return snprintf(err, errlen, "out of memory"), false;
    int n = state_format(s, buf, size);
    bool ok = (size_t)n < size && spsa_write_atomic(path, buf, (size_t)n, err, errlen);
    if ((size_t)n >= size) snprintf(err, errlen, "state too large to write");
    free(buf);
    return ok;
}

/* --- parsing --- */

typedef struct {
    const char *where;
    int line;
    char *err;
    size_t errlen;
} Parser;

static bool fail(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Parser *p, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->line)
        snprintf(p->err, p->errlen, "%s:%d: %s", p->where, p->line, msg);
    else
        snprintf(p->err, p->errlen, "%s: %s", p->where, msg);
    return false;
}

static bool word_int(const char *w, long lo, long hi, int *out) {
    char *end;
    errno = 0;
    long v = strtol(w, &end, 10);
    if (end == w || *end || errno || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static bool word_double(const char *w, double *out) {
    char *end;
    errno = 0;
    double v = strtod(w, &end);
    if (end == w || *end || errno || !isfinite(v)) return false;
    *out = v;
    return true;
}

/* Split line into at most max blank-separated words (in place). */
static int split(char *line, char **words, int max) {
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return max + 1;
        words[n++] = t;
    }
    return n;
}

static bool parse_param(Parser *p, SpsaState *s, char **w, int n) {
    if (n != 7) return fail(p, "a param line is: param NAME THETA START MIN MAX STEP");
    if (s->count == SPSA_MAX_PARAMS) return fail(p, "more than %d parameters", SPSA_MAX_PARAMS);
    SpsaParam *q = &s->params[s->count];
    if (strlen(w[1]) >= SPSA_NAME_MAX) return fail(p, "parameter name too long");
    for (int i = 0; i < s->count; i++)
        if (!strcmp(s->params[i].name, w[1])) return fail(p, "parameter %s appears twice", w[1]);
    snprintf(q->name, sizeof q->name, "%s", w[1]);
    if (!word_double(w[2], &q->theta) || !word_double(w[3], &q->start) ||
        !word_int(w[4], -1000000000, 1000000000, &q->min) || !word_int(w[5], -1000000000, 1000000000, &q->max) ||
        !word_int(w[6], 1, 1000000000, &q->step))
        return fail(p, "bad number in the line of %s", q->name);
    if (q->min >= q->max || q->theta < q->min || q->theta > q->max || q->start < q->min || q->start > q->max)
        return fail(p, "%s: value outside its range [%d, %d]", q->name, q->min, q->max);
    s->count++;
    return true;
}

enum { K_ITERATIONS, K_DONE, K_PAIRS, K_SEED, K_ALPHA, K_GAMMA, K_A_OFFSET, K_A, K_C, K_SCORE, K_COUNT };
static const char *const Keys[K_COUNT] = {"iterations", "done", "pairs", "seed", "alpha",
                                          "gamma",      "A",    "a",     "c",    "score"};

static bool parse_scalar(Parser *p, SpsaState *s, int key, char **w, int n) {
    if (key == K_SCORE) {
        if (n != 4 || !word_int(w[1], 0, 1000000000, &s->score.wins) ||
            !word_int(w[2], 0, 1000000000, &s->score.draws) || !word_int(w[3], 0, 1000000000, &s->score.losses))
            return fail(p, "score needs three counts: wins draws losses");
        return true;
    }
    if (n != 2) return fail(p, "%s needs one value", Keys[key]);
    if (key == K_SEED) {
        char *end;
        errno = 0;
        s->seed = strtoull(w[1], &end, 10);
        return (*end || end == w[1] || errno || w[1][0] == '-') ? fail(p, "bad seed") : true;
    }
    int *ints[] = {[K_ITERATIONS] = &s->iterations, [K_DONE] = &s->done, [K_PAIRS] = &s->pairs};
    double *dbls[] = {[K_ALPHA] = &s->alpha, [K_GAMMA] = &s->gamma, [K_A_OFFSET] = &s->A, [K_A] = &s->a, [K_C] = &s->c};
    bool ok = key <= K_PAIRS ? word_int(w[1], 0, 1000000000, ints[key]) : word_double(w[1], dbls[key]);
    return ok ? true : fail(p, "bad value for %s", Keys[key]);
}

/* The whole state must hang together, as the runner leaves it. */
static bool check_state(Parser *p, const SpsaState *s, const bool *seen) {
    for (int k = 0; k < K_COUNT; k++)
        if (!seen[k]) return fail(p, "no '%s' line", Keys[k]);
    if (!s->count) return fail(p, "no param line");
    if (s->iterations < 1 || s->pairs < 1 || s->done > s->iterations)
        return fail(p, "iterations, done and pairs do not fit together");
    if (!(s->alpha > 0 && s->gamma > 0 && s->A >= 0 && s->a > 0 && s->c > 0))
        return fail(p, "alpha, gamma, a and c must be positive and A not negative");
    if ((long)stats_games(s->score) != 2L * s->pairs * s->done)
        return fail(p, "score counts %d games, but %d iterations of %d pairs make %ld", stats_games(s->score), s->done,
                    s->pairs, 2L * s->pairs * s->done);
    return true;
}

/* One line: a key, a param, or the end. */
static bool parse_line(Parser *p, SpsaState *s, char *line, bool *seen, bool *ended) {
    char *w[8];
    int n = split(line, w, 7);
    if (n == 0 || w[0][0] == '#') return true;
    if (*ended) return fail(p, "text after 'end'");
    if (n > 7) return fail(p, "too many words");
    if (!strcmp(w[0], "end") && n == 1) return *ended = true;
    if (!strcmp(w[0], "param")) return parse_param(p, s, w, n);
    for (int k = 0; k < K_COUNT; k++) {
        if (strcmp(w[0], Keys[k])) continue;
        if (seen[k]) return fail(p, "'%s' appears twice", Keys[k]);
        seen[k] = true;
        return parse_scalar(p, s, k, w, n);
    }
    return fail(p, "unknown line '%.40s'", w[0]);
}

bool spsa_state_parse(SpsaState *s, const char *text, const char *where, char *err, size_t errlen) {
    Parser p = {where, 0, err, errlen};
    memset(s, 0, sizeof *s);
    size_t mlen = strlen(Magic);
    if (strncmp(text, Magic, mlen) || (text[mlen] != '\n' && text[mlen] != '\r'))
        return fail(&p, "not a tuong-tune spsa state file (the first line should be '%s')", Magic);
    bool seen[K_COUNT] = {false}, ended = false;
    const char *at = text + mlen + 1;
    for (p.line = 2; *at; p.line++) {
        const char *nl = strchr(at, '\n');
        size_t len = nl ? (size_t)(nl - at) : strlen(at);
        char line[512];
        if (len >= sizeof line) return fail(&p, "line too long");
        memcpy(line, at, len);
        line[len] = '\0';
        line[strcspn(line, "\r")] = '\0';
        if (!parse_line(&p, s, line, seen, &ended)) return false;
        at += len + (nl ? 1 : 0);
    }
    p.line = 0;
    if (!ended) return fail(&p, "truncated (no 'end' line)");
    return check_state(&p, s, seen);
}

bool spsa_state_load(SpsaState *s, const char *path, char *err, size_t errlen) {
    char *text = spsa_read_file(path, err, errlen);
    if (!text) return false;
    bool ok = spsa_state_parse(s, text, path, err, errlen);
    free(text);
    return ok;
}

/* --- files --- */

char *spsa_read_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno)), NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = cap < (64u << 20) ? realloc(buf, cap *= 2) : NULL;
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    bool bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return snprintf(err, errlen, "cannot read %s (too large or unreadable)", path), NULL;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return snprintf(err, errlen, "%s: not a text file (it holds a NUL byte)", path), NULL;
    }
    return buf;
}

bool spsa_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen) {
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return snprintf(err, errlen, "path too long: %s", path), false;
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno)), false;
    bool ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0) return true;
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    remove(tmp);
    return false;
}
