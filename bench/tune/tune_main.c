// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-tune: see tune.h and docs/eval.md. */
#include <string.h>

#include "tune.h"

static int usage(void) {
    fputs("usage: tuong-tune selfplay [--games N] [--seed S] [--depth D] [--noise X] [--random-plies R]\n"
          "                           [--max-plies P] [--adjudicate CP] [--openings EPD] [--out PGN]\n"
          "       tuong-tune pgn2fen [--skip PLIES] [--every K] [--rank-base 0|1] [--keep-checks] [--out FILE] PGN...\n"
          "       tuong-tune tune DATA [--iterations N] [--lr X] [--l2 X] [--k K] [--limit N] [--no-qsearch]\n"
          "                            [--validate DATA2] [--min-count N]\n"
          "                            [--freeze Term1,Psqt*,...] [--start WEIGHTS.c]\n"
          "                            [--report N] [--out eval_weights.c]\n"
          "       tuong-tune write [FILE]   (the compiled-in weights, in the tuner's layout)\n"
          "       tuong-tune speed [--reps N] [--seed S]   (ns per eval_classical() call)\n"

          "       tuong-tune spsa [options] | spsa apply STATE | spsa show STATE | spsa simulate\n"
          "                                 (search parameters: tuong-tune spsa --help, docs/tuning.md)\n",
          stderr);
    return 2;
}

int main(int argc, char **argv) {
    engine_init();
    if (argc < 2) return usage();
    const char *cmd = argv[1];
    if (!strcmp(cmd, "selfplay")) return cmd_selfplay(argc - 2, argv + 2);
    if (!strcmp(cmd, "pgn2fen")) return cmd_pgn2fen(argc - 2, argv + 2);
    if (!strcmp(cmd, "tune")) return cmd_tune(argc - 2, argv + 2);
    if (!strcmp(cmd, "write")) return cmd_write(argc - 2, argv + 2);
    if (!strcmp(cmd, "speed")) return cmd_speed(argc - 2, argv + 2);
    if (!strcmp(cmd, "spsa")) return cmd_spsa(argc - 2, argv + 2);
    return usage();
}
