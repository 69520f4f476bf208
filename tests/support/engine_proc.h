// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * End-to-end test helper: run the built `tuong` binary on pipes, write
 * lines to it and wait for replies with timeouts, so a hung engine fails a
 * test instead of hanging ctest. The process and pipe plumbing is
 * bench/common/child_proc.[ch] (shared with tuong-match); this header adds
 * what tests want on top: cmocka failures with the engine's last lines,
 * expectations on lines, exit codes. Header-only (static functions).
 *
 * Include after test_support.h (cmocka).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "child_proc.h"

enum { ENG_BUF = 1 << 20, ENG_LINE = 1 << 16, ENG_LOG = 12 };

typedef struct {
    ChildProc proc;         /* the engine's process and pipes (proc.eof: its output closed) */
    char log[ENG_LOG][200]; /* the last lines seen, for failure messages */
    int log_n;
    int exit_code;
} Engine;

static inline void eng_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

/* Timeouts stretch in sanitizer/debug builds. */
static inline int eng_slow(int ms) {
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
    return ms * 3;
#else
    return ms;
#endif
}

/* Start tuong with extra arguments (NULL-terminated list after the binary);
 * with shell_prefix, through `sh -c "<prefix> exec tuong"` (e.g. a ulimit). */
static inline void eng_start_full(Engine *e, const char *const *args, const char *shell_prefix) {
    signal(SIGPIPE, SIG_IGN);
    memset(e, 0, sizeof *e);
    e->exit_code = -1;
    const char *path = TUONG_BINARY, *argv[16] = {TUONG_BINARY}; /* NULL-terminated */
    char script[1024], err[200];
    if (shell_prefix) {
        snprintf(script, sizeof script, "%s exec '%s'", shell_prefix, TUONG_BINARY);
        path = "/bin/sh";
        argv[0] = "sh";
        argv[1] = "-c";
        argv[2] = script;
    } else {
        for (int n = 1; args && args[n - 1] && n < 15; n++)
            argv[n] = args[n - 1];
    }
    if (!child_spawn(&e->proc, path, argv, NULL, ENG_BUF, err, sizeof err)) fail_msg("starting tuong: %s", err);
}

static inline void eng_start_args(Engine *e, const char *const *args) { eng_start_full(e, args, NULL); }

static inline void eng_start(Engine *e) { eng_start_full(e, NULL, NULL); }

/* Write raw bytes (may hold NULs). */
static inline void eng_write(Engine *e, const char *data, size_t len) {
    if (!child_write(&e->proc, data, len)) fail_msg("engine stdin closed while writing");
}

/* Write one line; the newline is added. */
static inline void eng_send(Engine *e, const char *fmt, ...) {
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        fail_msg("eng_send: line too long (%d bytes); use eng_write", n);
        return;
    }
    line[n] = '\n';
    eng_write(e, line, (size_t)n + 1);
}

static inline void eng_close_input(Engine *e) { child_close_input(&e->proc); }

static inline void eng_log(Engine *e, const char *line) {
    char *slot = e->log[e->log_n % ENG_LOG];
    size_t n = strlen(line) < sizeof e->log[0] - 1 ? strlen(line) : sizeof e->log[0] - 1;
    memcpy(slot, line, n);
    slot[n] = '\0';
    e->log_n++;
}

static inline void eng_dump(const Engine *e) {
    int first = e->log_n > ENG_LOG ? e->log_n - ENG_LOG : 0;
    print_message("last engine lines:\n");
    for (int i = first; i < e->log_n; i++)
        print_message("  | %s\n", e->log[i % ENG_LOG]);
}

/* Next line within timeout_ms, into line; false on timeout or EOF. */
static inline bool eng_read_line(Engine *e, char *line, size_t size, int timeout_ms) {
    ChildRead r = child_read_line(&e->proc, line, size, child_now_ms() + timeout_ms);
    if (r == CHILD_OVERFLOW) fail_msg("engine line longer than %d bytes", ENG_BUF);
    if (r != CHILD_LINE) return false;
    eng_log(e, line);
    return true;
}

/* Skip lines until one starts with prefix; fails the test on timeout. The
 * matching line is copied to out if given. */
static inline void eng_expect(Engine *e, const char *prefix, int timeout_ms, char *out, size_t size) {
    char line[ENG_LINE];
    int64_t deadline = child_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - child_now_ms();
        if (left < 0 || !eng_read_line(e, line, sizeof line, (int)left)) {
            eng_dump(e);
            fail_msg("no line starting with '%s' within %d ms", prefix, timeout_ms);
        }
        if (!strncmp(line, prefix, strlen(prefix))) {
            if (out) snprintf(out, size, "%s", line);
            return;
        }
    }
}

/* Is there a line starting with prefix before the one starting with stop? */
static inline bool eng_seen_before(Engine *e, const char *prefix, const char *stop, int timeout_ms) {
    char line[ENG_LINE];
    bool seen = false;
    int64_t deadline = child_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - child_now_ms();
        if (left < 0 || !eng_read_line(e, line, sizeof line, (int)left)) {
            eng_dump(e);
            fail_msg("no line starting with '%s' within %d ms", stop, timeout_ms);
        }
        if (!strncmp(line, prefix, strlen(prefix))) seen = true;
        if (!strncmp(line, stop, strlen(stop))) return seen;
    }
}

/* No line starting with prefix arrives within ms (others are skipped). */
/* Send isready and count the lines starting with prefix before readyok. */
static inline int eng_count_until_ready(Engine *e, const char *prefix, int timeout_ms) {
    char line[ENG_LINE];
    int n = 0;
    eng_send(e, "isready");
    for (;;) {
        if (!eng_read_line(e, line, sizeof line, timeout_ms)) fail_msg("no readyok");
        if (!strcmp(line, "readyok")) return n;
        if (!strncmp(line, prefix, strlen(prefix))) n++;
    }
}

static inline void eng_expect_none(Engine *e, const char *prefix, int ms) {
    char line[ENG_LINE];
    int64_t deadline = child_now_ms() + ms;
    for (;;) {
        int64_t left = deadline - child_now_ms();
        if (left <= 0 || !eng_read_line(e, line, sizeof line, (int)left)) return;
        if (!strncmp(line, prefix, strlen(prefix))) {
            eng_dump(e);
            fail_msg("unexpected line '%s'", line);
        }
    }
}

/* Round trip: isready, then everything up to readyok is skipped. */
static inline void eng_sync(Engine *e) {
    eng_send(e, "isready");
    eng_expect(e, "readyok", eng_slow(5000), NULL, 0);
}

/* Wait until any search has ended and been joined: `d` is held while the
 * engine thinks and runs after it. */
static inline void eng_settle(Engine *e) {
    eng_send(e, "d");
    eng_expect(e, "Fen: ", eng_slow(20000), NULL, 0);
}

/* Wait for the process to exit; its exit code, or -1 if it had to be killed. */
static inline int eng_wait(Engine *e, int timeout_ms) {
    if (child_wait(&e->proc, child_now_ms() + timeout_ms)) {
        int status = e->proc.wait_status;
        e->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    } else {
        child_kill(&e->proc);
        e->exit_code = -1;
    }
    return e->exit_code;
}

/* Close everything; kills the engine if it is still running. */
static inline void eng_finish(Engine *e) { child_close(&e->proc); }

/* Start the engine in a dialect and read its handshake. */
static inline void eng_start_dialect(Engine *e, const char *dialect) {
    eng_start(e);
    eng_send(e, "%s", dialect);
    eng_expect(e, !strcmp(dialect, "ucci") ? "ucciok" : "uciok", eng_slow(5000), NULL, 0);
}
