// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* The trainer's float kernels on their portable C path (train_simd_scalar.c). */
#include <stddef.h>
#include <stdint.h>

void scalar_train_sum_block2(float *dst0, float *dst1, const float *bias, const float *base, const int32_t *feature0,
                             const int32_t *feature1, int n, size_t H);
void scalar_train_gather_block(float *row, const int32_t *at, int n, const float *d);
void scalar_train_dot4(const float *w, const float *x, int n, float out[4]);
void scalar_train_stack_d_acc(float *d_acc, const float *acc, const float *w, const int *rows, const float *d, int m,
                              int n);
void scalar_train_dot16_t(const float *wt, const float *x, float *out);
float scalar_train_dot(const float *a, const float *b, int n);
void scalar_train_sqr_clamp(float *u, const float *acc, int n);
void scalar_train_axpy_gather_block(float *row, const float *d, const int32_t *at, int n, const float *x);
