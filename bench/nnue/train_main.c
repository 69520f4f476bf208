// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-train: the NNUE trainer's command line (docs/nnue.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "position.h"
#include "train_ckpt.h"
#include "train_init.h"
#include "train_loop.h"
#include "train_synth.h"

static const char Usage[] =
    "usage: tuong-train train --data FILE [--data FILE...] --out DIR [options]\n"
    "       tuong-train resume CHECKPOINT --data FILE [--data FILE...] --out DIR [--epochs N] [--threads N]\n"
    "       tuong-train quantise CHECKPOINT NET.nnue\n"
    "       tuong-train validate NET.nnue --data FILE [--data FILE...] [--k X] [--lambda X] [--threads N]\n"
    "       tuong-train random-net NET.nnue [--features F] [--hidden H] [--buckets O] [--scale S] [--seed S]\n"
    "       tuong-train synth DATA COUNT [--seed S]     (random-play positions scored by the hand-crafted eval)\n"
    "options (defaults in brackets):\n"
    "  --features plain|kings [kings]  --hidden H [256]  --buckets 1|8 [8]  --scale S [400]\n"
    "  --stack (the dense 16-32 layers after the accumulator)  --factorise (king buckets: a shared block)\n"
    "  --skip (with --stack: the output layer too, its eval added to the stack's; a version-3 net)\n"
    "  --epochs N [20]  --batch N [16384]  --lr X [0.001]  --schedule cosine|step [cosine]\n"
    "  --lr-min X [3e-5] (cosine)  --lr-step N [8] --lr-gamma X [0.3] (step)  --wd X [0]\n"
    "  --k X [190]  --lambda X [0.75]  --power X [2]  --no-mirror  --seed N [1]\n"
    "  --val FILE | --val-fraction X [0.02]  --max-records N  --threads N [2]\n"
    "  --init NET.nnue (start from this net's weights: a warm start, docs/nnue.md)\n"
    "  --head-epochs N [0] (the first N epochs train only the head: a warm start's new stack; with --skip the stack)\n"
    "  --qat-epochs N [1] (last N epochs see the output weights rounded as the engine will)\n"
    "  --keep-checkpoints  --report SECONDS [30]\n"
    "FILE (--data, --val) may end in @FIRST:END or @FIRST: for records FIRST to END - 1 of it only\n"
    "(e.g. a snapshot of a pool file that is still growing: run-s1101-n5000.bin@0:1933191).\n";

enum { MAX_DATA_FILES = 64 };

typedef struct {
    TrainConfig cfg;
    const char *data[MAX_DATA_FILES];
    int n_data;
    const char *val, *out, *resume, *init;
    uint64_t max_records;
    int threads;
    bool keep_checkpoints, epochs_given;
    double report;
} Args;

/* One error line on stderr; the exit status of every failure. */
__attribute__((format(printf, 1, 2))) static int die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tuong-train: error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

static bool parse_num(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* One option (and its value) at argv[*i]; false with a message if bad. */
static bool parse_option(Args *a, int argc, char **argv, int *i) {
    const char *name = argv[*i];
    TrainConfig *c = &a->cfg;
    if (!strcmp(name, "--no-mirror")) return c->mirror = false, true;
    if (!strcmp(name, "--keep-checkpoints")) return a->keep_checkpoints = true, true;
    if (!strcmp(name, "--stack")) return c->stack = true, true;
    if (!strcmp(name, "--skip")) return c->skip = true, true;
    if (!strcmp(name, "--factorise") || !strcmp(name, "--factorize")) return c->factorised = true, true;
    if (*i + 1 >= argc) return die("option %s needs a value", name), false;
    const char *v = argv[++*i];
    /* Numbers: each goes to an int, a double or a uint64 within [lo, hi]. */
    const struct {
        const char *name;
        double lo, hi;
        int *i;
        double *d;
        uint64_t *u;
    } Numbers[] = {
        {"--hidden", NNUE_HIDDEN_MIN, NNUE_HIDDEN_MAX, &c->hidden, NULL, NULL},
        {"--buckets", 1, NNUE_OUT_BUCKETS_MAX, &c->out_buckets, NULL, NULL},
        {"--scale", NNUE_SCALE_MIN, NNUE_SCALE_MAX, &c->scale, NULL, NULL},
        {"--epochs", 1, 100000, &c->epochs, NULL, NULL},
        {"--batch", 1, 1 << 22, &c->batch, NULL, NULL},
        {"--lr-step", 1, 100000, &c->lr_step, NULL, NULL},
        {"--qat-epochs", 0, 100000, &c->qat_epochs, NULL, NULL},
        {"--head-epochs", 0, 100000, &c->head_epochs, NULL, NULL},
        {"--threads", 1, 64, &a->threads, NULL, NULL},
        {"--lr", 1e-9, 10, NULL, &c->lr, NULL},
        {"--lr-min", 0, 10, NULL, &c->lr_min, NULL},
        {"--lr-gamma", 0, 1, NULL, &c->lr_gamma, NULL},
        {"--wd", 0, 1, NULL, &c->weight_decay, NULL},
        {"--k", 1, 100000, NULL, &c->loss.k, NULL},
        {"--lambda", 0, 1, NULL, &c->loss.lambda, NULL},
        {"--power", 1, 4, NULL, &c->loss.power, NULL},
        {"--val-fraction", 0, 0.5, NULL, &c->val_fraction, NULL},
        {"--report", 0.1, 1e6, NULL, &a->report, NULL},
        {"--seed", 0, 1e18, NULL, NULL, &c->seed},
        {"--max-records", 0, 4e9, NULL, NULL, &a->max_records},
    };
    for (size_t k = 0; k < sizeof Numbers / sizeof *Numbers; k++) {
        if (strcmp(name, Numbers[k].name)) continue;
        double x;
        if (!parse_num(v, Numbers[k].lo, Numbers[k].hi, &x) || (!Numbers[k].d && x != (double)(long long)x))
            return die("bad value '%s' for %s (%s from %g to %g)", v, name,
                       Numbers[k].d ? "a number" : "a whole number", Numbers[k].lo, Numbers[k].hi),
                   false;
        if (Numbers[k].i) *Numbers[k].i = (int)x;
        if (Numbers[k].d) *Numbers[k].d = x;
        if (Numbers[k].u) *Numbers[k].u = strtoull(v, NULL, 10);
        if (Numbers[k].i == &c->epochs) a->epochs_given = true;
        return true;
    }
    if (!strcmp(name, "--data")) {
        if (a->n_data == MAX_DATA_FILES) return die("more than %d data files", MAX_DATA_FILES), false;
        a->data[a->n_data++] = v;
        return true;
    }
    if (!strcmp(name, "--val")) return a->val = v, true;
    if (!strcmp(name, "--out")) return a->out = v, true;
    if (!strcmp(name, "--init")) return a->init = v, true;
    if (!strcmp(name, "--features")) {
        if (strcmp(v, "plain") && strcmp(v, "kings")) return die("--features is plain or kings, not '%s'", v), false;
        c->feature_set = !strcmp(v, "plain") ? NNUE_FS_PLAIN : NNUE_FS_KING_BUCKETS;
        return true;
    }
    if (!strcmp(name, "--schedule")) {
        if (strcmp(v, "cosine") && strcmp(v, "step")) return die("--schedule is cosine or step, not '%s'", v), false;
        c->schedule = !strcmp(v, "step") ? LR_STEP : LR_COSINE;
        return true;
    }
    return die("unknown option '%s' (tuong-train --help)", name), false;
}

static bool parse_args(Args *a, int argc, char **argv, int first) {
    for (int i = first; i < argc; i++)
        if (!parse_option(a, argc, argv, &i)) return false;
    return true;
}

/* ---- train / resume ----------------------------------------------------- */

static void on_progress(void *ctx, const Trainer *t, double fraction, double loss, double rate) {
    (void)ctx;
    fprintf(stderr, "  epoch %d %5.1f%%  train loss %.6f  %.0f pos/s\n", t->epoch + 1, 100 * fraction, loss, rate);
}

/* Load the training data and split off the validation set. */
static bool load_data(const Args *a, const TrainConfig *cfg, TrainData *train, TrainData *val, TrainData *val_own) {
    char err[512];
    memset(train, 0, sizeof *train);
    memset(val_own, 0, sizeof *val_own);
    for (int i = 0; i < a->n_data; i++) {
        size_t left = a->max_records ? (size_t)a->max_records - train->count : 0;
        if (a->max_records && !left) break;
        if (!train_data_load_spec(train, a->data[i], left, err, sizeof err)) return die("%s", err), false;
    }
    if (a->val) {
        if (!train_data_load_spec(val_own, a->val, 0, err, sizeof err)) return die("%s", err), false;
        *val = *val_own;
    } else {
        /* The tail of the data: whole games stay on one side of the cut. */
        size_t n = (size_t)((double)train->count * cfg->val_fraction);
        train->count -= n;
        val->records = train->records + train->count * TRAIN_RECORD_SIZE;
        val->count = n;
    }
    if (!train->count) return die("no training records in %s%s", a->data[0], a->n_data > 1 ? " ..." : ""), false;
    return true;
}

static bool save_epoch(const Trainer *t, const char *out, bool keep, uint32_t *hash, char *path, size_t pathlen) {
    char err[512], ckpt[4096];
    QuantNet q;
    if (!train_quantise(&t->net, &q)) return die("out of memory quantising"), false;
    snprintf(path, pathlen, "%s/epoch-%03d.nnue", out, t->epoch);
    bool ok = train_quant_write(&q, path, hash, err, sizeof err);
    train_quant_free(&q);
    if (!ok) return die("%s", err), false;
    snprintf(ckpt, sizeof ckpt, "%s/last.ckpt", out);
    if (!train_ckpt_save(t, ckpt, err, sizeof err)) return die("%s", err), false;
    if (keep) {
        snprintf(ckpt, sizeof ckpt, "%s/epoch-%03d.ckpt", out, t->epoch);
        if (!train_ckpt_save(t, ckpt, err, sizeof err)) return die("%s", err), false;
    }
    return true;
}

/* A warm start's starting point as epoch 0: its net file (epoch-000.nnue)
 * and its losses before any step, the baseline the epochs are read
 * against (a warm start that keeps everything shows the source net's). */
static bool report_start(const Trainer *t, const Args *a, const TrainData *train, const TrainData *val) {
    char path[4096], err[512];
    uint32_t hash = 0;
    QuantNet q;
    if (!train_quantise(&t->net, &q)) return die("out of memory quantising"), false;
    snprintf(path, sizeof path, "%s/epoch-000.nnue", a->out);
    bool ok = train_quant_write(&q, path, &hash, err, sizeof err);
    double qval = 0, qerr = 0;
    if (ok && val->count) qerr = trainer_qerror(t, &q, val, a->threads, &qval);
    size_t saturated = q.saturated;
    train_quant_free(&q);
    if (!ok) return die("%s", err), false;
    printf("epoch %3d/%d  start     train %.6f  val %.6f  qval %.6f  qerr %.2f  %s %08x%s\n", 0, t->cfg.epochs,
           trainer_loss(t, train, a->threads), trainer_loss(t, val, a->threads), qval, qerr, path, (unsigned)hash,
           saturated ? " (saturated values!)" : "");
    fflush(stdout);
    return true;
}

static int run_training(Trainer *t, const Args *a) {
    TrainData train, val, val_own;
    if (!load_data(a, &t->cfg, &train, &val, &val_own)) return 2;
    if (mkdir(a->out, 0777) != 0 && errno != EEXIST) return die("cannot create '%s': %s", a->out, strerror(errno));
    const TrainConfig *c = &t->cfg;
    printf("tuong-train: %zu training and %zu validation positions; %s%s features, %d units, %s%d output buckets, "
           "scale %d\n",
           train.count, val.count, c->feature_set == NNUE_FS_PLAIN ? "plain" : "king-bucket",
           c->factorised ? " factorised" : "", c->hidden,
           c->skip    ? "dense 16-32 stacks + skip, "
           : c->stack ? "dense 16-32 stacks, "
                      : "",
           c->out_buckets, c->scale);
    printf("tuong-train: loss |sigma(e/%g) - target|^%g, lambda %g; Adam lr %g (%s), batch %d, %d threads, seed "
           "%llu%s\n",
           c->loss.k, c->loss.power, c->loss.lambda, c->lr, c->schedule == LR_COSINE ? "cosine" : "step", c->batch,
           a->threads, (unsigned long long)c->seed, c->mirror ? ", mirrored samples" : "");
    fflush(stdout);
    int rc = 0;
    if (a->init && t->epoch == 0 && !report_start(t, a, &train, &val)) rc = 2;
    while (!rc && t->epoch < c->epochs) {
        EpochStats st;
        if (!trainer_epoch(t, &train, &val, a->threads, &st, on_progress, NULL, a->report)) {
            rc = die("out of memory for the gradients");
            break;
        }
        char path[4096];
        uint32_t hash = 0;
        if (!save_epoch(t, a->out, a->keep_checkpoints, &hash, path, sizeof path)) {
            rc = 2;
            break;
        }
        printf("epoch %3d/%d  lr %.3g  train %.6f  val %.6f  qval %.6f  qerr %.2f  %.1f s  %.0f pos/s  %s %08x%s\n",
               t->epoch, c->epochs, st.lr, st.train_loss, st.val_loss, st.qval_loss, st.qerror, st.seconds,
               (double)st.samples / (st.seconds > 0 ? st.seconds : 1), path, (unsigned)hash,
               st.saturated ? " (saturated values!)" : "");
        fflush(stdout);
    }
    train_data_free(&train);
    train_data_free(&val_own);
    return rc;
}

/* --init: the fresh trainer's weights from a net file. */
static bool warm_start(Trainer *t, const char *path) {
    NnueNet src;
    TrainInitReport rep;
    char err[512], desc[256];
    if (!nnue_net_read_file(&src, path, err, sizeof err)) return die("%s", err), false;
    bool ok = train_net_init_from(&t->net, &src, &rep, err, sizeof err);
    if (ok) {
        nnue_net_describe(&src, desc, sizeof desc);
        printf("tuong-train: starting from %s: feature transformer%s\n", desc,
               rep.head           ? " and head"
               : rep.output_layer ? " and output layer; the stack is new, its last layer 0 (the same evals)"
               : rep.stack        ? " and stack; the skip output layer is new, all 0 (the same evals)"
                                  : "; the head is new");
        if (rep.widened_from)
            printf("tuong-train: widened from %d to %d units: the new units' ft weights are seeded%s\n",
                   rep.widened_from, t->net.hidden,
                   rep.head || rep.output_layer || rep.stack ? ", every weight reading them is 0 (the same evals)"
                                                             : "");
    }
    nnue_net_free(&src);
    return ok ? true : (die("%s: %s", path, err), false);
}

static int cmd_train(int argc, char **argv, bool resume) {
    Args a = {.threads = 2, .report = 30};
    train_config_defaults(&a.cfg);
    if (resume) {
        if (argc < 3) return die("resume needs a checkpoint");
        a.resume = argv[2];
    }
    if (!parse_args(&a, argc, argv, resume ? 3 : 2)) return 2;
    if (!a.n_data || !a.out) return die("--data and --out are required");
    Trainer t;
    char err[512];
    if (resume) {
        if (!train_ckpt_load(&t, a.resume, err, sizeof err)) return die("%s", err);
        if (a.epochs_given) t.cfg.epochs = a.cfg.epochs;
        printf("tuong-train: resuming after epoch %d of %d\n", t.epoch, t.cfg.epochs);
    } else if (!trainer_init(&t, &a.cfg, err, sizeof err)) {
        return die("%s", err);
    } else if (a.init && !warm_start(&t, a.init)) {
        trainer_free(&t);
        return 2;
    }
    int rc = run_training(&t, &a);
    trainer_free(&t);
    return rc;
}

/* ---- small commands ------------------------------------------------------ */

static int cmd_quantise(int argc, char **argv) {
    if (argc != 4) return die("usage: tuong-train quantise CHECKPOINT NET.nnue");
    Trainer t;
    QuantNet q;
    char err[512];
    uint32_t hash;
    if (!train_ckpt_load(&t, argv[2], err, sizeof err)) return die("%s", err);
    bool ok = train_quantise(&t.net, &q) && train_quant_write(&q, argv[3], &hash, err, sizeof err);
    if (ok) printf("%s %08x (%zu saturated values)\n", argv[3], (unsigned)hash, q.saturated);
    train_quant_free(&q);
    trainer_free(&t);
    return ok ? 0 : die("%s", err);
}

/* The loss of a net file on data, as the engine evaluates (the quantised
 * net), with the float loss of its dequantised weights beside it: the
 * baseline a warm start or a new generation is measured against. */
static int cmd_validate(int argc, char **argv) {
    if (argc < 3) return die("usage: tuong-train validate NET.nnue --data FILE [options]");
    Args a = {.threads = 2};
    train_config_defaults(&a.cfg);
    if (!parse_args(&a, argc, argv, 3)) return 2;
    if (!a.n_data) return die("validate needs --data");
    NnueNet src;
    char err[512], desc[256];
    if (!nnue_net_read_file(&src, argv[2], err, sizeof err)) return die("%s", err);
    a.cfg.feature_set = src.feature_set;
    a.cfg.hidden = src.hidden;
    a.cfg.out_buckets = src.out_buckets;
    a.cfg.scale = src.scale;
    a.cfg.stack = src.stack;
    a.cfg.skip = src.skip;
    a.cfg.factorised = false;
    nnue_net_describe(&src, desc, sizeof desc);
    Trainer t;
    TrainInitReport rep;
    TrainData data = {0};
    QuantNet q = {0};
    int rc = 0;
    if (!trainer_init(&t, &a.cfg, err, sizeof err)) {
        nnue_net_free(&src);
        return die("%s", err);
    }
    bool ok = train_net_init_from(&t.net, &src, &rep, err, sizeof err);
    for (int i = 0; ok && i < a.n_data; i++)
        ok = train_data_load_spec(&data, a.data[i], 0, err, sizeof err);
    if (!ok) {
        rc = die("%s", err);
    } else if (!data.count) {
        rc = die("no records in %s", a.data[0]);
    } else if (!train_quantise(&t.net, &q)) {
        rc = die("out of memory quantising");
    } else {
        double qloss, loss = trainer_loss(&t, &data, a.threads);
        double qerr = trainer_qerror(&t, &q, &data, a.threads, &qloss);
        printf("%s: %zu positions, loss %.6f (float %.6f, quantisation error %.2f), k %g, lambda %g\n", desc,
               data.count, qloss, loss, qerr, a.cfg.loss.k, a.cfg.loss.lambda);
    }
    train_quant_free(&q);
    train_data_free(&data);
    trainer_free(&t);
    nnue_net_free(&src);
    return rc;
}

static int cmd_random_net(int argc, char **argv) {
    if (argc < 3) return die("usage: tuong-train random-net NET.nnue [options]");
    Args a = {.threads = 1};
    train_config_defaults(&a.cfg);
    if (!parse_args(&a, argc, argv, 3)) return 2;
    Trainer t;
    QuantNet q;
    char err[512];
    uint32_t hash;
    if (!trainer_init(&t, &a.cfg, err, sizeof err)) return die("%s", err);
    bool ok = train_quantise(&t.net, &q) && train_quant_write(&q, argv[2], &hash, err, sizeof err);
    if (ok) printf("%s %08x\n", argv[2], (unsigned)hash);
    train_quant_free(&q);
    trainer_free(&t);
    return ok ? 0 : die("%s", err);
}

static int cmd_synth(int argc, char **argv) {
    double count;
    if (argc < 4 || !parse_num(argv[3], 1, 1e9, &count)) return die("usage: tuong-train synth DATA COUNT [--seed S]");
    Args a = {.threads = 1};
    train_config_defaults(&a.cfg);
    if (!parse_args(&a, argc, argv, 4)) return 2;
    char err[512];
    if (!train_synth_write(argv[2], (size_t)count, a.cfg.seed, err, sizeof err)) return die("%s", err);
    printf("%s: %.0f positions\n", argv[2], count);
    return 0;
}

int main(int argc, char **argv) {
    engine_init();
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) return fputs(Usage, stdout), 0;
    if (!strcmp(cmd, "train")) return cmd_train(argc, argv, false);
    if (!strcmp(cmd, "resume")) return cmd_train(argc, argv, true);
    if (!strcmp(cmd, "quantise") || !strcmp(cmd, "quantize")) return cmd_quantise(argc, argv);
    if (!strcmp(cmd, "validate")) return cmd_validate(argc, argv);
    if (!strcmp(cmd, "random-net")) return cmd_random_net(argc, argv);
    if (!strcmp(cmd, "synth")) return cmd_synth(argc, argv);
    fprintf(stderr, "tuong-train: error: %s '%s'\n%s", *cmd ? "unknown command" : "no command", cmd, Usage);
    return 2;
}
