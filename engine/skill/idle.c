// SPDX-License-Identifier: GPL-3.0-or-later
/* The idle duty cycle of the search threads (idle.h). */
#include "skill/idle.h"

#include <stdint.h>
#include <time.h>

#include "sys.h"

static int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int idle_rest_ms(int busy_ms, int duty_permille) {
    if (duty_permille >= IDLE_DUTY_FULL || busy_ms <= 0) return 0;
    if (duty_permille < 1) duty_permille = 1;
    if (busy_ms > 2 * IDLE_SLICE_MS) busy_ms = 2 * IDLE_SLICE_MS;
    return busy_ms * (IDLE_DUTY_FULL - duty_permille) / duty_permille;
}

void idle_pace(int duty_permille) {
    static _Thread_local int64_t busy_since; /* search threads are new for every search */
    int64_t now = monotonic_ms();
    if (!busy_since) busy_since = now;
    int busy = (int)(now - busy_since);
    if (busy < IDLE_SLICE_MS) return;
    int rest = idle_rest_ms(busy, duty_permille);
    if (rest > 0) sys_sleep_ms(rest);
    busy_since = monotonic_ms();
}
