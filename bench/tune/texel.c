// SPDX-License-Identifier: GPL-3.0-or-later
/* Texel tuning: fit the evaluation weights to game results by minimising
 * the mean squared error between the result and sigmoid(K * eval), where
 * eval is the engine's own tapered, draw-scaled evaluation of a quiet
 * position (each labelled position is first resolved by a quiescence
 * search). The evaluation is linear in its weights, so each position is
 * stored as its trace counts and the error and gradient are computed
 * without the board. Full-batch Adam: deterministic. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "eval_terms.h"
#include "fen.h"
#include "tune.h"

typedef struct {
    int16_t index, count; /* Red's count minus Black's for one weight */
} Coef;

typedef struct {
    float result;
    uint8_t phase, scale_red, scale_black;
    int ncoef;
    size_t first; /* into the shared Coef array */
} Sample;

typedef struct {
    Sample *samples;
    Coef *coefs;
    size_t count, cap, ncoefs, coef_cap;
} DataSet;

typedef struct {
    double mg, eg;
} Param;

bool tune_parse_line(const char *line, Position *pos, double *result) {
    char fen[256], err[200];
    const char *bar = strchr(line, '|'), *c9 = strstr(line, "c9 \"");
    const char *label;
    size_t n;
    if (bar) {
        n = (size_t)(bar - line);
        label = bar + 1;
    } else if (c9) {
        n = (size_t)(c9 - line);
        label = c9 + 4;
    } else {
        return false;
    }
    if (n >= sizeof fen) return false;
    memcpy(fen, line, n);
    fen[n] = 0;
    while (*label == ' ') label++;
    if (!strncmp(label, "1-0", 3)) *result = 1.0;
    else if (!strncmp(label, "0-1", 3)) *result = 0.0;
    else if (!strncmp(label, "1/2", 3)) *result = 0.5;
    else {
        char *end;
        *result = strtod(label, &end);
        if (end == label || *result < 0 || *result > 1) return false;
    }
    return fen_parse(pos, fen, err, sizeof err);
}

static void dataset_add(DataSet *d, const EvalTrace *tr, double result) {
    if (d->count == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 1 << 16;
        d->samples = realloc(d->samples, d->cap * sizeof *d->samples);
    }
    Sample *s = &d->samples[d->count++];
    s->result = (float)result;
    s->phase = (uint8_t)tr->phase;
    s->scale_red = (uint8_t)tr->scale[RED];
    s->scale_black = (uint8_t)tr->scale[BLACK];
    s->first = d->ncoefs;
    s->ncoef = 0;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
        int n = tr->coef[RED][i] - tr->coef[BLACK][i];
        if (!n) continue;
        if (d->ncoefs == d->coef_cap) {
            d->coef_cap = d->coef_cap ? d->coef_cap * 2 : 1 << 20;
            d->coefs = realloc(d->coefs, d->coef_cap * sizeof *d->coefs);
        }
        d->coefs[d->ncoefs++] = (Coef){(int16_t)i, (int16_t)n};
        s->ncoef++;
    }
}

static bool load(const char *path, DataSet *d, bool resolve, long limit) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    static Position pos;
    static EvalTrace tr;
    char line[512];
    long bad = 0;
    while (fgets(line, sizeof line, f) && (limit <= 0 || (long)d->count < limit)) {
        double result;
        if (!line[0] || line[0] == '#' || line[0] == '\n') continue;
        if (!tune_parse_line(line, &pos, &result)) {
            bad++;
            continue;
        }
        if (resolve) mini_quiet_leaf(&pos);
        eval_traced(&pos, &tr);
        dataset_add(d, &tr, result);
    }
    fclose(f);
    fprintf(stderr, "tune: %zu positions, %zu weight counts, %ld unreadable lines\n", d->count, d->ncoefs, bad);
    return true;
}

static double sample_eval(const DataSet *d, const Sample *s, const Param *p, double *scale_out) {
    double mg = 0, eg = 0;
    for (int j = 0; j < s->ncoef; j++) {
        const Coef *c = &d->coefs[s->first + (size_t)j];
        mg += c->count * p[c->index].mg;
        eg += c->count * p[c->index].eg;
    }
    double tapered = (mg * s->phase + eg * (PHASE_MAX - s->phase)) / PHASE_MAX;
    double scale = (tapered > 0 ? s->scale_red : tapered < 0 ? s->scale_black : SCALE_NORMAL) / (double)SCALE_NORMAL;
    *scale_out = scale;
    return tapered * scale;
}

static inline double sigmoid(double k, double e) { return 1.0 / (1.0 + pow(10.0, -k * e / 400.0)); }

static double total_error(const DataSet *d, const Param *p, double k) {
    double err = 0, scale;
    for (size_t i = 0; i < d->count; i++) {
        double diff = d->samples[i].result - sigmoid(k, sample_eval(d, &d->samples[i], p, &scale));
        err += diff * diff;
    }
    return err / (double)d->count;
}

/* The K that best fits the current weights (golden-section search). */
static double fit_k(const DataSet *d, const Param *p) {
    double lo = 0.05, hi = 20, g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo), fa = total_error(d, p, a), fb = total_error(d, p, b);
    for (int i = 0; i < 40; i++) {
        if (fa < fb) hi = b, b = a, fb = fa, a = hi - g * (hi - lo), fa = total_error(d, p, a);
        else lo = a, a = b, fa = fb, b = lo + g * (hi - lo), fb = total_error(d, p, b);
    }
    return (lo + hi) / 2;
}

static void gradient(const DataSet *d, const Param *p, double k, Param *grad) {
    memset(grad, 0, EVAL_WEIGHT_COUNT * sizeof *grad);
    double kk = k * log(10.0) / 400.0;
    for (size_t i = 0; i < d->count; i++) {
        const Sample *s = &d->samples[i];
        double scale, e = sample_eval(d, s, p, &scale), sg = sigmoid(k, e);
        double base = -2.0 * (s->result - sg) * sg * (1 - sg) * kk * scale;
        double wmg = base * s->phase / PHASE_MAX, weg = base * (PHASE_MAX - s->phase) / PHASE_MAX;
        for (int j = 0; j < s->ncoef; j++) {
            const Coef *c = &d->coefs[s->first + (size_t)j];
            grad[c->index].mg += wmg * c->count;
            grad[c->index].eg += weg * c->count;
        }
    }
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) grad[i].mg /= (double)d->count, grad[i].eg /= (double)d->count;
}

/* Weights the tuner leaves alone: the king has no material value, and the
 * terms named with --freeze (comma-separated names, `Psqt*` style prefixes). */
static bool FrozenByName[EVAL_WEIGHT_COUNT];

static void freeze_terms(const char *list) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *name = strtok(buf, ","); name; name = strtok(NULL, ",")) {
        size_t n = strlen(name);
        bool prefix = n && name[n - 1] == '*', found = false;
        for (int t = 0; t < EvalTermCount; t++) {
            const EvalTermInfo *ti = &EvalTerms[t];
            if (prefix ? strncmp(ti->name, name, n - 1) : strcmp(ti->name, name)) continue;
            for (int i = ti->offset; i < ti->offset + ti->length; i++) FrozenByName[i] = true;
            found = true;
        }
        if (!found) fprintf(stderr, "tune: --freeze: no term %s\n", name);
    }
}

static bool frozen(int index) {
    return FrozenByName[index] || index == eval_weight_index(&EvalW.Material[KING]) ||
           index == eval_weight_index(&EvalW.Material[NO_TYPE]);
}

static void write_file(const char *path, const Param *p, const char *comment) {
    static Weight w[EVAL_WEIGHT_COUNT];
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) w[i] = (Weight){(int)lround(p[i].mg), (int)lround(p[i].eg)};
    FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!out) {
        fprintf(stderr, "tune: cannot write %s\n", path);
        return;
    }
    tune_write_weights(out, w, comment);
    if (out != stdout) fclose(out);
}

/* Read a weights file in the writer's layout (every `{mg, eg}` pair after
 * `EvalW = {`, in order) into p; false unless it holds exactly the right
 * number of pairs. Lets a fit start from any earlier weights. */
static bool read_weights(const char *path, Param *p) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    const char *at = strstr(text, "EvalW = {");
    if (!at) return false;
    int n = 0;
    for (at += 9; (at = strchr(at, '{')); at++) {
        int mg, eg;
        if (sscanf(at, "{%d , %d}", &mg, &eg) != 2) continue;
        if (n == EVAL_WEIGHT_COUNT) return false;
        p[n++] = (Param){mg, eg};
    }
    return n == EVAL_WEIGHT_COUNT;
}

/* Append text to buf (size bytes, NUL-terminated); false if it does not fit. */
static bool append(char *buf, size_t size, const char *text) {
    size_t n = strlen(buf), len = strlen(text);
    if (n + len + 1 > size) return false;
    memcpy(buf + n, text, len + 1);
    return true;
}

/* Append one argument as a shell reads it: single-quoted unless it is made
 * of plain path characters, and never with a `*` then `/` that would close
 * the header comment ('a*''/b' is the same word to a shell). */
static bool append_word(char *buf, size_t size, const char *arg) {
    static const char Plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+.,/=:@%";
    if (*arg && strspn(arg, Plain) == strlen(arg)) return append(buf, size, arg);
    if (!append(buf, size, "'")) return false;
    for (const char *c = arg; *c; c++) {
        char one[2] = {*c, 0};
        const char *piece = one;
        if (*c == '\'') piece = "'\\''"; /* end the quote, a quoted quote, quote again */
        else if (*c == '/' && c > arg && c[-1] == '*') piece = "''/";
        if (!append(buf, size, piece)) return false;
    }
    return append(buf, size, "'");
}

/* Append the tune command line (argv as cmd_tune got it); one that does
 * not fit is cut after its last whole word and ends in " ...". */
static void append_command(char *buf, size_t size, int argc, char **argv) {
    if (!append(buf, size, "tuong-tune tune")) return;
    for (int i = 0; i < argc; i++) {
        size_t before = strlen(buf);
        if (!append(buf, size, " ") || !append_word(buf, size, argv[i])) {
            buf[before] = 0;
            append(buf, size, " ...");
            return;
        }
    }
}

int cmd_tune(int argc, char **argv) {
    const char *data = NULL, *validate = NULL, *out = "eval_weights.c", *freeze = NULL, *start_file = NULL;
    int iterations = 1000, report = 50, min_count = 200;
    double lr = 0.1, l2 = 0, k = 0;
    long limit = 0;
    bool resolve = true;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--no-qsearch")) {
            resolve = false;
            continue;
        }
        if (a[0] != '-') {
            data = a;
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v) return fprintf(stderr, "tune: %s needs a value\n", a), 2;
        if (!strcmp(a, "--iterations")) iterations = atoi(v);
        else if (!strcmp(a, "--lr")) lr = atof(v);
        else if (!strcmp(a, "--l2")) l2 = atof(v);
        else if (!strcmp(a, "--k")) k = atof(v);
        else if (!strcmp(a, "--limit")) limit = atol(v);
        else if (!strcmp(a, "--report")) report = atoi(v) > 0 ? atoi(v) : 1;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--validate")) validate = v;
        else if (!strcmp(a, "--min-count")) min_count = atoi(v);
        else if (!strcmp(a, "--freeze")) freeze_terms(freeze = v);
        else if (!strcmp(a, "--start")) start_file = v;
        else return fprintf(stderr, "tune: unknown option %s\n", a), 2;
    }
    if (!data) return fprintf(stderr, "tune: no data file\n"), 2;
    DataSet d = {0};
    if (!load(data, &d, resolve, limit) || d.count == 0) return fprintf(stderr, "tune: no positions in %s\n", data), 1;
    /* Positions from other games, never fitted: shows overfitting. */
    DataSet v = {0};
    if (validate && (!load(validate, &v, resolve, limit) || v.count == 0))
        return fprintf(stderr, "tune: no positions in %s\n", validate), 1;

    static Param p[EVAL_WEIGHT_COUNT], start[EVAL_WEIGHT_COUNT], grad[EVAL_WEIGHT_COUNT], m1[EVAL_WEIGHT_COUNT],
        m2[EVAL_WEIGHT_COUNT];
    const Weight *w0 = (const Weight *)&EvalW;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) p[i] = start[i] = (Param){w0[i].mg, w0[i].eg};
    if (start_file) {
        if (!read_weights(start_file, p)) return fprintf(stderr, "tune: %s is not a complete weights file\n", start_file), 1;
        memcpy(start, p, sizeof start);
    }
    if (k <= 0) k = fit_k(&d, p);
    fprintf(stderr, "tune: K = %.4f, start error %.6f", k, total_error(&d, p, k));
    if (v.count) fprintf(stderr, ", validation %.6f", total_error(&v, p, k));
    fputc('\n', stderr);

    /* Weights seen in too few positions keep their values: the data says
     * nothing reliable about them. */
    static int seen[EVAL_WEIGHT_COUNT];
    for (size_t i = 0; i < d.ncoefs; i++) seen[d.coefs[i].index]++;
    int tuned = 0;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) tuned += !frozen(i) && seen[i] >= min_count;
    fprintf(stderr, "tune: %d of %d weights seen in at least %d positions\n", tuned, EVAL_WEIGHT_COUNT, min_count);

    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (int it = 1; it <= iterations; it++) {
        gradient(&d, p, k, grad);
        double c1 = 1 - pow(b1, it), c2 = 1 - pow(b2, it);
        for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
            if (frozen(i) || seen[i] < min_count) continue;
            double g[2] = {grad[i].mg + 2 * l2 * (p[i].mg - start[i].mg), grad[i].eg + 2 * l2 * (p[i].eg - start[i].eg)};
            double *pv[2] = {&p[i].mg, &p[i].eg}, *a[2] = {&m1[i].mg, &m1[i].eg}, *b[2] = {&m2[i].mg, &m2[i].eg};
            for (int j = 0; j < 2; j++) {
                if (g[j] == 0) continue;
                *a[j] = b1 * *a[j] + (1 - b1) * g[j];
                *b[j] = b2 * *b[j] + (1 - b2) * g[j] * g[j];
                *pv[j] -= lr * (*a[j] / c1) / (sqrt(*b[j] / c2) + eps);
            }
        }
        if (it % report == 0 || it == iterations) {
            fprintf(stderr, "tune: iteration %d error %.6f", it, total_error(&d, p, k));
            if (v.count) fprintf(stderr, " validation %.6f", total_error(&v, p, k));
            fputc('\n', stderr);
        }
    }
    static char comment[8192];
    snprintf(comment, sizeof comment,
             "Texel-tuned on %s from %s: %zu positions, %d iterations, lr %g, l2 %g, min-count %d, K %.4f%s%s\n"
             "command: ",
             data, start_file ? start_file : "the compiled-in weights", d.count, iterations, lr, l2, min_count, k,
             freeze ? ", frozen " : "", freeze ? freeze : "");
    append_command(comment, sizeof comment, argc, argv);
    write_file(out, p, comment);
    free(d.samples);
    free(d.coefs);
    free(v.samples);
    free(v.coefs);
    return 0;
}

int cmd_write(int argc, char **argv) {
    const char *out = argc > 0 ? argv[0] : "-";
    static Param p[EVAL_WEIGHT_COUNT];
    const Weight *w0 = (const Weight *)&EvalW;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) p[i] = (Param){w0[i].mg, w0[i].eg};
    write_file(out, p, NULL);
    return 0;
}

void tune_write_weights(FILE *out, const void *weights, const char *comment) {
    const Weight *w = weights;
    fprintf(out, "// SPDX-License-Identifier: GPL-3.0-or-later\n");
    fprintf(out, "/* Evaluation weights {midgame, endgame}, one line per term of eval_terms.h.\n");
    fprintf(out, " * Written by tuong-tune (bench/tune, docs/eval.md); edit by hand only to seed a new term.\n");
    /* One " * " line per line of the comment; a file name or --freeze
     * list holding a star then a slash must not end the comment early. */
    for (const char *c = comment; c && *c; c++) {
        if (c == comment || c[-1] == '\n') fputs(" * ", out);
        if (*c == '/' && c > comment && c[-1] == '*') fputc(' ', out);
        fputc(*c, out);
    }
    if (comment && *comment) fputc('\n', out);
    fprintf(out, " */\n#include \"eval_terms.h\"\n\nconst EvalWeights EvalW = {\n");
    for (int t = 0; t < EvalTermCount; t++) {
        const EvalTermInfo *ti = &EvalTerms[t];
        const Weight *v = w + ti->offset;
        if (!ti->is_array) {
            fprintf(out, "    .%s = {%d, %d}, /* %s */\n", ti->name, v->mg, v->eg, ti->what);
            continue;
        }
        bool psqt = ti->length == PSQT_NB && !strncmp(ti->name, "Psqt", 4);
        int per = psqt ? 5 : 6;
        fprintf(out, "    /* %s */\n    .%s = {\n", ti->what, ti->name);
        for (int i = 0; i < ti->length; i += per) {
            fprintf(out, "       ");
            for (int j = i; j < i + per && j < ti->length; j++) fprintf(out, " {%d, %d},", v[j].mg, v[j].eg);
            if (psqt) fprintf(out, " /* rank %d */", i / per);
            fputc('\n', out);
        }
        fprintf(out, "    },\n");
    }
    fprintf(out, "};\n");
}
