// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * tuong-tune: data generation and Texel tuning of the evaluation weights;
 * `tuong-tune spsa` tunes the search parameters (spsa.h, docs/tuning.md).
 *
 * Labelled position format (one per line, docs/eval.md):
 *   <FEN> | <result>
 * where <result> is Red's score: `1-0`, `0-1`, `1/2-1/2`, or a number in
 * [0, 1]. EPD lines with a `c9 "1-0";` opcode are accepted too. Lines that
 * are empty or start with '#' are skipped.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "move.h"
#include "position.h"
#include "score.h"

/* Deterministic xorshift64* generator: every tool takes a --seed. */
typedef struct {
    uint64_t s;
} Rng;
void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);

/* Small alpha-beta with quiescence on evaluate(), for self-play data and
 * for resolving positions to quiet ones. Depth 0 is the quiescence only. */
typedef struct {
    uint64_t nodes;
    Move pv[MAX_PLY];
    int pv_length;
} MiniSearch;
Score mini_search(Position *pos, MiniSearch *ms, int depth);
/* Follow the quiescence principal variation from pos; pos ends on its leaf. */
void mini_quiet_leaf(Position *pos);

/* Parse one labelled line into pos and Red's score (0, 0.5, 1). */
bool tune_parse_line(const char *line, Position *pos, double *result);

/* Subcommands; each returns the process exit code. */
int cmd_selfplay(int argc, char **argv);
int cmd_pgn2fen(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_write(int argc, char **argv);
int cmd_speed(int argc, char **argv);
int cmd_spsa(int argc, char **argv);          /* spsa_main.c */
int cmd_spsa_simulate(int argc, char **argv); /* spsa_sim.c */

/* Write the weights w as the C source of engine/eval_weights.c; `comment`
 * (may be NULL) is added to the header. */
void tune_write_weights(FILE *out, const void *w, const char *comment);
