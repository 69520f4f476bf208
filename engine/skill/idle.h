// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * UCCI `idle`: a search that leaves the processor to other programs. Each
 * search thread calls idle_pace() every few thousand nodes; once it has run
 * IDLE_SLICE_MS since its last rest it sleeps long enough that it runs
 * `duty` per mille of the wall time (grades.h). The clock keeps running
 * while it sleeps, so the search sees fewer nodes in its time; a `stop`
 * waits at most one rest (IDLE_SLICE_MS * 3 at idle large).
 */
enum { IDLE_SLICE_MS = 4, IDLE_DUTY_FULL = 1000 };

/* Rest, if due, for a thread that runs duty_permille of the time. */
void idle_pace(int duty_permille);
/* Milliseconds to rest after running busy_ms (capped at two slices, so a
 * stale start costs little) to keep a duty of duty_permille. */
int idle_rest_ms(int busy_ms, int duty_permille);
