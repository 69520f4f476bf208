// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Training: Adam on mini-batches drawn from a shuffled pass over the
 * training records (one pass = one epoch), with random left-right mirrors,
 * a learning-rate schedule, validation loss and quantisation error after
 * every epoch. Batches are split between threads, each with its own
 * gradient; the sums and the Adam step are split by parameter range.
 * Results depend on the seed and the thread count only.
 */
#include <stdbool.h>
#include <stdint.h>

#include "train_data.h"
#include "train_net.h"
#include "train_quant.h"

typedef enum { LR_COSINE = 0, LR_STEP = 1 } LrSchedule;

/* Everything a run's result depends on (saved in checkpoints). */
typedef struct {
    int feature_set, hidden, out_buckets, scale;
    TrainLoss loss;
    double lr;       /* initial learning rate */
    double lr_min;   /* cosine: the rate reached at the last step */
    double lr_gamma; /* step: the factor every lr_step epochs */
    int lr_step;
    LrSchedule schedule;
    double weight_decay; /* decoupled (AdamW), 0 = off */
    int epochs, batch;
    uint64_t seed;
    bool mirror;         /* random left-right mirror per sample */
    double val_fraction; /* of the records, taken from the end of the data */
    int qat_epochs;      /* the last this many epochs train with rounded head weights */
    bool stack;          /* the dense 16-32 stack after the accumulator */
    bool factorised;     /* king buckets with the shared factor block */
    int head_epochs; /* the first this many epochs step only the head (a warm start's new head; with a skip, the stack)
                      */
    bool skip;       /* with stack: the output layer beside it, evals summed (a version-3 net) */
} TrainConfig;

/* The defaults of `tuong-train train`. */
void train_config_defaults(TrainConfig *cfg);
/* The net shape a configuration trains. */
TrainShape train_config_shape(const TrainConfig *cfg);

typedef struct {
    TrainConfig cfg;
    TrainNet net;
    float *m, *v;  /* Adam moments */
    float *head_q; /* the rounded head while training quantisation-aware */
    uint64_t step; /* Adam steps taken */
    int epoch;     /* epochs completed */
} Trainer;

/* A fresh trainer with seeded random weights. */
bool trainer_init(Trainer *t, const TrainConfig *cfg, char *err, size_t errlen);
void trainer_free(Trainer *t);

typedef struct {
    double train_loss, val_loss; /* mean loss */
    double qerror;               /* mean |float eval - quantised eval| on validation, engine units */
    double qval_loss;            /* validation loss of the quantised net (the engine's evals) */
    double lr;                   /* the rate at the epoch's last step */
    double seconds;
    size_t samples;
    size_t saturated; /* quantised values clamped to the integer range */
} EpochStats;

/* Progress within an epoch (called at most every report_seconds). */
typedef void (*TrainProgress)(void *ctx, const Trainer *t, double fraction, double loss, double samples_per_s);

/* One epoch over train, then validation on val (may be empty); false if
 * memory for the gradients is short (nothing trained). */
bool trainer_epoch(Trainer *t, const TrainData *train, const TrainData *val, int threads, EpochStats *st,
                   TrainProgress progress, void *ctx, double report_seconds);
/* Mean loss of the current net over data, no gradient. */
double trainer_loss(const Trainer *t, const TrainData *data, int threads);
/* Mean |float eval - quantised eval| over data, and the mean loss of the
 * quantised evals in *qloss. */
double trainer_qerror(const Trainer *t, const QuantNet *q, const TrainData *data, int threads, double *qloss);
/* The learning rate at Adam step `step` of a run of total_steps. */
double trainer_lr(const TrainConfig *cfg, int epoch, uint64_t step, uint64_t total_steps);

/* The trainer's hash of 64 bits (shuffles, mirrors, epoch keys). */
static inline uint64_t train_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Mean loss over records idx[0..n) of data; adds the gradient of that mean
 * to grad when grad is not NULL. Mirrors none (mirror_key 0) or those whose
 * hash of (mirror_key, i) is odd. */
double train_batch(const TrainNet *net, const TrainLoss *loss, const TrainData *data, const uint32_t *idx, size_t n,
                   size_t total, uint64_t mirror_key, float *grad);
/* One Adam step on parameters [begin, end) with the summed gradient of the
 * `grads` buffers. */
void trainer_adam(Trainer *t, float *const *grads, int n_grads, double lr, size_t begin, size_t end);
