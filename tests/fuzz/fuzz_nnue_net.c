// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the net file reader (engine/nnue/nnue_net.c), versions 1, 2 and 3.
 * Random bytes almost never carry a valid size and hash, so the input
 * steers the making of a file instead: a few bytes choose the header's
 * fields (valid ones mostly, any value sometimes), the payload is filled
 * from the rest, the hash is made right or not, the size cut or padded.
 * Whatever nnue_net_parse() accepts is then run through the kernels on
 * accumulators taken from the input: under UBSan an int32 sum that can
 * overflow (a bias the reader should have refused) stops the run. */
#include <stdbool.h>

#include "fuzz_common.h"
#include "nnue/nnue_arch.h"
#include "nnue/nnue_kernels.h"
#include "nnue/nnue_net.h"

enum { CONTROL_BYTES = 12 };

static void put_u32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Random int32 biases are beyond the reader's bound half the time, and a
 * net has 49 of them per output bucket: unless told not to, bring every
 * stack bias within +-2^29 so that the kernels get to run. */
static void tame_biases(unsigned char *file, size_t n, int fs, int hidden, int buckets) {
    size_t p = NNUE_HEADER_SIZE_STACK + (size_t)nnue_input_count(fs) * (size_t)hidden * 2 + (size_t)hidden * 2;
    for (int b = 0; b < buckets; b++) {
        size_t l1_b = p + (size_t)NNUE_L1 * 2 * (size_t)hidden, l2_b = l1_b + 4 * NNUE_L1 + NNUE_L2 * NNUE_L1;
        size_t l3_b = l2_b + 4 * NNUE_L2 + NNUE_L2;
        for (size_t at = l1_b; at < l1_b + 4 * NNUE_L1; at += 4)
            if (at + 4 <= n) file[at + 3] = (unsigned char)((int8_t)file[at + 3] >> 3);
        for (size_t at = l2_b; at < l2_b + 4 * NNUE_L2; at += 4)
            if (at + 4 <= n) file[at + 3] = (unsigned char)((int8_t)file[at + 3] >> 3);
        if (l3_b + 4 <= n) file[l3_b + 3] = (unsigned char)((int8_t)file[l3_b + 3] >> 3);
        p += nnue_stack_bytes(hidden);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < CONTROL_BYTES + 1) return 0;
    const uint8_t *c = data, *fill = data + CONTROL_BYTES;
    const size_t fill_n = size - CONTROL_BYTES;
    const bool stack = c[0] & 1, raw = (c[0] & 0xE0) == 0xE0; /* raw: any field values */
    const bool skip = stack && (c[0] & 2);                    /* version 3: the stack and the output layer */
    const int version = skip ? NNUE_VERSION_SKIP : stack ? NNUE_VERSION_STACK : NNUE_VERSION;
    uint32_t fields[10] = {(uint32_t)version,
                           c[1] % 8 ? NNUE_FS_PLAIN : NNUE_FS_KING_BUCKETS,
                           (uint32_t)NNUE_HIDDEN_MIN + NNUE_HIDDEN_STEP * (c[2] % 2),
                           c[3] & 1 ? 1u : NNUE_OUT_BUCKETS_MAX,
                           NNUE_QA,
                           NNUE_QB,
                           1u + c[4] * 40u,
                           0,
                           NNUE_L1,
                           NNUE_L2};
    if (raw) fields[c[5] % 10] = get_u32(c + 6);
    const size_t header = nnue_header_bytes(version);
    const bool shape_ok = fields[1] < NNUE_FS_NB && fields[2] >= NNUE_HIDDEN_MIN && fields[2] <= NNUE_HIDDEN_MAX &&
                          fields[2] % NNUE_HIDDEN_STEP == 0 && fields[3] >= 1 && fields[3] <= NNUE_OUT_BUCKETS_MAX;
    size_t want =
        header + (shape_ok ? nnue_payload_bytes_v((int)fields[1], (int)fields[2], (int)fields[3], version) : 64);
    /* The size: exact, one byte short, one too many, or half. */
    size_t n = c[10] % 4 == 0 ? want - 1 : c[10] % 4 == 1 ? want + 1 : c[10] % 4 == 2 ? want / 2 : want;
    unsigned char *file = malloc(n);
    if (!file) return 0;
    for (size_t i = header; i < n; i++)
        file[i] = fill[(i - header) % fill_n];
    if (stack && shape_ok && !(c[11] & 2)) tame_biases(file, n, (int)fields[1], (int)fields[2], (int)fields[3]);
    memcpy(file, NNUE_MAGIC, 8);
    if (n >= header) fields[7] = nnue_fnv1a(NNUE_FNV_SEED, file + header, n - header);
    if (c[11] & 1) fields[7] ^= 1; /* a wrong hash */
    for (size_t i = 0; i < (header - 8) / 4 && 8 + 4 * i + 4 <= n; i++)
        put_u32(file + 8 + 4 * i, fields[i]);
    NnueNet net;
    char err[300];
    if (nnue_net_parse(&net, file, n, err, sizeof err)) {
        FUZZ_CHECK(net.hidden == (int)fields[2] && net.stack == stack && net.skip == skip);
        int16_t us[NNUE_HIDDEN_MAX], them[NNUE_HIDDEN_MAX];
        for (int i = 0; i < net.hidden; i++) {
            us[i] = (int16_t)(fill[(2 * i) % fill_n] | fill[(2 * i + 1) % fill_n] << 8);
            them[i] = (int16_t)(fill[(3 * i) % fill_n] * 3 - 200);
        }
        for (int b = 0; b < net.out_buckets; b++) {
            if (net.stack) {
                int64_t eval = nnue_stack_scale(nnue_k_dense(us, them, net.hidden, &net.dense[b]), net.scale);
                (void)eval;
            }
            if (!net.stack || net.skip) {
                int32_t sum = nnue_k_output(us, them, net.out_weights + (size_t)b * 2 * (size_t)net.hidden, net.hidden);
                (void)nnue_output_scale(sum, net.out_bias[b], net.scale);
            }
        }
        nnue_net_free(&net);
    } else {
        FUZZ_CHECK(err[0] != '\0');
        FUZZ_CHECK(net.memory == NULL);
    }
    free(file);
    return 0;
}
