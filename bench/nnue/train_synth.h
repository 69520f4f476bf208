// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Synthetic training data for smoke tests and timings: positions from
 * random play, scored by the hand-crafted evaluation (a net trained on them
 * learns to imitate it). Not for real nets: tuong-datagen makes those. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Write `count` records to path. */
bool train_synth_write(const char *path, size_t count, uint64_t seed, char *err, size_t errlen);
