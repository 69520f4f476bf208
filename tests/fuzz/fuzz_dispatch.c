// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz whole protocol sessions: the input is a list of command lines fed
 * through the real dispatcher, reader thread and search thread
 * (protocol_loop), as a GUI would send them. Searches stay shallow because
 * end of input stops any search still running; the few commands that would
 * run long on their own (deep perft or bench, a huge hash, many threads,
 * batch mode waiting for an infinite search) are dropped before the run.
 *
 * protocol_loop() keeps its state in statics and is meant to run once per
 * process, so this file includes protocol.c to reset that state between
 * inputs (the fuzz core library leaves protocol.c out). */
#include "../../engine/protocol.c"

#include <strings.h>

#include "fuzz_common.h"

enum { SESSION_INPUT_MAX = 1 << 16, FUZZ_PERFT_MAX = 3, FUZZ_BENCH_MAX = 2, FUZZ_HASH_MAX = 16, FUZZ_THREADS_MAX = 4 };

static Command Check; /* large: not on the stack */

/* Would this line run for long whatever else comes? */
static bool too_slow(const char *line) {
    char err[256];
    for (int base = 0; base <= 1; base++) {
        if (proto_parse(line, base, &Check, err, sizeof err) == PARSE_ERROR) continue;
        switch (Check.type) {
        case CMD_PERFT:
            if (Check.u.depth > FUZZ_PERFT_MAX) return true;
            break;
        case CMD_BENCH:
            if (Check.u.depth == 0 || Check.u.depth > FUZZ_BENCH_MAX) return true;
            break;
        case CMD_SETOPTION: {
            const char *n = Check.u.option.name;
            long v = strtol(Check.u.option.value, NULL, 10);
            if (!strcasecmp(n, "batch")) return true;
            if ((!strcasecmp(n, "hashsize") || !strcasecmp(n, "hash")) && (v > FUZZ_HASH_MAX || v <= 0)) return true;
            if ((!strcasecmp(n, "threads")) && v > FUZZ_THREADS_MAX) return true;
            break;
        }
        default: break;
        }
    }
    return false;
}

/* Keep the lines of data that may run, each ending in a newline; returns
 * the length written to out and the number of lines in *lines. */
static size_t sanitize(const uint8_t *data, size_t size, char *out, size_t *lines) {
    static char line[SESSION_INPUT_MAX];
    size_t n = 0, start = 0;
    *lines = 0;
    while (start < size) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
        memcpy(line, data + start, len);
        line[len] = '\0';
        if (strlen(line) != len || !too_slow(line)) { /* a line with a NUL byte is refused unparsed */
            memcpy(out + n, data + start, len);
            n += len;
            out[n++] = '\n';
            ++*lines;
        }
        start += len + 1;
    }
    return n;
}

/* After protocol_loop() returned: let the reader run to end of input (it
 * waits for each line to be taken, and pushes `lines` lines and then an
 * end-of-input mark), then put every static back as at start-up. */
static void reset_dispatcher(size_t lines, const SearchOptions *initial) {
    pthread_mutex_lock(&P.lock);
    for (;;) {
        QueuedLine *l;
        while ((l = queue_pop(&P.input))) {
            free(l);
            P.handled++;
        }
        pthread_cond_broadcast(&P.cond);
        if (P.pushed == lines + 1) break;
        pthread_cond_wait(&P.cond, &P.lock);
    }
    pthread_mutex_unlock(&P.lock);
    FUZZ_CHECK(!P.pending.head && !P.thinking);
    /* Every field back to its start-up value, whatever fields P grows. */
    static const __typeof__(P) Fresh = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    P = Fresh;
    Options = *initial;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char session[2 * SESSION_INPUT_MAX];
    static SearchOptions initial;
    static FILE *sink;
    static bool ready;
    if (!ready) {
        fuzz_engine_init();
        initial = Options;
        initial.hash_mb = 1; /* each session allocates its table afresh: keep that cheap */
        sink = fopen("/dev/null", "w");
        FUZZ_CHECK(sink != NULL);
        ready = true;
    }
    if (size > SESSION_INPUT_MAX - 1) return 0;
    size_t lines;
    size_t n = sanitize(data, size, session, &lines);
    if (n == 0) return 0;
    FILE *in = fmemopen(session, n, "r");
    FUZZ_CHECK(in != NULL);
    Options = initial;
    FUZZ_CHECK(protocol_loop(in, sink) == 0);
    reset_dispatcher(lines, &initial);
    fclose(in);
    return 0;
}
