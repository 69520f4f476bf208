// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-datagen stats` and `tuong-datagen verify`: look inside a data
 * file, so a generated set can be checked before training on it. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "datagen.h"
#include "score.h"

enum {
    CHUNK = 4096,                                       /* records per read */
    SCORE_BUCKET = 100,                                 /* histogram bucket width, engine units */
    SCORE_RANGE = 2000,                                 /* buckets cover -SCORE_RANGE..SCORE_RANGE */
    SCORE_BUCKETS = 2 * SCORE_RANGE / SCORE_BUCKET + 2, /* plus one below and one above */
    PLY_BUCKET = 20,
    PLY_BUCKETS = 21, /* the last one: PLY_BUCKET * 20 plies and more */
    SCORE_VALUES = 65536,
};

/* The sigmoid scale is searched in this range (engine units). */
static const double SCALE_MIN = 10, SCALE_MAX = 5000;
static const int SCALE_STEPS = 100;

typedef struct {
    uint64_t count, sides[COLOR_NB], results[DATA_RESULT_NB], red_results[DATA_RESULT_NB];
    uint64_t score_n[SCORE_BUCKETS], score_results[SCORE_BUCKETS][DATA_RESULT_NB];
    uint64_t ply_n[PLY_BUCKETS];
    double abs_score_sum, pieces_sum;
    uint64_t *value_n; /* per score value: count and sum of results (0, 1, 2) */
    uint64_t *value_sum;
    int min_score, max_score, max_ply;
} Stats;

static int score_bucket(int s) {
    if (s < -SCORE_RANGE) return 0;
    if (s >= SCORE_RANGE) return SCORE_BUCKETS - 1;
    return 1 + (s + SCORE_RANGE) / SCORE_BUCKET;
}

static void stats_add(Stats *st, const DataEntry *e) {
    int b = score_bucket(e->score);
    st->count++;
    st->sides[e->side]++;
    st->results[e->result]++;
    st->red_results[e->side == RED ? e->result : DATA_WIN - e->result]++;
    st->score_n[b]++;
    st->score_results[b][e->result]++;
    st->ply_n[e->ply / PLY_BUCKET < PLY_BUCKETS ? e->ply / PLY_BUCKET : PLY_BUCKETS - 1]++;
    st->abs_score_sum += abs(e->score);
    st->pieces_sum += e->piece_count;
    st->value_n[e->score + SCORE_VALUES / 2]++;
    st->value_sum[e->score + SCORE_VALUES / 2] += e->result;
    if (st->count == 1 || e->score < st->min_score) st->min_score = e->score;
    if (st->count == 1 || e->score > st->max_score) st->max_score = e->score;
    if (e->ply > st->max_ply) st->max_ply = e->ply;
}

/* Mean squared error of sigmoid(score / scale) against the results (0, 0.5, 1). */
static double sigmoid_error(const Stats *st, double scale) {
    double err = 0;
    for (int v = 0; v < SCORE_VALUES; v++) {
        if (!st->value_n[v]) continue;
        double p = 1 / (1 + exp(-(v - SCORE_VALUES / 2) / scale)), n = (double)st->value_n[v];
        double mean = (double)st->value_sum[v] / (2 * n);
        err += n * (p - mean) * (p - mean);
    }
    return err / (double)st->count;
}

/* The scale that best maps scores to results, on a log grid. */
static double fit_scale(const Stats *st, double *best_err) {
    double best = SCALE_MIN;
    *best_err = INFINITY;
    for (int i = 0; i <= SCALE_STEPS; i++) {
        double k = SCALE_MIN * pow(SCALE_MAX / SCALE_MIN, (double)i / SCALE_STEPS);
        double e = sigmoid_error(st, k);
        if (e < *best_err) {
            *best_err = e;
            best = k;
        }
    }
    return best;
}

static double pct(uint64_t n, uint64_t of) { return of ? 100.0 * (double)n / (double)of : 0; }

static void print_stats(const char *path, const Stats *st) {
    uint64_t n = st->count;
    printf("%s: %" PRIu64 " positions\n", path, n);
    if (!n) return;
    printf("side to move: Red %.1f%%, Black %.1f%%; mean pieces %.1f; mean |score| %.1f, range %d..%d\n",
           pct(st->sides[RED], n), pct(st->sides[BLACK], n), st->pieces_sum / (double)n, st->abs_score_sum / (double)n,
           st->min_score, st->max_score);
    printf("result for the side to move: win %.1f%%, draw %.1f%%, loss %.1f%%\n", pct(st->results[DATA_WIN], n),
           pct(st->results[DATA_DRAW], n), pct(st->results[DATA_LOSS], n));
    printf("result for Red:              win %.1f%%, draw %.1f%%, loss %.1f%%\n", pct(st->red_results[DATA_WIN], n),
           pct(st->red_results[DATA_DRAW], n), pct(st->red_results[DATA_LOSS], n));
    double err, k = fit_scale(st, &err);
    printf("score to result: result ~ 1 / (1 + exp(-score / %.0f)) fits best (mean squared error %.4f)\n", k, err);
    printf("\nscore (side to move)   positions      %%    win   draw   loss\n");
    for (int b = 0; b < SCORE_BUCKETS; b++) {
        if (!st->score_n[b]) continue;
        char label[32];
        if (b == 0)
            snprintf(label, sizeof label, "< %d", -SCORE_RANGE);
        else if (b == SCORE_BUCKETS - 1)
            snprintf(label, sizeof label, ">= %d", SCORE_RANGE);
        else
            snprintf(label, sizeof label, "%d..%d", -SCORE_RANGE + (b - 1) * SCORE_BUCKET,
                     -SCORE_RANGE + b * SCORE_BUCKET - 1);
        const uint64_t *r = st->score_results[b];
        printf("%-20s %11" PRIu64 " %6.2f %6.1f %6.1f %6.1f\n", label, st->score_n[b], pct(st->score_n[b], n),
               pct(r[DATA_WIN], st->score_n[b]), pct(r[DATA_DRAW], st->score_n[b]), pct(r[DATA_LOSS], st->score_n[b]));
    }
    printf("\nply                  positions      %%\n");
    for (int b = 0; b < PLY_BUCKETS; b++) {
        if (!st->ply_n[b]) continue;
        char label[32];
        if (b == PLY_BUCKETS - 1)
            snprintf(label, sizeof label, ">= %d", b * PLY_BUCKET);
        else
            snprintf(label, sizeof label, "%d..%d", b * PLY_BUCKET, (b + 1) * PLY_BUCKET - 1);
        printf("%-20s %11" PRIu64 " %6.2f\n", label, st->ply_n[b], pct(st->ply_n[b], n));
    }
    printf("(largest ply %d)\n", st->max_ply);
}

/* Is the record what datagen writes: a legal position, the side to move
 * not in check, no mate score? If not, false with the reason in why. */
static bool check_record(const DataRecord *rec, DataEntry *e, char *why, size_t len) {
    static Position pos;
    if (!datafile_unpack(rec, e, why, len) || !datafile_to_position(e, &pos, why, len)) return false;
    if (pos_in_check(&pos)) {
        snprintf(why, len, "the side to move is in check (only quiet positions are recorded)");
        return false;
    }
    if (score_is_mate(e->score)) {
        snprintf(why, len, "score %d is a mate score", e->score);
        return false;
    }
    return true;
}

/* Read and check every record of path (verify: as a legal quiet position
 * too), adding each to st when given; 0, or 1 after one error line. */
static int scan(const char *path, bool verify, Stats *st) {
    char err[600], why[200];
    uint64_t count;
    FILE *f = datafile_open_read(path, &count, err, sizeof err);
    if (!f) return !datagen_error("%s", err);
    DataRecord *buf = malloc(sizeof *buf * CHUNK);
    if (!buf) {
        fclose(f);
        return !datagen_error("out of memory");
    }
    uint64_t at = 0;
    int rc = 0;
    while (rc == 0 && at < count) {
        size_t n = datafile_read(f, buf, CHUNK);
        if (n == 0) rc = !datagen_error("%s: read failed at record %" PRIu64, path, at);
        for (size_t i = 0; i < n && rc == 0; i++, at++) {
            DataEntry e;
            bool ok =
                verify ? check_record(&buf[i], &e, why, sizeof why) : datafile_unpack(&buf[i], &e, why, sizeof why);
            if (!ok)
                rc = !datagen_error("%s: record %" PRIu64 " (byte %" PRIu64 "): %s", path, at,
                                    (uint64_t)DATAFILE_HEADER_SIZE + at * DATAFILE_RECORD_SIZE, why);
            else if (st) {
                stats_add(st, &e);
            }
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

int datagen_stats(int argc, char **argv) {
    if (argc != 1) return datagen_error("usage: tuong-datagen stats FILE") ? 0 : 2;
    Stats *st = calloc(1, sizeof *st);
    uint64_t *values = calloc(2 * SCORE_VALUES, sizeof *values);
    if (!st || !values) return !datagen_error("out of memory");
    st->value_n = values;
    st->value_sum = values + SCORE_VALUES;
    int rc = scan(argv[0], false, st);
    if (rc == 0) print_stats(argv[0], st);
    free(values);
    free(st);
    return rc;
}

int datagen_verify(int argc, char **argv) {
    if (argc != 1) return datagen_error("usage: tuong-datagen verify FILE") ? 0 : 2;
    uint64_t count;
    char err[600];
    FILE *f = datafile_open_read(argv[0], &count, err, sizeof err);
    if (!f) return !datagen_error("%s", err);
    fclose(f);
    int rc = scan(argv[0], true, NULL);
    if (rc == 0) printf("%s: %" PRIu64 " records, all well-formed\n", argv[0], count);
    return rc;
}
