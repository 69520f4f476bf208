// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <stdbool.h>
#include <stdint.h>
/*
 * tuong-datagen: training data for the network from the engine's own
 * games (docs/nnue.md). Each subcommand returns the process exit code and
 * prints any error as one line on stderr.
 */

/* Self-play into a data file: `tuong-datagen [generate] --out FILE ...`. */
int datagen_generate(int argc, char **argv);
/* `tuong-datagen pool run [--pool DIR] ...`: generate into the data pool. */
int datagen_pool_run(int argc, char **argv);
/* `tuong-datagen pool adopt FILE --commit C --net H ...`: register a file
 * an older tuong-datagen wrote in the pool's manifest. */
int datagen_adopt(int argc, char **argv);
/* `tuong-datagen pool list|verify|run|adopt ...` */
int datagen_pool(int argc, char **argv);
/* `tuong-datagen rescore IN OUT ...`: label positions again, deeper. */
int datagen_rescore(int argc, char **argv);
/* `tuong-datagen from-pgn --out FILE GAMES.pgn...`: the positions of
 * played games, unlabelled, for `rescore` to label. */
int datagen_from_pgn(int argc, char **argv);
/* `tuong-datagen stats FILE`: counts and distributions of a data file. */
int datagen_stats(int argc, char **argv);
/* `tuong-datagen verify FILE`: is every record well-formed and quiet? */
int datagen_verify(int argc, char **argv);

/* Print `tuong-datagen: error: <message>` on stderr; returns false, so
 * `return datagen_error(...)` fits a bool function and `!datagen_error(...)`
 * an exit code of 1. */
bool datagen_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* When arg is --help or -h: print usage on stdout and exit 0. */
void datagen_help_if_asked(const char *arg, const char *usage);
/* Parse the value of flag name as an integer in min..max into *out; false
 * after the error line `NAME VALUE: expected a number in MIN..MAX`. */
bool datagen_int_flag(const char *name, const char *value, int64_t min, int64_t max, int64_t *out);
/* Seconds on a monotonic clock, for rates and progress lines. */
double datagen_now_s(void);
