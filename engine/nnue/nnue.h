// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * NNUE evaluation (docs/nnue.md): the network in use, switching nets, and
 * the evaluation itself. The net linked into the binary (if the build
 * found one) is loaded by engine_init(); `EvalFile` loads another, and
 * `UseNNUE false` goes back to the hand-crafted evaluation. Nets change only
 * while no search runs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_net.h"
#include "position.h"

/* The net evaluate() uses: NULL when none is loaded or NNUE is switched off. */
extern const NnueNet *NnueInUse;

static inline bool nnue_active(void) { return NnueInUse != NULL; }

/* Load the embedded net if there is one (once; engine_init calls it). */
void nnue_init(void);
/* Replace the loaded net by a file / by the embedded one; on failure the
 * current net stays and err says why. */
bool nnue_load_file(const char *path, char *err, size_t errlen);
bool nnue_load_embedded(char *err, size_t errlen);
/* Switch NNUE on or off (on without a net still evaluates by hand). */
void nnue_set_enabled(bool on);
bool nnue_enabled(void);
/* The loaded net (even when switched off), or NULL; where it came from. */
const NnueNet *nnue_loaded(void);
const char *nnue_source(void);
/* Is a net linked into the binary, and its hash. */
bool nnue_embedded_hash(uint32_t *hash);
/* The kernel instruction set this build uses ("avx2", "ssse3", "sse2", "scalar"). */
const char *nnue_isa(void);

/* Score of pos for the side to move by the net in use (NnueInUse must be
 * set): incremental through pos->nnue when the position has a stack. */
Score nnue_evaluate(const Position *pos);
/* The same with any net, from scratch (no stack); *bucket gets the output
 * bucket used if bucket is not NULL. */
Score nnue_evaluate_full(const NnueNet *net, const Position *pos, int *bucket);

/* The `eval` command's lines about the network: which net, its output
 * bucket and its score of pos (each line starts with prefix). */
void nnue_print(const Position *pos, const char *prefix, FILE *out);
/* " nnue 1a2b3c4d" when a net is embedded in the binary, else "": the
 * tail of the `--version` line and of the protocol's `id name`. */
const char *nnue_banner(void);

/* Test hook: when set, nnue_evaluate() also evaluates from scratch and
 * counts the checks and the disagreements (tests/test_nnue.c). */
extern bool NnueVerify;
extern _Atomic uint64_t NnueVerifyChecks, NnueVerifyFailures;
