// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Warm start: a trainer's float net set from an engine net file, so a new
 * generation starts from what the last one learned instead of from noise.
 * On two cores the data is what is scarce; a net that begins where the
 * embedded one stands keeps the knowledge of the millions of positions it
 * saw, and the new (deeper-labelled) data only has to correct it.
 *
 * What carries over, from a source net of the same accumulator width (or
 * a narrower one: the widening below):
 *   - the feature transformer, dequantised (int / QA):
 *       same feature set   row for row (a factorised target: into the bucket
 *                          rows, factor block zero);
 *       plain -> kings     the piece x point rows go to the factor block of a
 *                          factorised target (bucket rows zero), or to every
 *                          bucket of a plain king-bucket target;
 *   - the head (output layer, or the dense stack, or both: the skip) when
 *     the source has the same head, output buckets and scale; otherwise the
 *     target keeps its seeded random head and learns it from the data;
 *   - but a skip target (stack + output layer) from a source with only one
 *     of the two (same output buckets and scale) takes that one exactly and
 *     zeroes the other's last layer: from a version-1 source the stack
 *     keeps its random l1 and l2 with l3 weights and bias 0, from a
 *     version-2 source the output layer is all 0. Either way the new part
 *     adds exactly 0 to every eval: the quantised start evaluates every
 *     position bit for bit as the source does, and training adds to it.
 *
 * Widening (Net2Net-style): a source with fewer accumulator units than the
 * run (256 into 512, say) fills the first src->hidden units of the target:
 * its ft rows and biases as above, and every head weight that reads one of
 * its units at that unit's place in the target's 2H inputs (the side to
 * move's half at 0.., the other half at H.., not at src->hidden..). The
 * new units keep the trainer's seeded init (small random ft weights, bias
 * 0: alive, so they get gradients) and every weight of a copied head that
 * reads them (output layer, the stack's first layer; both halves) is
 * exactly 0. The new units thus add exactly 0 and the quantised start
 * evaluates every position bit for bit as the source, the same guarantee
 * as above (a head that is not copied stays random, as at the same
 * width); training then puts the new units to use. The point: a wider net
 * that starts where the embedded one stands, instead of relearning from
 * noise what the few million positions there are can teach it. A source
 * wider than the run is refused.
 */
#include <stdbool.h>
#include <stddef.h>

#include "nnue/nnue_net.h"
#include "train_net.h"

typedef struct {
    bool head;         /* the whole head was copied too */
    bool output_layer; /* a skip target: only the source's output layer (the stack starts silent) */
    bool stack;        /* a skip target: only the source's stack (the output layer starts at 0) */
    int widened_from;  /* the source's units when fewer than the run's (the widening), else 0 */
} TrainInitReport;

/* Set net's parameters from src as above (net holds the seeded init, which
 * a widening's new units keep); false with a message when the shapes cannot
 * meet (a wider source, king buckets into plain). */
bool train_net_init_from(TrainNet *net, const NnueNet *src, TrainInitReport *report, char *err, size_t errlen);
