// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Warm start: a trainer's float net set from an engine net file, so a new
 * generation starts from what the last one learned instead of from noise.
 * On two cores the data is what is scarce; a net that begins where the
 * embedded one stands keeps the knowledge of the millions of positions it
 * saw, and the new (deeper-labelled) data only has to correct it.
 *
 * What carries over, from a source net of the same accumulator width:
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
 */
#include <stdbool.h>
#include <stddef.h>

#include "nnue/nnue_net.h"
#include "train_net.h"

typedef struct {
    bool head;         /* the whole head was copied too */
    bool output_layer; /* a skip target: only the source's output layer (the stack starts silent) */
    bool stack;        /* a skip target: only the source's stack (the output layer starts at 0) */
} TrainInitReport;

/* Set net's parameters from src as above; false with a message when the
 * shapes cannot meet (another width, king buckets into plain). */
bool train_net_init_from(TrainNet *net, const NnueNet *src, TrainInitReport *report, char *err, size_t errlen);
