// SPDX-License-Identifier: GPL-3.0-or-later
/* The `eval` command's network lines. */
#include <stdio.h>

#include "nnue.h"

void nnue_print(const Position *pos, const char *prefix, FILE *out) {
    const NnueNet *net = nnue_loaded();
    if (!net) {
        fprintf(out, "%sNNUE: no network loaded, the hand-crafted evaluation is used\n", prefix);
        return;
    }
    char desc[160];
    nnue_net_describe(net, desc, sizeof desc);
    fprintf(out, "%sNNUE network %s from %s, %s kernels%s\n", prefix, desc, nnue_source(), nnue_isa(),
            nnue_enabled() ? "" : "; switched off (UseNNUE false)");
    int bucket;
    Score stm = nnue_evaluate_full(net, pos, &bucket);
    fprintf(out, "%sNNUE output bucket %d of %d (%d pieces): %d (side to move, %s), %d (red view)\n", prefix, bucket,
            net->out_buckets, bb_popcount(pos->occ), stm, pos->side == RED ? "red" : "black",
            pos->side == RED ? stm : -stm);
}
