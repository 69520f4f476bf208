// SPDX-License-Identifier: GPL-3.0-or-later
/* child_proc's line buffering and waiting, the same on every system. */
#include "child_proc.h"

#include <stdlib.h>
#include <string.h>

#include "child_proc_os.h"

enum { WAIT_STEP_MS = 5, READ_MAX_MS = 1000000 };

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
        long got = child_os_read(c, c->buf + c->len, c->cap - c->len, left > READ_MAX_MS ? READ_MAX_MS : (int)left);
        if (got == 0)
            c->eof = true;
        else if (got > 0)
            c->len += (size_t)got;
        /* else nothing yet: the deadline decides */
    }
}

bool child_read_rest(ChildProc *c, char *line, size_t size) {
    if (!c->eof || !c->len) return false;
    take(c, line, size, c->len, 0);
    return true;
}

bool child_wait(ChildProc *c, int64_t deadline_ms) {
    for (;;) {
        if (child_reap(c, false)) return true;
        if (child_now_ms() >= deadline_ms) return false;
        child_os_sleep_ms(WAIT_STEP_MS);
    }
}

void child_close(ChildProc *c) {
    child_close_input(c);
    child_kill(c);
    child_os_close_output(c);
    free(c->buf);
    c->buf = NULL;
    c->len = c->cap = 0;
}
