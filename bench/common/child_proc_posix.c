// SPDX-License-Identifier: GPL-3.0-or-later
/* child_proc on POSIX: fork and exec on two pipes, poll for output. */
#define _GNU_SOURCE /* pipe2, program_invocation_short_name, strsignal */
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

#include "child_proc_os.h"

enum { SHELL_COMMAND_MAX = 4096 };

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

bool child_spawn_command(ChildProc *c, const char *command, const char *dir, size_t buf_size, char *err,
                         size_t errlen) {
    char script[SHELL_COMMAND_MAX];
    if ((size_t)snprintf(script, sizeof script, "exec %s", command) >= sizeof script) {
        *c = (ChildProc){.in_fd = -1, .out_fd = -1};
        snprintf(err, errlen, "command longer than %d bytes", SHELL_COMMAND_MAX - 6);
        return false;
    }
    const char *argv[] = {"sh", "-c", script, NULL};
    return child_spawn(c, "/bin/sh", argv, dir, buf_size, err, errlen);
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

long child_os_read(ChildProc *c, char *dst, size_t cap, int timeout_ms) {
    struct pollfd p = {c->out_fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return -1;
    ssize_t got = read(c->out_fd, dst, cap);
    if (got < 0 && errno == EINTR) return -1;
    return got > 0 ? (long)got : 0;
}

void child_os_close_output(ChildProc *c) { close_fd(&c->out_fd); }

void child_os_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
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

void child_kill(ChildProc *c) {
    if (c->pid <= 0 || child_reap(c, false)) return;
    kill(c->pid, SIGKILL);
    child_reap(c, true);
}

void child_exit_text(const ChildProc *c, char *text, size_t size) {
    int st = c->wait_status;
    text[0] = '\0';
    if (!c->reaped) return;
    if (WIFEXITED(st))
        snprintf(text, size, "exited with status %d%s", WEXITSTATUS(st),
                 WEXITSTATUS(st) == 127 ? " (command not found?)" : "");
    else if (WIFSIGNALED(st))
        snprintf(text, size, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
}
