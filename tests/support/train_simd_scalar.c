// SPDX-License-Identifier: GPL-3.0-or-later
/* The trainer's float kernels (bench/nnue/train_simd.h) built on their
 * portable C path, for tests/test_nnue_train_simd.c to compare with the
 * path the trainer is built with. */
#define TRAIN_FORCE_SCALAR 1
#include "train_simd_scalar.h"

#include "train_simd.h"

void scalar_train_sum_block2(float *dst0, float *dst1, const float *bias, const float *base, const int32_t *feature0,
                             const int32_t *feature1, int n, size_t H) {
    train_sum_block2(dst0, dst1, bias, base, feature0, feature1, n, H);
}

void scalar_train_gather_block(float *row, const int32_t *at, int n, const float *d) {
    train_gather_block(row, at, n, d);
}

void scalar_train_dot4(const float *w, const float *x, int n, float out[4]) { train_dot4(w, x, n, out); }

void scalar_train_stack_d_acc(float *d_acc, const float *acc, const float *w, const int *rows, const float *d, int m,
                              int n) {
    train_stack_d_acc(d_acc, acc, w, rows, d, m, n);
}

void scalar_train_dot16_t(const float *wt, const float *x, float *out) { train_dot16_t(wt, x, out); }

float scalar_train_dot(const float *a, const float *b, int n) { return train_dot(a, b, n); }

void scalar_train_sqr_clamp(float *u, const float *acc, int n) { train_sqr_clamp(u, acc, n); }

void scalar_train_axpy_gather_block(float *row, const float *d, const int32_t *at, int n, const float *x) {
    train_axpy_gather_block(row, d, at, n, x);
}
