// SPDX-License-Identifier: GPL-3.0-or-later
#include "perft.h"

#include <inttypes.h>
#include <time.h>

#include "movegen.h"
#include "notation.h"

uint64_t perft(Position *pos, int depth) {
    MoveList list;
    gen_legal(pos, &list);
    if (depth <= 1) return depth == 1 ? (uint64_t)list.count : 1;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        nodes += perft(pos, depth - 1);
        pos_unmake_move(pos);
    }
    return nodes;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

uint64_t perft_divide(Position *pos, int depth, int rank_base, FILE *out) {
    double start = now_seconds();
    uint64_t total = 0;
    if (depth < 1) {
        total = 1;
    } else {
        MoveList list;
        gen_legal(pos, &list);
        for (int i = 0; i < list.count; i++) {
            char text[MOVE_TEXT_MAX];
            pos_make_move(pos, list.moves[i]);
            uint64_t n = perft(pos, depth - 1);
            pos_unmake_move(pos);
            total += n;
            fprintf(out, "%s: %" PRIu64 "\n", move_to_text(list.moves[i], rank_base, text), n);
        }
    }
    double secs = now_seconds() - start;
    long ms = (long)(secs * 1000);
    fprintf(out, "\nNodes searched: %" PRIu64 "\nTime (ms): %ld\nNodes/second: %" PRIu64 "\n", total, ms,
            (uint64_t)(total / (secs > 1e-9 ? secs : 1e-9)));
    fflush(out);
    return total;
}
