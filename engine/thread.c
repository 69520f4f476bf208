// SPDX-License-Identifier: GPL-3.0-or-later
#include "thread.h"

#include <stdlib.h>
#include <string.h>

#include "sys.h"

enum { MAX_THREADS = 256 };

static SearchThread *Threads[MAX_THREADS];
static int Count;

static void clear_thread(SearchThread *t) {
    memset(t->history, 0, sizeof t->history);
    memset(t->low_ply, 0, sizeof t->low_ply);
    memset(t->capture, 0, sizeof t->capture);
    memset(t->counter, 0, sizeof t->counter);
    memset(t->cont, 0, sizeof t->cont);
    memset(&t->correction, 0, sizeof t->correction);
}

bool threads_resize(int n) {
    if (n < 1) n = 1;
    if (n > MAX_THREADS) n = MAX_THREADS;
    for (int i = Count; i < n; i++) {
        SearchThread *t = sys_aligned_alloc(64, sizeof(SearchThread));
        if (!t) {
            for (int j = Count; j < i; j++) sys_aligned_free(Threads[j]);
            return false;
        }
        memset(t, 0, sizeof *t);
        t->id = i;
        Threads[i] = t;
    }
    for (int i = n; i < Count; i++) {
        sys_aligned_free(Threads[i]);
        Threads[i] = NULL;
    }
    Count = n;
    return true;
}

int threads_count(void) { return Count; }

SearchThread *thread_at(int i) { return Threads[i]; }

/* Helpers whose pthread exists: one that could not be created (no memory
 * for its stack) simply does not search, and must not be joined. */
static bool Launched[MAX_THREADS];

void threads_launch_helpers(void *(*fn)(void *)) {
    for (int i = 1; i < Count; i++) Launched[i] = pthread_create(&Threads[i]->handle, NULL, fn, Threads[i]) == 0;
}

void threads_join_helpers(void) {
    for (int i = 1; i < Count; i++)
        if (Launched[i]) {
            pthread_join(Threads[i]->handle, NULL);
            Launched[i] = false;
        }
}

void threads_clear(void) {
    for (int i = 0; i < Count; i++) clear_thread(Threads[i]);
}

void threads_free(void) {
    for (int i = 0; i < Count; i++) {
        sys_aligned_free(Threads[i]);
        Threads[i] = NULL;
    }
    Count = 0;
}

uint64_t threads_nodes(void) {
    uint64_t n = 0;
    for (int i = 0; i < Count; i++) n += thread_nodes(Threads[i]);
    return n;
}

uint64_t threads_tbhits(void) {
    uint64_t n = 0;
    for (int i = 0; i < Count; i++) n += atomic_load_explicit(&Threads[i]->tbhits, memory_order_relaxed);
    return n;
}
