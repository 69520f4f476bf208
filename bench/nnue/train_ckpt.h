// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Checkpoints: the whole float state of a run (configuration, weights,
 * Adam moments, step and epoch counters), so that `tuong-train resume`
 * continues exactly where an epoch ended. Little-endian:
 *
 *   "TNGCKPT1", uint32 version, the TrainConfig fields (int32 / float64 /
 *   uint64 in declaration order), uint64 Adam step, uint32 epochs done,
 *   uint64 parameter count, float32 params[count], m[count], v[count],
 *   uint32 FNV-1a hash of every byte before it.
 */
#include <stdbool.h>
#include <stddef.h>

#include "train_loop.h"

/* Write t to path (through a temporary file and a rename). */
bool train_ckpt_save(const Trainer *t, const char *path, char *err, size_t errlen);
/* Read a checkpoint into a fresh trainer. */
bool train_ckpt_load(Trainer *t, const char *path, char *err, size_t errlen);
