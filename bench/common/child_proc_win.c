// SPDX-License-Identifier: GPL-3.0-or-later
/* child_proc on Windows: CreateProcess with the child's stdin on an
 * anonymous pipe and its stdout on a named pipe opened for overlapped reads,
 * so a read can wait with a timeout (anonymous pipes cannot). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "child_proc_os.h"

enum { COMMAND_LINE_MAX = 32768, PIPE_BUFFER = 1 << 16 };

/* Pipe handles are inheritable only between their creation and
 * CreateProcess; one spawn at a time keeps another thread's child from
 * inheriting them (it would hold our pipe open and hide the EOF). */
static SRWLOCK SpawnLock = SRWLOCK_INIT;
static volatile LONG PipeSerial;

int64_t child_now_ms(void) {
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (!freq.QuadPart) QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (int64_t)(now.QuadPart / freq.QuadPart * 1000 + now.QuadPart % freq.QuadPart * 1000 / freq.QuadPart);
}

static void close_handle(void **h) {
    if (*h) CloseHandle(*h);
    *h = NULL;
}

static void fail(ChildProc *c, char *err, size_t errlen, const char *what) {
    snprintf(err, errlen, "%s failed (Windows error %lu)", what, (unsigned long)GetLastError());
    close_handle(&c->in_pipe);
    close_handle(&c->out_pipe);
    close_handle(&c->read_event);
    free(c->buf);
    *c = (ChildProc){0};
}

/* Start a process from a complete command line (modified by CreateProcess). */
static bool start(ChildProc *c, char *cmdline, const char *dir, size_t buf_size, char *err, size_t errlen) {
    *c = (ChildProc){0};
    if (!(c->buf = malloc(buf_size))) return fail(c, err, errlen, "malloc"), false;
    c->cap = buf_size;
    if (!(c->read_event = CreateEventA(NULL, TRUE, FALSE, NULL))) return fail(c, err, errlen, "CreateEvent"), false;
    char name[96];
    snprintf(name, sizeof name, "\\\\.\\pipe\\tuong-child-%lu-%ld", (unsigned long)GetCurrentProcessId(),
             (long)InterlockedIncrement(&PipeSerial));
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
    HANDLE child_in = NULL, child_out = INVALID_HANDLE_VALUE;
    AcquireSRWLockExclusive(&SpawnLock);
    c->out_pipe = CreateNamedPipeA(name, PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
                                   PIPE_TYPE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, 1, PIPE_BUFFER,
                                   PIPE_BUFFER, 0, NULL);
    if (c->out_pipe == INVALID_HANDLE_VALUE) c->out_pipe = NULL;
    if (c->out_pipe)
        child_out = CreateFileA(name, GENERIC_WRITE, 0, &inherit, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    bool piped = c->out_pipe && child_out != INVALID_HANDLE_VALUE && CreatePipe(&child_in, &c->in_pipe, &inherit, 0) &&
                 SetHandleInformation(c->in_pipe, HANDLE_FLAG_INHERIT, 0);
    PROCESS_INFORMATION pi = {0};
    STARTUPINFOA si = {.cb = sizeof si, .dwFlags = STARTF_USESTDHANDLES};
    si.hStdInput = child_in;
    si.hStdOutput = child_out;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    bool started = piped && CreateProcessA(NULL, cmdline, NULL, NULL, TRUE, 0, NULL, dir && dir[0] ? dir : NULL, &si, &pi);
    DWORD error = GetLastError();
    if (child_in) CloseHandle(child_in);
    if (child_out != INVALID_HANDLE_VALUE) CloseHandle(child_out);
    ReleaseSRWLockExclusive(&SpawnLock);
    if (!started) {
        SetLastError(error);
        return fail(c, err, errlen, piped ? "CreateProcess" : "pipe"), false;
    }
    CloseHandle(pi.hThread);
    c->process = pi.hProcess;
    return true;
}

/* A command line being built; full once something did not fit. */
typedef struct {
    char *text;
    size_t len, size;
    bool full;
} CommandLine;

static void put(CommandLine *l, char ch) {
    if (l->len + 1 >= l->size) {
        l->full = true;
        return;
    }
    l->text[l->len++] = ch;
    l->text[l->len] = '\0';
}

/* Append arg quoted the way the C runtime splits a command line:
 * backslashes are literal except before a quote. */
static void append_arg(CommandLine *l, const char *arg) {
    bool plain = arg[0] && !strpbrk(arg, " \t\"");
    if (l->len) put(l, ' ');
    if (!plain) put(l, '"');
    for (const char *p = arg;; p++) {
        size_t slashes = 0;
        while (*p == '\\')
            p++, slashes++;
        bool before_quote = !plain && (*p == '"' || !*p);
        for (size_t i = 0; i < (before_quote ? 2 * slashes : slashes); i++)
            put(l, '\\');
        if (!*p) break;
        if (*p == '"') put(l, '\\');
        put(l, *p);
    }
    if (!plain) put(l, '"');
}

bool child_spawn(ChildProc *c, const char *path, const char *const argv[], const char *dir, size_t buf_size, char *err,
                 size_t errlen) {
    CommandLine l = {.text = malloc(COMMAND_LINE_MAX), .size = COMMAND_LINE_MAX};
    if (!l.text) {
        *c = (ChildProc){0};
        snprintf(err, errlen, "out of memory");
        return false;
    }
    l.text[0] = '\0';
    append_arg(&l, path);
    for (int i = 1; argv[i]; i++)
        append_arg(&l, argv[i]);
    bool ok = !l.full && start(c, l.text, dir, buf_size, err, errlen);
    if (l.full) {
        *c = (ChildProc){0};
        snprintf(err, errlen, "command line longer than %d bytes", COMMAND_LINE_MAX);
    }
    free(l.text);
    return ok;
}

bool child_spawn_command(ChildProc *c, const char *command, const char *dir, size_t buf_size, char *err,
                         size_t errlen) {
    char *copy = _strdup(command);
    if (!copy) {
        *c = (ChildProc){0};
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = start(c, copy, dir, buf_size, err, errlen);
    free(copy);
    return ok;
}

bool child_write(ChildProc *c, const char *data, size_t len) {
    while (len) {
        DWORD w = 0;
        if (!c->in_pipe || !WriteFile(c->in_pipe, data, len > 1 << 20 ? 1 << 20 : (DWORD)len, &w, NULL) || !w)
            return false;
        data += w;
        len -= w;
    }
    return true;
}

long child_os_read(ChildProc *c, char *dst, size_t cap, int timeout_ms) {
    if (!c->out_pipe) return 0;
    OVERLAPPED ov = {.hEvent = c->read_event};
    DWORD got = 0, size = cap > 1 << 20 ? 1 << 20 : (DWORD)cap;
    ResetEvent(c->read_event);
    if (!ReadFile(c->out_pipe, dst, size, NULL, &ov)) {
        if (GetLastError() != ERROR_IO_PENDING) return 0; /* broken pipe: the child closed its output */
        if (WaitForSingleObject(c->read_event, (DWORD)timeout_ms) != WAIT_OBJECT_0) CancelIoEx(c->out_pipe, &ov);
    }
    /* Wait for the read (finished or cancelled) before ov goes out of scope. */
    if (!GetOverlappedResult(c->out_pipe, &ov, &got, TRUE)) return GetLastError() == ERROR_OPERATION_ABORTED ? -1 : 0;
    return got ? (long)got : -1;
}

void child_os_close_output(ChildProc *c) {
    close_handle(&c->out_pipe);
    close_handle(&c->read_event);
    close_handle(&c->process);
}

void child_os_sleep_ms(int ms) { Sleep((DWORD)ms); }

void child_close_input(ChildProc *c) { close_handle(&c->in_pipe); }

bool child_reap(ChildProc *c, bool block) {
    if (!c->process || c->reaped) return true;
    if (WaitForSingleObject(c->process, block ? INFINITE : 0) != WAIT_OBJECT_0) return false;
    DWORD code = 0;
    GetExitCodeProcess(c->process, &code);
    c->wait_status = (int)code;
    c->reaped = true;
    return true;
}

void child_kill(ChildProc *c) {
    if (!c->process || child_reap(c, false)) return;
    TerminateProcess(c->process, 1);
    c->killed = true;
    child_reap(c, true);
}

void child_exit_text(const ChildProc *c, char *text, size_t size) {
    unsigned code = (unsigned)c->wait_status;
    text[0] = '\0';
    if (!c->reaped) return;
    if (c->killed)
        snprintf(text, size, "was killed");
    else if (code >= 0xC0000000u) /* an NTSTATUS: access violation, stack overflow, ... */
        snprintf(text, size, "crashed with exception 0x%08X", code);
    else
        snprintf(text, size, "exited with status %u", code);
}
