// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * A child process on two pipes: the parent writes the child's stdin and
 * reads its stdout as lines, each read bounded by a deadline; the child's
 * stderr is inherited. Shared by tuong-match (bench/match/engine.c) and the
 * end-to-end tests (tests/support/engine_proc.h), which keep their own
 * protocol and their own way of reporting failures.
 *
 * Deadlines are absolute milliseconds on child_now_ms()'s clock.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;         /* the child's id (0 if it never started) */
    bool reaped;       /* waited for: wait_status is valid and pid must not be signalled */
    int wait_status;   /* waitpid's status once reaped */
    int in_fd, out_fd; /* the child's stdin (we write), its stdout (we read); -1 once closed */
    char *buf;         /* bytes read from out_fd, not yet returned as lines */
    size_t len, cap;
    bool eof; /* out_fd has reached end of file */
} ChildProc;

typedef enum { CHILD_TIMEOUT = 0, CHILD_LINE = 1, CHILD_EOF = -1, CHILD_OVERFLOW = -2 } ChildRead;

/* Monotonic milliseconds: the clock of every deadline here. */
int64_t child_now_ms(void);
/* Fork and execv(path, argv) (argv NULL-terminated) with stdin and stdout on
 * pipes, in dir when dir is non-empty; buf_size bounds one line. False with a
 * message in err if no process could be started (a failed exec shows as exit
 * status 127, a failed chdir as 126). */
bool child_spawn(ChildProc *c, const char *path, const char *const argv[], const char *dir, size_t buf_size, char *err,
                 size_t errlen);
/* Write all len bytes to the child's stdin; false once it is closed. */
bool child_write(ChildProc *c, const char *data, size_t len);
/* The next line (without its newline, cut to size - 1) before the deadline.
 * CHILD_OVERFLOW: buf_size bytes without a newline; they stay in buf. */
ChildRead child_read_line(ChildProc *c, char *line, size_t size, int64_t deadline_ms);
/* After CHILD_EOF: the output's last bytes if they ended without a newline. */
bool child_read_rest(ChildProc *c, char *line, size_t size);
/* Close the child's stdin (it reads end of file). */
void child_close_input(ChildProc *c);
/* Has the child ended (or never started)? Waits for it when block is set. */
bool child_reap(ChildProc *c, bool block);
/* Wait for the child to end until the deadline; false if it still runs. */
bool child_wait(ChildProc *c, int64_t deadline_ms);
/* SIGKILL the child unless it has ended, and reap it. */
void child_kill(ChildProc *c);
/* Close both pipes, kill the child if it still runs, free the buffer. */
void child_close(ChildProc *c);
