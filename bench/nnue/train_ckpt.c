// SPDX-License-Identifier: GPL-3.0-or-later
#include "train_ckpt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train_simd.h"

#define CKPT_MAGIC "TNGCKPT1"
/* Version 2 added the dense stack and the factoriser to the configuration,
 * version 3 the head epochs, version 4 the skip; older checkpoints (without
 * them) still load. */
enum { CKPT_VERSION = 4, CKPT_VERSION_3 = 3, CKPT_VERSION_2 = 2, CKPT_VERSION_1 = 1, CKPT_CHUNK = 4096 };

/* A stream that hashes what passes through it. */
typedef struct {
    FILE *f;
    uint32_t hash;
    bool ok;
} Stream;

static void put(Stream *s, const void *data, size_t n) {
    if (!s->ok) return;
    s->hash = nnue_fnv1a(s->hash, data, n);
    s->ok = fwrite(data, 1, n, s->f) == n;
}

static void get(Stream *s, void *data, size_t n) {
    if (!s->ok) return;
    s->ok = fread(data, 1, n, s->f) == n;
    if (s->ok) s->hash = nnue_fnv1a(s->hash, data, n);
}

static void put_u64(Stream *s, uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(s, b, 8);
}

static uint64_t get_u64(Stream *s) {
    unsigned char b[8] = {0};
    get(s, b, 8);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void put_u32(Stream *s, uint32_t v) {
    unsigned char b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(s, b, 4);
}

static uint32_t get_u32(Stream *s) {
    unsigned char b[4] = {0};
    get(s, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put_f64(Stream *s, double x) {
    uint64_t v;
    memcpy(&v, &x, 8);
    put_u64(s, v);
}

static double get_f64(Stream *s) {
    uint64_t v = get_u64(s);
    double x;
    memcpy(&x, &v, 8);
    return x;
}

static void put_floats(Stream *s, const float *x, size_t n) {
    unsigned char buf[CKPT_CHUNK * 4];
    for (size_t i = 0; i < n; i += CKPT_CHUNK) {
        size_t k = n - i < CKPT_CHUNK ? n - i : CKPT_CHUNK;
        for (size_t j = 0; j < k; j++) {
            uint32_t v;
            memcpy(&v, &x[i + j], 4);
            for (int b = 0; b < 4; b++)
                buf[4 * j + (size_t)b] = (unsigned char)(v >> (8 * b));
        }
        put(s, buf, 4 * k);
    }
}

static void get_floats(Stream *s, float *x, size_t n) {
    unsigned char buf[CKPT_CHUNK * 4];
    for (size_t i = 0; i < n && s->ok; i += CKPT_CHUNK) {
        size_t k = n - i < CKPT_CHUNK ? n - i : CKPT_CHUNK;
        get(s, buf, 4 * k);
        for (size_t j = 0; j < k; j++) {
            const unsigned char *b = buf + 4 * j;
            uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            memcpy(&x[i + j], &v, 4);
        }
    }
}

/* The configuration, field by field (the same walk reads and writes). */
static void config_io(Stream *s, TrainConfig *c, bool write, uint32_t version) {
    int *ints[] = {&c->feature_set, &c->hidden, &c->out_buckets, &c->scale,
                   &c->lr_step,     &c->epochs, &c->batch,       &c->qat_epochs};
    double *reals[] = {&c->loss.k, &c->loss.lambda, &c->loss.power,   &c->lr,
                       &c->lr_min, &c->lr_gamma,    &c->weight_decay, &c->val_fraction};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (write)
            put_u32(s, (uint32_t)*ints[i]);
        else
            *ints[i] = (int)(int32_t)get_u32(s);
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        if (write)
            put_f64(s, *reals[i]);
        else
            *reals[i] = get_f64(s);
    if (write) {
        put_u32(s, (uint32_t)c->schedule);
        put_u32(s, c->mirror);
        put_u64(s, c->seed);
    } else {
        c->schedule = get_u32(s) == LR_STEP ? LR_STEP : LR_COSINE;
        c->mirror = get_u32(s) != 0;
        c->seed = get_u64(s);
    }
    if (version < CKPT_VERSION_2) return;
    if (write) {
        put_u32(s, c->stack);
        put_u32(s, c->factorised);
    } else {
        c->stack = get_u32(s) != 0;
        c->factorised = get_u32(s) != 0;
    }
    if (version < CKPT_VERSION_3) return;
    if (write)
        put_u32(s, (uint32_t)c->head_epochs);
    else
        c->head_epochs = (int)(int32_t)get_u32(s);
    if (version < CKPT_VERSION) return;
    if (write)
        put_u32(s, c->skip);
    else
        c->skip = get_u32(s) != 0;
}

bool train_ckpt_save(const Trainer *t, const char *path, char *err, size_t errlen) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    Stream s = {fopen(tmp, "wb"), NNUE_FNV_SEED, true};
    if (!s.f) {
        snprintf(err, errlen, "cannot write '%.200s': %s", tmp, strerror(errno));
        return false;
    }
    TrainConfig cfg = t->cfg;
    put(&s, CKPT_MAGIC, 8);
    put_u32(&s, CKPT_VERSION);
    config_io(&s, &cfg, true, CKPT_VERSION);
    put_u64(&s, t->step);
    put_u32(&s, (uint32_t)t->epoch);
    put_u64(&s, t->net.count);
    put_floats(&s, t->net.params, t->net.count);
    put_floats(&s, t->m, t->net.count);
    put_floats(&s, t->v, t->net.count);
    uint32_t hash = s.hash;
    put_u32(&s, hash);
    bool ok = s.ok;
    if (fclose(s.f) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot write '%.200s': %s", path, strerror(errno));
        remove(tmp);
    }
    return ok;
}

bool train_ckpt_load(Trainer *t, const char *path, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    Stream s = {fopen(path, "rb"), NNUE_FNV_SEED, true};
    if (!s.f) {
        snprintf(err, errlen, "cannot open '%.200s': %s", path, strerror(errno));
        return false;
    }
    char magic[8] = {0};
    get(&s, magic, 8);
    uint32_t version = get_u32(&s);
    bool ok = s.ok && !memcmp(magic, CKPT_MAGIC, 8) && (version >= CKPT_VERSION_1 && version <= CKPT_VERSION);
    if (!ok)
        snprintf(err, errlen, "'%.200s' is not a tuong-train checkpoint (versions %d to %d)", path, CKPT_VERSION_1,
                 CKPT_VERSION);
    TrainConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    if (ok) {
        config_io(&s, &cfg, false, version);
        char why[200];
        ok = s.ok && trainer_init(t, &cfg, why, sizeof why);
        if (!ok) snprintf(err, errlen, "'%.200s': %s", path, s.ok ? why : "truncated");
    }
    if (ok) {
        t->step = get_u64(&s);
        t->epoch = (int)get_u32(&s);
        uint64_t count = get_u64(&s);
        ok = s.ok && count == t->net.count;
        if (!ok) snprintf(err, errlen, "'%.200s': truncated or inconsistent parameter count", path);
    }
    if (ok) {
        get_floats(&s, t->net.params, t->net.count);
        get_floats(&s, t->m, t->net.count);
        get_floats(&s, t->v, t->net.count);
        uint32_t expect = s.hash, hash = get_u32(&s);
        char extra;
        ok = s.ok && hash == expect && fread(&extra, 1, 1, s.f) == 0;
        if (!ok) snprintf(err, errlen, "'%.200s': truncated or corrupt (hash mismatch)", path);
        if (ok) train_net_refresh_eff(&t->net, 0, (size_t)t->net.inputs);
    }
    fclose(s.f);
    if (!ok) trainer_free(t);
    return ok;
}
