// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * SPSA tuning of the search parameters (engine/search_params.h) by games
 * between two copies of a tuning build, fishtest style (docs/tuning.md).
 *
 * Iteration k (0-based) flips a fair coin per tuned parameter i (flip_i =
 * +1 or -1), plays game pairs (same opening, colours swapped) between
 *     theta+ = theta + c_k * step_i * flip_i  and  theta- = theta - ...,
 * and with r = wins - losses of theta+ in those games moves
 *     theta_i += a_k * step_i^2 * r / (c_k * step_i * flip_i)
 *              = step_i * (a_k / c_k) * r * flip_i,
 *     a_k = a / (A + k + 1)^alpha,   c_k = c / (k + 1)^gamma.
 * a and c are dimensionless because each parameter is measured in its own
 * step. By default c makes c_k = c_end at the last planned iteration and a
 * makes a_k / c_k^2 = r_end there (fishtest's c_end and r_end). theta
 * stays a double, clamped to [min, max]; values are rounded only when they
 * are sent to an engine.
 *
 * Everything random (the flips, the openings, a synthetic match's noise)
 * derives from (seed, k), so a resumed run draws what the uninterrupted
 * one would have drawn.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

enum { SPSA_MAX_PARAMS = 128, SPSA_NAME_MAX = 64, SPSA_MAX_WORKERS = 64 };

typedef struct {
    char name[SPSA_NAME_MAX];
    double theta; /* the current estimate */
    double start; /* theta at iteration 0 */
    int min, max, step;
} SpsaParam;

typedef struct {
    double a, c, A, alpha, gamma; /* the gain schedule (above) */
    int pairs;                    /* game pairs per iteration */
    uint64_t seed;
    int iterations; /* planned in all */
    int done;       /* iterations whose result has been applied */
    Score3 score;   /* theta+ over every game played */
    int count;
    SpsaParam params[SPSA_MAX_PARAMS];
} SpsaState;

/* Schedule defaults (fishtest's). */
#define SPSA_ALPHA 0.602
#define SPSA_GAMMA 0.101
#define SPSA_R_END 0.002
#define SPSA_C_END 1.0
#define SPSA_A_FRACTION 0.1 /* A as a fraction of the planned iterations */

/* Set a and c so that c_k = c_end and a_k / c_k^2 = r_end at the last of
 * s->iterations (alpha, gamma and A must be set). */
void spsa_schedule(SpsaState *s, double r_end, double c_end);
double spsa_gain_a(const SpsaState *s, int k);
double spsa_gain_c(const SpsaState *s, int k);

/* Iteration k's coin per parameter (+1/-1) and its seed for the openings
 * or a synthetic match. */
void spsa_flips(const SpsaState *s, int k, signed char *flip);
uint64_t spsa_iteration_seed(const SpsaState *s, int k);
/* The values sent for theta+ (sign +1) or theta- (sign -1): perturbed,
 * clamped to [min, max], rounded. */
void spsa_point(const SpsaState *s, int k, const signed char *flip, int sign, int *values);
/* Apply iteration k's result (theta+'s games) and count it. */
void spsa_update(SpsaState *s, int k, const signed char *flip, Score3 result);

/* One iteration's games, as the runner hands them to a player. */
typedef struct {
    int worker;    /* 0 .. concurrency-1: the calling thread's slot */
    int iteration; /* k */
    int pairs;     /* game pairs to play */
    uint64_t seed; /* spsa_iteration_seed(k) */
    int count;     /* tuned parameters, in the state's order */
    const int *plus, *minus;
} SpsaMatch;

/* Play m and return theta+'s score; false (with a message) stops the run. */
typedef bool (*SpsaPlayFn)(void *ctx, const SpsaMatch *m, Score3 *result, char *err, size_t errlen);
/* Called after iteration k is applied (under the runner's lock). */
typedef void (*SpsaReportFn)(void *ctx, const SpsaState *s, int k, Score3 result);

typedef struct {
    SpsaPlayFn play;
    void *play_ctx;
    SpsaReportFn report; /* may be NULL */
    void *report_ctx;
    int concurrency;        /* iterations in flight at once */
    const char *state_path; /* rewritten after every iteration; NULL = none */
} SpsaRunner;

/* Run iterations s->done .. s->iterations-1. With concurrency > 1 each
 * worker perturbs the theta current when it starts an iteration and
 * applies its result when its games end (as fishtest's workers do). */
bool spsa_run(SpsaState *s, const SpsaRunner *r, char *err, size_t errlen);

/* State file (spsa_state.c; the format is in docs/tuning.md). Saving
 * writes FILE.tmp and renames it over FILE. Loading refuses, with one
 * message, a file that is not a complete, consistent state. */
bool spsa_state_save(const SpsaState *s, const char *path, char *err, size_t errlen);
bool spsa_state_load(SpsaState *s, const char *path, char *err, size_t errlen);
/* The same on text in memory (text must end with '\0'). */
bool spsa_state_parse(SpsaState *s, const char *text, const char *where, char *err, size_t errlen);

/* Parameters of a `tuong params` listing (name,value,min,max,step lines)
 * chosen by a comma-separated list of globs (NULL or "" = all; "-GLOB"
 * excludes, e.g. "LMR_*,RFP_*" or "-TM_*"), in the listing's order, with
 * theta = start = the listed value (spsa_params.c). */
bool spsa_params_select(SpsaState *s, const char *listing, const char *globs, char *err, size_t errlen);

/* Rewrite the default column of the X(NAME, default, min, max, step) lines
 * of search_params.h text for the parameters of s (rounded theta), keeping
 * everything else byte for byte (spsa_apply.c). Returns a malloc'd text, or
 * NULL with a message; *changed counts the defaults that moved. Notes on a
 * range that differs from the state's go to `notes` (may be NULL). */
char *spsa_apply_text(const SpsaState *s, const char *text, int *changed, FILE *notes, char *err, size_t errlen);
/* The same from file to file (out may equal in; written via a temporary). */
bool spsa_apply_file(const SpsaState *s, const char *in, const char *out, int *changed, FILE *notes, char *err,
                     size_t errlen);

/* Write a whole file atomically: path.tmp, then rename. */
bool spsa_write_atomic(const char *path, const char *text, size_t len, char *err, size_t errlen);
/* Read a whole file into a malloc'd, '\0'-terminated buffer. */
char *spsa_read_file(const char *path, char *err, size_t errlen);
