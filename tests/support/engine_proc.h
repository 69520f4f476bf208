#pragma once
/*
 * End-to-end test helper: run the built `tuong` binary on pipes, write
 * lines to it and wait for replies with timeouts (poll), so a hung engine
 * fails a test instead of hanging ctest. Header-only (static functions) so
 * each tests/test_e2e_*.c gets it without a CMake change.
 *
 * Include after test_support.h (cmocka).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ENG_BUF = 1 << 20, ENG_LINE = 1 << 16, ENG_LOG = 12 };

typedef struct {
    pid_t pid;
    int to, from; /* engine's stdin (write end), stdout (read end) */
    char *buf;    /* bytes read, not yet returned as lines */
    size_t len;
    bool eof;
    char log[ENG_LOG][200]; /* the last lines seen, for failure messages */
    int log_n;
    int exit_code;
} Engine;

static inline int64_t eng_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
    int in[2], out[2];
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) || pipe(out)) fail_msg("pipe failed");
    memset(e, 0, sizeof *e);
    e->exit_code = -1;
    e->pid = fork();
    if (e->pid < 0) fail_msg("fork failed");
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        const char *argv[16] = {TUONG_BINARY};
        int n = 1;
        for (; args && args[n - 1] && n < 15; n++)
            argv[n] = args[n - 1];
        argv[n] = NULL;
        if (shell_prefix) {
            char script[1024];
            snprintf(script, sizeof script, "%s exec '%s'", shell_prefix, TUONG_BINARY);
            execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        } else {
            execv(TUONG_BINARY, (char *const *)argv);
        }
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    e->from = out[0];
    e->buf = malloc(ENG_BUF);
}

static inline void eng_start_args(Engine *e, const char *const *args) { eng_start_full(e, args, NULL); }

static inline void eng_start(Engine *e) { eng_start_full(e, NULL, NULL); }

/* Write raw bytes (may hold NULs). */
static inline void eng_write(Engine *e, const char *data, size_t len) {
    while (len) {
        ssize_t n = write(e->to, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail_msg("engine stdin closed while writing");
        data += n, len -= (size_t)n;
    }
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

static inline void eng_close_input(Engine *e) {
    if (e->to >= 0) close(e->to);
    e->to = -1;
}

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
    int64_t deadline = eng_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t c = n < size - 1 ? n : size - 1;
            memcpy(line, e->buf, c);
            line[c] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            eng_log(e, line);
            return true;
        }
        if (e->eof) return false;
        int64_t left = deadline - eng_now_ms();
        if (left <= 0) return false;
        struct pollfd p = {e->from, POLLIN, 0};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        if (e->len == ENG_BUF) fail_msg("engine line longer than %d bytes", ENG_BUF);
        ssize_t got = read(e->from, e->buf + e->len, ENG_BUF - e->len);
        if (got <= 0)
            e->eof = true;
        else
            e->len += (size_t)got;
    }
}

/* Skip lines until one starts with prefix; fails the test on timeout. The
 * matching line is copied to out if given. */
static inline void eng_expect(Engine *e, const char *prefix, int timeout_ms, char *out, size_t size) {
    char line[ENG_LINE];
    int64_t deadline = eng_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - eng_now_ms();
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
    int64_t deadline = eng_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - eng_now_ms();
        if (left < 0 || !eng_read_line(e, line, sizeof line, (int)left)) {
            eng_dump(e);
            fail_msg("no line starting with '%s' within %d ms", stop, timeout_ms);
        }
        if (!strncmp(line, prefix, strlen(prefix))) seen = true;
        if (!strncmp(line, stop, strlen(stop))) return seen;
    }
}

/* No line starting with prefix arrives within ms (others are skipped). */
static inline void eng_expect_none(Engine *e, const char *prefix, int ms) {
    char line[ENG_LINE];
    int64_t deadline = eng_now_ms() + ms;
    for (;;) {
        int64_t left = deadline - eng_now_ms();
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
    int64_t deadline = eng_now_ms() + timeout_ms;
    int status;
    for (;;) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid) {
            e->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            break;
        }
        if (eng_now_ms() > deadline) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
            e->exit_code = -1;
            break;
        }
        eng_sleep_ms(5);
    }
    return e->exit_code;
}

/* Close everything; kills the engine if it is still running. */
static inline void eng_finish(Engine *e) {
    eng_close_input(e);
    if (e->exit_code == -1 && e->pid > 0) {
        int status;
        if (waitpid(e->pid, &status, WNOHANG) == 0) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
        }
    }
    close(e->from);
    free(e->buf);
    e->buf = NULL;
    e->pid = 0;
}

/* Start the engine in a dialect and read its handshake. */
static inline void eng_start_dialect(Engine *e, const char *dialect) {
    eng_start(e);
    eng_send(e, "%s", dialect);
    eng_expect(e, !strcmp(dialect, "ucci") ? "ucciok" : "uciok", eng_slow(5000), NULL, 0);
}
