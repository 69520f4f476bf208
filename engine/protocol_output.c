// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_output.h"

#include <pthread.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *Out;

void out_init(FILE *out) { Out = out; }

static void write_line(const char *prefix, const char *fmt, va_list ap) {
    pthread_mutex_lock(&Lock);
    fputs(prefix, Out);
    vfprintf(Out, fmt, ap);
    fputc('\n', Out);
    fflush(Out);
    pthread_mutex_unlock(&Lock);
}

void out_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    write_line("", fmt, ap);
    va_end(ap);
}

const char *out_info_prefix(Dialect d) { return d == DIALECT_UCCI ? "info message " : "info string "; }

void out_message(Dialect d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    write_line(out_info_prefix(d), fmt, ap);
    va_end(ap);
}

void out_error(Dialect d, const char *fmt, ...) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%serror: ", out_info_prefix(d));
    va_list ap;
    va_start(ap, fmt);
    write_line(prefix, fmt, ap);
    va_end(ap);
}

FILE *out_begin(void) {
    pthread_mutex_lock(&Lock);
    return Out;
}

void out_end(void) {
    fflush(Out);
    pthread_mutex_unlock(&Lock);
}
