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
 *   - the head (output layer, or the dense stack) when the source has the
 *     same head, output buckets and scale; otherwise the target keeps its seeded
 *     random head and learns it from the data.
 */
#include <stdbool.h>
#include <stddef.h>

#include "nnue/nnue_net.h"
#include "train_net.h"

typedef struct {
    bool head; /* the head was copied too */
} TrainInitReport;

/* Set net's parameters from src as above; false with a message when the
 * shapes cannot meet (another width, king buckets into plain). */
bool train_net_init_from(TrainNet *net, const NnueNet *src, TrainInitReport *report, char *err, size_t errlen);
