// SPDX-License-Identifier: GPL-3.0-or-later
#include "nnue.h"

#include <stdio.h>
#include <string.h>

#include "nnue_accum.h"
#include "nnue_embed.h"
#include "nnue_kernels.h"

static NnueNet Loaded; /* the loaded net, or an empty one */
static bool Enabled = true;
static char Source[256]; /* "embedded" or the file's path */
static uint32_t NetId;   /* bumped on every load, so stacks know to reset */
const NnueNet *NnueInUse;
bool NnueVerify;
_Atomic uint64_t NnueVerifyChecks, NnueVerifyFailures;

static void publish(void) { NnueInUse = Enabled && Loaded.memory ? &Loaded : NULL; }

static void install(NnueNet *net, const char *source) {
    nnue_net_free(&Loaded);
    Loaded = *net;
    NetId++;
    snprintf(Source, sizeof Source, "%s", source);
    publish();
}

bool nnue_load_embedded(char *err, size_t errlen) {
    size_t size;
    const unsigned char *data = nnue_embedded_data(&size);
    if (!data) {
        snprintf(err, errlen, "this build has no embedded network");
        return false;
    }
    NnueNet net;
    if (!nnue_net_parse(&net, data, size, err, errlen)) return false;
    install(&net, "embedded");
    return true;
}

void nnue_init(void) {
    static bool done;
    if (done) return;
    done = true;
    char err[256];
    size_t size;
    if (nnue_embedded_data(&size) && !nnue_load_embedded(err, sizeof err))
        fprintf(stderr, "tuong: the embedded network is unusable (%s); using the hand-crafted evaluation\n", err);
}

bool nnue_load_file(const char *path, char *err, size_t errlen) {
    NnueNet net;
    if (!nnue_net_read_file(&net, path, err, errlen)) return false;
    install(&net, path);
    return true;
}

void nnue_set_enabled(bool on) {
    Enabled = on;
    publish();
}

bool nnue_enabled(void) { return Enabled; }
const NnueNet *nnue_loaded(void) { return Loaded.memory ? &Loaded : NULL; }
const char *nnue_source(void) { return Source; }
const char *nnue_isa(void) { return nnue_k_isa(); }

const char *nnue_banner(void) {
    static char banner[32];
    uint32_t hash;
    if (!banner[0] && nnue_embedded_hash(&hash)) snprintf(banner, sizeof banner, " nnue %08x", (unsigned)hash);
    return banner;
}

bool nnue_embedded_hash(uint32_t *hash) {
    size_t size;
    const unsigned char *data = nnue_embedded_data(&size);
    if (!data || size < NNUE_HEADER_SIZE) return false;
    *hash = (uint32_t)data[36] | (uint32_t)data[37] << 8 | (uint32_t)data[38] << 16 | (uint32_t)data[39] << 24;
    return true;
}

/* The head on the two accumulators: the output layer (version 1), the
 * dense stack (version 2), or both summed (version 3, the stack + skip). */
static Score output(const NnueNet *net, const Position *pos, const int16_t *us, const int16_t *them, int *bucket) {
    int b = nnue_output_bucket(bb_popcount(pos->occ), net->out_buckets);
    int64_t eval = 0;
    if (net->stack) eval = nnue_stack_scale(nnue_k_dense(us, them, net->hidden, &net->dense[b]), net->scale);
    if (!net->stack || net->skip) {
        int32_t sum = nnue_k_output(us, them, net->out_weights + (size_t)b * 2 * (size_t)net->hidden, net->hidden);
        eval += nnue_output_scale(sum, net->out_bias[b], net->scale);
    }
    if (bucket) *bucket = b;
    return (Score)(eval > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : eval < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : eval);
}

Score nnue_evaluate_full(const NnueNet *net, const Position *pos, int *bucket) {
    _Alignas(64) int16_t acc[COLOR_NB][NNUE_HIDDEN_MAX];
    nnue_refresh(net, pos, RED, acc[RED]);
    nnue_refresh(net, pos, BLACK, acc[BLACK]);
    return output(net, pos, acc[pos->side], acc[!pos->side], bucket);
}

/* The test hook: the incremental accumulators equal a refresh, bit for bit. */
static void verify(const NnueNet *net, const Position *pos, int16_t (*acc)[NNUE_HIDDEN_MAX]) {
    _Alignas(64) int16_t fresh[NNUE_HIDDEN_MAX];
    NnueVerifyChecks++;
    for (Color c = RED; c <= BLACK; c++) {
        nnue_refresh(net, pos, c, fresh);
        if (memcmp(fresh, acc[c], sizeof(int16_t) * (size_t)net->hidden)) {
            NnueVerifyFailures++;
            return;
        }
    }
}

Score nnue_evaluate(const Position *pos) {
    const NnueNet *net = NnueInUse;
    NnueStack *st = pos->nnue;
    if (!st) return nnue_evaluate_full(net, pos, NULL);
    if (st->net_id != NetId) nnue_stack_reset(st, NetId);
    nnue_stack_update(st, net, pos);
    const int slot = nnue_slot(pos->game_ply);
    if (NnueVerify) verify(net, pos, st->acc[slot]);
    return output(net, pos, st->acc[slot][pos->side], st->acc[slot][!pos->side], NULL);
}
