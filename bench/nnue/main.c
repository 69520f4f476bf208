// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-datagen: training data for the network (docs/nnue.md). The first
 * word picks the subcommand; without one, the flags are for `generate`. */
#include <stdio.h>
#include <string.h>

#include "datagen.h"
#include "datashard.h"
#include "position.h"

int main(int argc, char **argv) {
    engine_init(); /* tables for the FEN checks of verify, and for the games */
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "stats")) return datagen_stats(argc - 2, argv + 2);
    if (!strcmp(cmd, "verify")) return datagen_verify(argc - 2, argv + 2);
    if (!strcmp(cmd, "merge")) return datagen_merge(argc - 2, argv + 2);
    if (!strcmp(cmd, "generate")) return datagen_generate(argc - 2, argv + 2);
    if (!strcmp(cmd, "pool")) return datagen_pool(argc - 2, argv + 2);
    if (!strcmp(cmd, "rescore")) return datagen_rescore(argc - 2, argv + 2);
    if (!strcmp(cmd, "from-pgn")) return datagen_from_pgn(argc - 2, argv + 2);
    return datagen_generate(argc - 1, argv + 1);
}
