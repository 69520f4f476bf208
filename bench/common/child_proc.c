// SPDX-License-Identifier: GPL-3.0-or-later
#define _GNU_SOURCE /* pipe2, program_invocation_short_name */
#include "child_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { POLL_STEP_MS = 5, POLL_MAX_MS = 1000000 };

int64_t child_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* In the child: the pipes become stdin and stdout (the pipes' own
 * descriptors are close-on-exec), then dir, then the program. */
static void exec_child(int in_fd, int out_fd, const char *path, const char *const argv[], const char *dir) {
    if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0) _exit(127);
    if (dir && dir[0] && chdir(dir)) {
        fprintf(stderr, "%s: cannot enter %s: %s\n", program_invocation_short_name, dir, strerror(errno));
        _exit(126);
    }
    execv(path, (char *const *)argv);
    _exit(127);
}

bool child_spawn(ChildProc *c, const char *path, const char *const argv[], const char *dir, size_t buf_size, char *err,
                 size_t errlen) {
    *c = (ChildProc){.in_fd = -1, .out_fd = -1};
    int to_child[2] = {-1, -1}, from_child[2] = {-1, -1};
    const char *failed = NULL;
    if (!(c->buf = malloc(buf_size)))
        failed = "malloc";
    else if (pipe2(to_child, O_CLOEXEC) || pipe2(from_child, O_CLOEXEC))
        failed = "pipe";
    else if ((c->pid = fork()) < 0)
        failed = "fork";
    if (failed) {
        snprintf(err, errlen, "%s: %s", failed, strerror(errno));
        for (int i = 0; i < 2; i++) {
            close_fd(&to_child[i]);
            close_fd(&from_child[i]);
        }
        free(c->buf);
        *c = (ChildProc){.in_fd = -1, .out_fd = -1};
        return false;
    }
    if (c->pid == 0) exec_child(to_child[0], from_child[1], path, argv, dir);
    close(to_child[0]);
    close(from_child[1]);
    c->in_fd = to_child[1];
    c->out_fd = from_child[0];
    c->cap = buf_size;
    return true;
}

bool child_write(ChildProc *c, const char *data, size_t len) {
    while (len) {
        ssize_t w = write(c->in_fd, data, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        data += w;
        len -= (size_t)w;
    }
    return true;
}

/* Move the first n bytes of buf into line (cut to size - 1) and drop skip
 * more (the newline). */
static void take(ChildProc *c, char *line, size_t size, size_t n, size_t skip) {
    size_t copy = n < size - 1 ? n : size - 1;
    memcpy(line, c->buf, copy);
    line[copy] = '\0';
    memmove(c->buf, c->buf + n + skip, c->len - n - skip);
    c->len -= n + skip;
}

ChildRead child_read_line(ChildProc *c, char *line, size_t size, int64_t deadline_ms) {
    if (!c->buf) return CHILD_EOF; /* closed */
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            take(c, line, size, (size_t)(nl - c->buf), 1);
            return CHILD_LINE;
        }
        if (c->len == c->cap) return CHILD_OVERFLOW;
        if (c->eof) return CHILD_EOF;
        int64_t left = deadline_ms - child_now_ms();
        if (left <= 0) return CHILD_TIMEOUT;
        struct pollfd p = {c->out_fd, POLLIN, 0};
        if (poll(&p, 1, left > POLL_MAX_MS ? POLL_MAX_MS : (int)left) <= 0) continue; /* the deadline decides */
        ssize_t got = read(c->out_fd, c->buf + c->len, c->cap - c->len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            c->eof = true;
        else
            c->len += (size_t)got;
    }
}

bool child_read_rest(ChildProc *c, char *line, size_t size) {
    if (!c->eof || !c->len) return false;
    take(c, line, size, c->len, 0);
    return true;
}

void child_close_input(ChildProc *c) { close_fd(&c->in_fd); }

bool child_reap(ChildProc *c, bool block) {
    if (c->pid <= 0 || c->reaped) return true;
    int st;
    pid_t r;
    while ((r = waitpid(c->pid, &st, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
        continue;
    if (r == c->pid) {
        c->reaped = true;
        c->wait_status = st;
    }
    return c->reaped;
}

bool child_wait(ChildProc *c, int64_t deadline_ms) {
    for (;;) {
        if (child_reap(c, false)) return true;
        if (child_now_ms() >= deadline_ms) return false;
        struct timespec ts = {0, POLL_STEP_MS * 1000000L};
        nanosleep(&ts, NULL);
    }
}

void child_kill(ChildProc *c) {
    if (c->pid <= 0 || child_reap(c, false)) return;
    kill(c->pid, SIGKILL);
    child_reap(c, true);
}

void child_close(ChildProc *c) {
    child_close_input(c);
    child_kill(c);
    close_fd(&c->out_fd);
    free(c->buf);
    c->buf = NULL;
    c->len = c->cap = 0;
}
