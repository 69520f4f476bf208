// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * A child process on two pipes: the parent writes the child's stdin and
 * reads its stdout as lines, each read bounded by a deadline; the child's
 * stderr is inherited. Shared by tuong-match (bench/match/engine.c) and the
 * end-to-end tests (tests/support/engine_proc.h), which keep their own
 * protocol and their own way of reporting failures.
 *
 * child_proc.c holds the line buffering; child_proc_posix.c (fork, pipes,
 * poll) and child_proc_win.c (CreateProcess, an overlapped named pipe for
 * the child's output) the system part.
 *
 * Deadlines are absolute milliseconds on child_now_ms()'s clock.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
#ifdef _WIN32
    void *process;            /* HANDLE of the child (NULL if it never started) */
    void *in_pipe, *out_pipe; /* HANDLEs: its stdin (we write), its stdout (we read); NULL once closed */
    void *read_event;         /* HANDLE signalled when an overlapped read completes */
    bool killed;              /* ended by child_kill */
#else
    pid_t pid;         /* the child's id (0 if it never started) */
    int in_fd, out_fd; /* the child's stdin (we write), its stdout (we read); -1 once closed */
#endif
    bool reaped;     /* waited for: wait_status is valid and the child must not be killed */
    int wait_status; /* POSIX: waitpid's status; Windows: the exit code, once reaped */
    char *buf;       /* bytes read from the child's stdout, not yet returned as lines */
    size_t len, cap;
    bool eof; /* the child's stdout has reached end of file */
} ChildProc;

typedef enum { CHILD_TIMEOUT = 0, CHILD_LINE = 1, CHILD_EOF = -1, CHILD_OVERFLOW = -2 } ChildRead;

/* Monotonic milliseconds: the clock of every deadline here. */
int64_t child_now_ms(void);
/* Start path with argv (NULL-terminated; argv[0] is the program's name)
 * with stdin and stdout on pipes, in dir when dir is non-empty; buf_size
 * bounds one line. False with a message in err if no process could be
 * started. POSIX: a failed exec shows as exit status 127, a failed chdir as
 * 126. */
bool child_spawn(ChildProc *c, const char *path, const char *const argv[], const char *dir, size_t buf_size, char *err,
                 size_t errlen);
/* Start a command line as the user typed it: `sh -c "exec COMMAND"` on
 * POSIX, CreateProcess's own parsing on Windows. */
bool child_spawn_command(ChildProc *c, const char *command, const char *dir, size_t buf_size, char *err,
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
/* Kill the child (SIGKILL, TerminateProcess) unless it has ended, and reap it. */
void child_kill(ChildProc *c);
/* Close both pipes, kill the child if it still runs, free the buffer. */
void child_close(ChildProc *c);
/* Once reaped: how the child ended, e.g. "exited with status 3" or
 * "killed by signal 9 (Killed)"; "" before. */
void child_exit_text(const ChildProc *c, char *text, size_t size);
