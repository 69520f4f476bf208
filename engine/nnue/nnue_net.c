// SPDX-License-Identifier: GPL-3.0-or-later
#include "nnue_net.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../sys.h"

/* Net files larger than this are not ours (the largest valid one, king
 * buckets with 1024 units, a stack and a skip, is about 15.8 MB). */
enum { NNUE_FILE_MAX = 64 << 20 };

static const char *const FeatureSetNames[NNUE_FS_NB] = {"plain", "king buckets"};

static uint32_t read_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool fail(char *err, size_t errlen, const char *fmt, unsigned long a, unsigned long b) {
    snprintf(err, errlen, fmt, a, b);
    return false;
}

/* Check every header field; fills net's shape. */
static bool check_header(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t errlen) {
    if (size < NNUE_HEADER_SIZE)
        return fail(err, errlen, "not a Tuong network: %lu bytes, shorter than the %lu-byte header", size,
                    NNUE_HEADER_SIZE);
    if (memcmp(data, NNUE_MAGIC, 8)) return fail(err, errlen, "not a Tuong network (no TUONGNN1 magic)", 0, 0);
    uint32_t version = read_u32(data + 8), fs = read_u32(data + 12), hidden = read_u32(data + 16);
    uint32_t outs = read_u32(data + 20), qa = read_u32(data + 24), qb = read_u32(data + 28);
    uint32_t scale = read_u32(data + 32);
    if (version != NNUE_VERSION && version != NNUE_VERSION_STACK && version != NNUE_VERSION_SKIP)
        return fail(err, errlen, "network version %lu, this engine reads versions 1 to %lu", version,
                    NNUE_VERSION_SKIP);
    const bool stack = version != NNUE_VERSION;
    const size_t header = nnue_header_bytes((int)version);
    if (size < header)
        return fail(err, errlen, "truncated network: %lu bytes, shorter than the %lu-byte header", size, header);
    if (fs >= NNUE_FS_NB) return fail(err, errlen, "unsupported feature set %lu (0 or 1)", fs, 0);
    if (hidden < NNUE_HIDDEN_MIN || hidden > NNUE_HIDDEN_MAX || hidden % NNUE_HIDDEN_STEP)
        return fail(err, errlen, "unsupported accumulator size %lu (128..1024, a multiple of %lu)", hidden,
                    NNUE_HIDDEN_STEP);
    if (outs != 1 && outs != NNUE_OUT_BUCKETS_MAX)
        return fail(err, errlen, "unsupported output bucket count %lu (1 or %lu)", outs, NNUE_OUT_BUCKETS_MAX);
    if (qa != NNUE_QA || qb != NNUE_QB)
        return fail(err, errlen, "unsupported quantisation QA %lu QB %lu (255 and 64)", qa, qb);
    if (scale < NNUE_SCALE_MIN || scale > NNUE_SCALE_MAX)
        return fail(err, errlen, "unsupported eval scale %lu (1..%lu)", scale, NNUE_SCALE_MAX);
    if (stack && (read_u32(data + 40) != NNUE_L1 || read_u32(data + 44) != NNUE_L2))
        return fail(err, errlen, "unsupported dense stack %lu x %lu (this engine reads 16 x 32)", read_u32(data + 40),
                    read_u32(data + 44));
    size_t want = header + nnue_payload_bytes_v((int)fs, (int)hidden, (int)outs, (int)version);
    if (size != want)
        return fail(err, errlen,
                    size < want ? "truncated network: %lu bytes, its header needs %lu"
                                : "network file too long: %lu bytes, its header needs %lu",
                    size, want);
    uint32_t hash = nnue_fnv1a(NNUE_FNV_SEED, data + header, size - header);
    if (hash != read_u32(data + 36))
        return fail(err, errlen, "corrupt network: payload hash %08lx, header says %08lx", hash, read_u32(data + 36));
    net->version = (int)version;
    net->feature_set = (int)fs;
    net->inputs = nnue_input_count((int)fs);
    net->hidden = (int)hidden;
    net->out_buckets = (int)outs;
    net->scale = (int)scale;
    net->stack = stack;
    net->skip = version == NNUE_VERSION_SKIP;
    net->hash = hash;
    return true;
}

static void read_i16(int16_t *dst, const unsigned char *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = (int16_t)(uint16_t)(src[2 * i] | src[2 * i + 1] << 8);
}

static void read_i32(int32_t *dst, const unsigned char *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = (int32_t)read_u32(src + 4 * i);
}

/* Round a byte count up to the 64-byte alignment of every tensor. */
static size_t align64(size_t n) { return (n + 63) / 64 * 64; }

/* A layer's int8 weights [outs][ins] (file order) into the kernels' pair
 * layout (nnue_net.h), widened to int16. */
static const unsigned char *read_pairs(int16_t *dst, const unsigned char *src, int outs, int ins) {
    for (int j = 0; j < outs; j++)
        for (int i = 0; i < ins; i++)
            dst[((size_t)(i / 2) * (size_t)outs + (size_t)j) * 2 + (size_t)(i % 2)] =
                (int16_t)(int8_t)src[(size_t)j * (size_t)ins + (size_t)i];
    return src + (size_t)outs * (size_t)ins;
}

void nnue_dense_quads(int8_t *quads, const int16_t *pairs, int hidden) {
    for (int i = 0; i < 2 * hidden; i++)
        for (int j = 0; j < NNUE_L1; j++)
            quads[((size_t)(i / 4) * NNUE_L1 + (size_t)j) * 4 + (size_t)(i % 4)] =
                (int8_t)pairs[((size_t)(i / 2) * NNUE_L1 + (size_t)j) * 2 + (size_t)(i % 2)];
}

/* Bytes of one bucket's stack in memory (each tensor 64-byte aligned; the
 * int8 quad copy of the first layer last). */
static size_t dense_memory(int hidden) {
    return align64((size_t)2 * (size_t)hidden * NNUE_L1 * 2) + align64(NNUE_L1 * 4) + align64(NNUE_L1 * NNUE_L2 * 2) +
           align64(NNUE_L2 * 4) + align64(NNUE_L2 * 2) + align64((size_t)2 * (size_t)hidden * NNUE_L1);
}

/* One bucket's stack from the file at src into mem; returns the file's next byte. */
static const unsigned char *read_dense(NnueDense *d, unsigned char *mem, const unsigned char *src, int hidden) {
    int16_t *l1_w = (int16_t *)mem;
    int32_t *l1_b = (int32_t *)(mem + align64((size_t)2 * (size_t)hidden * NNUE_L1 * 2));
    int16_t *l2_w = (int16_t *)((unsigned char *)l1_b + align64(NNUE_L1 * 4));
    int32_t *l2_b = (int32_t *)((unsigned char *)l2_w + align64(NNUE_L1 * NNUE_L2 * 2));
    int16_t *l3_w = (int16_t *)((unsigned char *)l2_b + align64(NNUE_L2 * 4));
    int8_t *l1_q = (int8_t *)((unsigned char *)l3_w + align64(NNUE_L2 * 2));
    src = read_pairs(l1_w, src, NNUE_L1, 2 * hidden);
    read_i32(l1_b, src, NNUE_L1);
    src = read_pairs(l2_w, src + 4 * NNUE_L1, NNUE_L2, NNUE_L1);
    read_i32(l2_b, src, NNUE_L2);
    src += 4 * NNUE_L2;
    for (int i = 0; i < NNUE_L2; i++)
        l3_w[i] = (int16_t)(int8_t)src[i];
    src += NNUE_L2;
    nnue_dense_quads(l1_q, l1_w, hidden);
    *d = (NnueDense){.l1_w = l1_w,
                     .l1_b = l1_b,
                     .l2_w = l2_w,
                     .l2_b = l2_b,
                     .l3_w = l3_w,
                     .l3_b = (int32_t)read_u32(src),
                     .l1_q = l1_q};
    return src + 4;
}

static bool bias_ok(int32_t b) { return b >= -NNUE_STACK_BIAS_MAX && b <= NNUE_STACK_BIAS_MAX; }

/* No sum of the stack can overflow int32 (nnue_arch.h): the biases are bounded. */
static bool dense_biases_ok(const NnueDense *d) {
    bool ok = bias_ok(d->l3_b);
    for (int j = 0; j < NNUE_L1; j++)
        ok = ok && bias_ok(d->l1_b[j]);
    for (int k = 0; k < NNUE_L2; k++)
        ok = ok && bias_ok(d->l2_b[k]);
    return ok;
}

/* The version-1 output layer from the file at src into mem (its weights,
 * then its 64-byte aligned biases). */
static void read_output_layer(NnueNet *net, unsigned char *mem, const unsigned char *src) {
    size_t n = (size_t)net->out_buckets * 2 * (size_t)net->hidden;
    net->out_weights = (int16_t *)mem;
    net->out_bias = (int32_t *)(mem + align64(n * 2));
    read_i16(net->out_weights, src, n);
    read_i32(net->out_bias, src + n * 2, (size_t)net->out_buckets);
}

bool nnue_net_parse(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t errlen) {
    memset(net, 0, sizeof *net);
    NnueNet shape = {0};
    if (!check_header(&shape, data, size, err, errlen)) return false;
    size_t H = (size_t)shape.hidden, O = (size_t)shape.out_buckets, ft = (size_t)shape.inputs * H;
    size_t head = align64(ft * 2) + align64(H * 2);
    size_t stack_bytes = shape.stack ? O * dense_memory(shape.hidden) : 0;
    size_t out_bytes = !shape.stack || shape.skip ? align64(O * 2 * H * 2) + align64(O * 4) : 0;
    size_t bytes = head + stack_bytes + out_bytes;
    unsigned char *mem = sys_aligned_alloc(64, bytes);
    if (!mem) return fail(err, errlen, "out of memory for a %lu-byte network", bytes, 0);
    *net = shape;
    net->memory = mem;
    net->ft_weights = (int16_t *)mem;
    net->ft_bias = (int16_t *)(mem + align64(ft * 2));
    const unsigned char *p = data + nnue_header_bytes(shape.version);
    read_i16(net->ft_weights, p, ft);
    p += ft * 2;
    read_i16(net->ft_bias, p, H);
    p += H * 2;
    if (shape.stack) {
        for (size_t b = 0; b < O; b++)
            p = read_dense(&net->dense[b], mem + head + b * dense_memory(shape.hidden), p, shape.hidden);
        for (size_t b = 0; b < O; b++)
            if (!dense_biases_ok(&net->dense[b])) {
                nnue_net_free(net);
                return fail(err, errlen, "corrupt network: a dense-stack bias of output bucket %lu is beyond +-2^%lu",
                            b, 30);
            }
    }
    /* Version 1's output layer, or version 3's skip after the stack. */
    if (out_bytes) read_output_layer(net, mem + head + stack_bytes, p);
    return true;
}

bool nnue_net_read_file(NnueNet *net, const char *path, char *err, size_t errlen) {
    memset(net, 0, sizeof *net);
    struct stat info;
    if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
        snprintf(err, errlen, "'%.200s' is not a regular file", path);
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open network '%.200s': %s", path, strerror(errno));
        return false;
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *buf = NULL;
    size_t n = 0;
    bool ok = false;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
        snprintf(err, errlen, "cannot read network '%.200s': not a regular file", path);
    else if (size > NNUE_FILE_MAX)
        snprintf(err, errlen, "'%.200s' is larger than %d MB: not a Tuong network", path, NNUE_FILE_MAX >> 20);
    else if (!(buf = malloc((size_t)size + 1)))
        snprintf(err, errlen, "out of memory reading '%.200s'", path);
    else if ((n = fread(buf, 1, (size_t)size + 1, f)) != (size_t)size || ferror(f))
        snprintf(err, errlen, "cannot read network '%.200s'", path);
    else {
        char why[200];
        ok = nnue_net_parse(net, buf, n, why, sizeof why);
        if (!ok) snprintf(err, errlen, "'%.200s': %s", path, why);
    }
    fclose(f);
    free(buf);
    return ok;
}

void nnue_net_free(NnueNet *net) {
    sys_aligned_free(net->memory);
    memset(net, 0, sizeof *net);
}

void nnue_net_describe(const NnueNet *net, char *out, size_t size) {
    const char *head = net->skip ? "dense 16-32 stacks + skip, " : net->stack ? "dense 16-32 stacks, " : "";
    snprintf(out, size, "%08x (%s, %d units, %s%d output bucket%s, scale %d)", (unsigned)net->hash,
             FeatureSetNames[net->feature_set], net->hidden, head, net->out_buckets, net->out_buckets == 1 ? "" : "s",
             net->scale);
}
