// SPDX-License-Identifier: GPL-3.0-or-later
#include "perft_epd.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* An unsigned decimal number at s (digits only: no sign, no overflow);
 * *end is set past it. */
static bool parse_number(const char *s, uint64_t *out, char **end) {
    if (!isdigit((unsigned char)*s)) return false;
    errno = 0;
    unsigned long long v = strtoull(s, end, 10);
    if (errno == ERANGE) return false;
    *out = v;
    return true;
}

/* "D<depth> <count>", trimmed. */
static bool parse_field(const char *f, int *depth, uint64_t *nodes) {
    uint64_t d;
    char *end;
    if (f[0] != 'D' || !parse_number(f + 1, &d, &end) || d < 1 || d > PERFT_EPD_DEPTH_MAX) return false;
    if (!isspace((unsigned char)*end)) return false;
    while (isspace((unsigned char)*end)) end++;
    *depth = (int)d;
    return parse_number(end, nodes, &end) && !*end;
}

EpdLineKind perft_epd_parse_line(const char *line, PerftEpdRecord *rec, char *err, size_t errlen) {
    char buf[PERFT_EPD_LINE_MAX + 2];
    if (strlen(line) > PERFT_EPD_LINE_MAX) {
        snprintf(err, errlen, "line longer than %d characters", PERFT_EPD_LINE_MAX);
        return EPD_LINE_ERROR;
    }
    strcpy(buf, line);
    char *s = trim(buf);
    if (!*s || *s == '#') return EPD_LINE_EMPTY;
    memset(rec->has, 0, sizeof rec->has);
    char *semi = strchr(s, ';');
    if (!semi) {
        snprintf(err, errlen, "no ';D<depth> <count>' field after the FEN");
        return EPD_LINE_ERROR;
    }
    *semi = '\0';
    char *fen = trim(s);
    if (strlen(fen) >= sizeof rec->fen) {
        snprintf(err, errlen, "FEN longer than %d characters", PERFT_EPD_FEN_MAX - 1);
        return EPD_LINE_ERROR;
    }
    strcpy(rec->fen, fen);
    int fields = 0;
    for (char *f = semi + 1; f; f = semi ? semi + 1 : NULL) {
        semi = strchr(f, ';');
        if (semi) *semi = '\0';
        f = trim(f);
        if (!*f) continue; /* a trailing ';' */
        int depth;
        uint64_t nodes;
        if (!parse_field(f, &depth, &nodes)) {
            snprintf(err, errlen, "field '%.40s' is not 'D<depth> <count>' with a depth from 1 to %d", f,
                     PERFT_EPD_DEPTH_MAX);
            return EPD_LINE_ERROR;
        }
        if (rec->has[depth]) {
            snprintf(err, errlen, "depth %d is given twice", depth);
            return EPD_LINE_ERROR;
        }
        rec->has[depth] = true;
        rec->nodes[depth] = nodes;
        fields++;
    }
    if (!fields) {
        snprintf(err, errlen, "no ';D<depth> <count>' field after the FEN");
        return EPD_LINE_ERROR;
    }
    return EPD_LINE_RECORD;
}

/* ---- the whole file ------------------------------------------------------ */

typedef struct {
    PerftEpdRecord *items;
    int count, capacity;
} RecordList;

typedef struct {
    int ok, failed, skipped, counts;
    uint64_t nodes;
} Tally;

static bool list_push(RecordList *l, const PerftEpdRecord *r) {
    if (l->count == l->capacity) {
        int capacity = l->capacity ? l->capacity * 2 : 64;
        PerftEpdRecord *items = realloc(l->items, sizeof *items * (size_t)capacity);
        if (!items) return false;
        l->items = items;
        l->capacity = capacity;
    }
    l->items[l->count++] = *r;
    return true;
}

/* Parse and validate one line read from the file; false after an error line. */
static bool take_line(const char *path, int number, const char *text, RecordList *list, FILE *err) {
    PerftEpdRecord rec;
    Position pos;
    char why[300], fen_why[200];
    EpdLineKind kind = perft_epd_parse_line(text, &rec, why, sizeof why);
    if (kind == EPD_LINE_RECORD && !fen_parse(&pos, rec.fen, fen_why, sizeof fen_why)) {
        snprintf(why, sizeof why, "bad FEN: %s", fen_why);
        kind = EPD_LINE_ERROR;
    }
    rec.line = number;
    if (kind == EPD_LINE_RECORD && !list_push(list, &rec)) {
        snprintf(why, sizeof why, "out of memory");
        kind = EPD_LINE_ERROR;
    }
    if (kind == EPD_LINE_ERROR) fprintf(err, "tuong: error: %s:%d: %s\n", path, number, why);
    return kind != EPD_LINE_ERROR;
}

/* Read every record; 0, or 2 after one error line. */
static int read_records(const char *path, RecordList *list, FILE *err) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(err, "tuong: error: cannot open %s: %s\n", path, strerror(errno));
        return 2;
    }
    char line[PERFT_EPD_LINE_MAX + 2];
    int number = 0, status = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        number++;
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            fprintf(err, "tuong: error: %s:%d: line longer than %d characters\n", path, number, PERFT_EPD_LINE_MAX);
            status = 2;
        } else if (!take_line(path, number, line, list, err)) {
            status = 2;
        }
    }
    if (status == 0 && ferror(f)) {
        fprintf(err, "tuong: error: cannot read %s\n", path);
        status = 2;
    }
    fclose(f);
    if (status == 0 && list->count == 0) {
        fprintf(err, "tuong: error: %s holds no position\n", path);
        status = 2;
    }
    return status;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Count one position at each given depth up to max_depth; print its verdict. */
static void check_record(const PerftEpdRecord *r, int max_depth, const PerftOptions *opt, FILE *out, Tally *t) {
    Position pos;
    char err[200], diff[1024] = "";
    size_t used = 0;
    int checked = 0, last = 0;
    fen_parse(&pos, r->fen, err, sizeof err); /* validated when read */
    double start = now_seconds();
    for (int d = 1; d <= max_depth && d <= PERFT_EPD_DEPTH_MAX; d++) {
        if (!r->has[d]) continue;
        uint64_t got = perft_count(&pos, d, opt);
        checked++;
        last = d;
        t->nodes += got;
        if (got != r->nodes[d] && used < sizeof diff)
            used += (size_t)snprintf(diff + used, sizeof diff - used, "%sD%d %" PRIu64 ", expected %" PRIu64,
                                     used ? "; " : "", d, got, r->nodes[d]);
    }
    double secs = now_seconds() - start;
    t->counts += checked;
    if (!checked) {
        t->skipped++;
        fprintf(out, "skip  line %d: no count at depth %d or less: %s\n", r->line, max_depth, r->fen);
    } else if (used) {
        t->failed++;
        fprintf(out, "FAIL  line %d: %s (%.2f s): %s\n", r->line, diff, secs, r->fen);
    } else {
        t->ok++;
        fprintf(out, "ok    line %d: %d count%s to D%d match (%.2f s): %s\n", r->line, checked, checked > 1 ? "s" : "",
                last, secs, r->fen);
    }
    fflush(out);
}

int perft_epd_check(const char *path, int max_depth, const PerftOptions *opt, FILE *out, FILE *err) {
    RecordList list = {0};
    int status = read_records(path, &list, err);
    if (status == 0) {
        Tally t = {0};
        double start = now_seconds();
        for (int i = 0; i < list.count; i++) check_record(&list.items[i], max_depth, opt, out, &t);
        fprintf(out, "%d position%s: %d ok, %d failed, %d skipped; %d counts checked, %" PRIu64 " nodes in %.2f s\n",
                list.count, list.count > 1 ? "s" : "", t.ok, t.failed, t.skipped, t.counts, t.nodes,
                now_seconds() - start);
        fflush(out);
        status = t.failed ? 1 : 0;
    }
    free(list.items);
    return status;
}
