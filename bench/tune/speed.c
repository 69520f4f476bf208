// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-tune speed`: nanoseconds per eval_classical() call over positions from
 * the opening book pushed on by random legal moves (seeded), a few dozen at
 * a time so they stay in cache as a search's positions would. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "tune.h"

#ifndef TUONG_DEFAULT_OPENINGS
#define TUONG_DEFAULT_OPENINGS "openings/xiangqi.epd"
#endif

enum { SPEED_POSITIONS = 48 };

int cmd_speed(int argc, char **argv) {
    long reps = 20000;
    uint64_t seed = 1;
    const char *openings = TUONG_DEFAULT_OPENINGS;
    for (int i = 0; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps")) reps = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--openings")) openings = argv[i + 1];
        else return fprintf(stderr, "speed: unknown option %s\n", argv[i]), 2;
    }
    FILE *f = fopen(openings, "r");
    if (!f) return fprintf(stderr, "speed: cannot read %s\n", openings), 1;
    static Position pos[SPEED_POSITIONS];
    Rng rng;
    rng_seed(&rng, seed);
    char line[256], err[200];
    int n = 0;
    while (n < SPEED_POSITIONS && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!fen_parse(&pos[n], line, err, sizeof err)) continue;
        MoveList list;
        for (int ply = 0; ply < n * 2; ply++) { /* 0 to 94 plies on */
            gen_legal(&pos[n], &list);
            if (!list.count) break;
            pos_make_move(&pos[n], list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
        n++;
    }
    fclose(f);
    if (!n) return fprintf(stderr, "speed: no positions\n"), 1;
    struct timespec t0, t1;
    long long sum = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long r = 0; r < reps; r++)
        for (int i = 0; i < n; i++) sum += eval_classical(&pos[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%ld evaluations, %.1f ns each (checksum %lld)\n", reps * n, ns / ((double)reps * n), sum);
    return 0;
}
