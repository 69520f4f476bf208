// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_synth.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "train_data.h"

/* Random games last at most this many plies; one position in RECORD_EVERY
 * is kept (consecutive ones are too alike). */
enum { SYNTH_MAX_PLIES = 160, SYNTH_RECORD_EVERY = 3 };
static const double SYNTH_K = 190.0, SYNTH_DRAW_SHARE = 0.1;

static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s) { return (double)(next(s) >> 11) / (double)(1ull << 53); }

bool train_synth_write(const char *path, size_t count, uint64_t seed, char *err, size_t errlen) {
    FILE *f = fopen(path, "wb");
    if (!f || !train_data_write_header(f)) {
        snprintf(err, errlen, "cannot write '%.200s': %s", path, strerror(errno));
        if (f) fclose(f);
        return false;
    }
    static Position pos;
    uint64_t rng = seed;
    size_t written = 0;
    bool ok = true;
    while (ok && written < count) {
        fen_parse(&pos, START_FEN, err, errlen);
        for (int ply = 0; ply < SYNTH_MAX_PLIES && written < count && ok; ply++) {
            MoveList list;
            gen_legal(&pos, &list);
            if (!list.count) break;
            if (!pos_in_check(&pos) && next(&rng) % SYNTH_RECORD_EVERY == 0) {
                int score = eval_classical(&pos);
                double win = 1.0 / (1.0 + exp(-score / SYNTH_K)), u = unit(&rng);
                int result = u < SYNTH_DRAW_SHARE ? 1 : unit(&rng) < win ? 2 : 0;
                TrainPosition p;
                unsigned char rec[TRAIN_RECORD_SIZE];
                train_position_from(&pos, score, result, ply, &p);
                train_record_encode(&p, rec);
                ok = fwrite(rec, 1, sizeof rec, f) == sizeof rec;
                written++;
            }
            pos_make_move(&pos, list.moves[next(&rng) % (uint64_t)list.count]);
        }
    }
    if (fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "cannot write '%.200s': %s", path, strerror(errno));
    return ok;
}
