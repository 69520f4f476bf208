// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A batch's loss and gradient (declared in train_loop.h), a chunk of
 * positions at a time: decode the chunk's records, run the feature
 * transformer over the whole chunk, then each position's head (forward,
 * loss, backward; the positions of one output bucket after another), then
 * the feature transformer backwards over the chunk.
 * Walking the chunk a block of units at a time (train_ft_forward) is what
 * makes the chunk pay: a 256-unit plain net's rows and their gradient are
 * 2.6 MB, beyond the per-core L2, but one 32-unit block of them is 320 KB.
 * The results are those of one position at a time, bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include "train_loop.h"
#include "train_simd.h"

/* TRAIN_CHUNK positions share a pass over the rows; PREFETCH_AHEAD records
 * are fetched ahead of the decoder (they are visited in shuffled order). */
enum { TRAIN_CHUNK = 256, PREFETCH_AHEAD = 8 };

typedef struct {
    TrainActs acts;
    TrainFeatures f[TRAIN_CHUNK];
    double target[TRAIN_CHUNK], loss[TRAIN_CHUNK];
    int order[TRAIN_CHUNK]; /* the chunk's positions by output bucket, in order within one */
    float *acc, *d_acc; /* TRAIN_CHUNK x 2H */
    int32_t *scratch;   /* train_ft_backward's and train_stack_l1_grad's */
    float *u;           /* dense stack: TRAIN_CHUNK x 2H, the positions' clamp(acc)^2 */
    float d_l1[TRAIN_CHUNK * NNUE_L1];
    float l2t[TRAIN_L2T_FLOATS]; /* dense stack: its second layer transposed, for the whole batch */
} Chunk;

_Static_assert((int)TRAIN_CHUNK <= (int)TRAIN_STACK_CHUNK_MAX, "train_stack_l1_grad takes a chunk");

static Chunk *chunk_alloc(const TrainNet *net, bool backward) {
    Chunk *c = malloc(sizeof *c);
    if (!c) return NULL;
    const size_t floats = (size_t)TRAIN_CHUNK * 2 * (size_t)net->hidden;
    c->acc = train_alloc_floats(floats);
    c->d_acc = backward ? train_alloc_floats(floats) : NULL;
    c->scratch = backward ? malloc(sizeof *c->scratch * train_ft_scratch_ints(net, TRAIN_CHUNK)) : NULL;
    c->u = backward && net->stack ? train_alloc_floats(floats) : NULL;
    if (!c->acc || (backward && (!c->d_acc || !c->scratch || (net->stack && !c->u)))) {
        free(c->acc);
        free(c->d_acc);
        free(c->u);
        free(c->scratch);
        free(c);
        return NULL;
    }
    return c;
}

static void chunk_free(Chunk *c) {
    if (!c) return;
    free(c->acc);
    free(c->d_acc);
    free(c->scratch);
    free(c->u);
    free(c);
}

double train_batch(const TrainNet *net, const TrainLoss *loss, const TrainData *data, const uint32_t *idx, size_t n,
                   size_t total, uint64_t mirror_key, float *grad) {
    Chunk *c = chunk_alloc(net, grad != NULL);
    const size_t H2 = 2 * (size_t)net->hidden;
    double sum = 0;
    /* The head does not change during a batch: transpose its second layer
     * once. Only on the AVX2 path, whose transposed sums are train_dot's bit
     * for bit; portable C leaves the compiler free to contract or vectorise
     * the two loops differently. */
    const float *l2t = TRAIN_AVX2 && c && net->stack ? c->l2t : NULL;
    if (l2t) train_stack_l2_transpose(net, c->l2t);
    for (size_t first = 0; c && first < n; first += TRAIN_CHUNK) {
        const int m = n - first < TRAIN_CHUNK ? (int)(n - first) : TRAIN_CHUNK;
        for (int k = 0; k < m; k++) {
            const size_t i = first + (size_t)k;
            if (i + PREFETCH_AHEAD < n) __builtin_prefetch(train_record(data, idx[i + PREFETCH_AHEAD]));
            TrainPosition p;
            train_record_unpack(train_record(data, idx[i]), &p); /* checked at load */
            bool mirror = mirror_key && (train_mix64(mirror_key ^ (idx[i] * 0x9E3779B97F4A7C15ull)) & 1);
            train_features(net, &p, mirror, &c->f[k]);
            c->target[k] = train_target(loss, &p);
        }
        train_ft_forward(net, c->f, m, c->acc);
        /* The heads a bucket at a time: a bucket's dense stack (its first
         * layer 2H x 16 floats, 32 KB at 256 units, the size of the L1) is
         * then read from the L1 for all its positions, where in file order
         * each position fetched its bucket's from the L2. The same sums in
         * the same order: a position's head gradient goes to its own
         * bucket's parameters only, taken in the order of the positions
         * (a stable sort), and the losses are added in that order too. */
        int start[NNUE_OUT_BUCKETS_MAX + 1] = {0};
        for (int k = 0; k < m; k++)
            start[c->f[k].bucket + 1]++;
        for (int b = 0; b < net->out_buckets; b++)
            start[b + 1] += start[b];
        for (int k = 0; k < m; k++)
            c->order[start[c->f[k].bucket]++] = k;
        for (int j = 0; j < m; j++) {
            const int k = c->order[j];
            const float *acc = c->acc + (size_t)k * H2;
            double g, eval = train_head_forward(net, c->f[k].bucket, acc, &c->acts, l2t);
            c->loss[k] = train_loss(loss, eval, c->target[k], &g);
            if (!grad) continue;
            train_head_backward(net, c->f[k].bucket, acc, &c->acts, (float)(g / (double)total), grad,
                                c->d_acc + (size_t)k * H2, net->stack ? c->d_l1 + (size_t)k * NNUE_L1 : NULL);
            if (net->stack) memcpy(c->u + (size_t)k * H2, c->acts.u, sizeof(float) * H2);
        }
        for (int k = 0; k < m; k++)
            sum += c->loss[k];
        if (!grad) continue;
        if (net->stack) train_stack_l1_grad(net, c->f, m, c->d_l1, c->u, grad, c->scratch);
        train_ft_backward(net, c->f, m, c->d_acc, grad, c->scratch);
    }
    chunk_free(c);
    return sum / (double)(total ? total : 1);
}
