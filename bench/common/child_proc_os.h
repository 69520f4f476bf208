// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* The system part of child_proc used by its portable line buffering
 * (child_proc.c); child_proc_posix.c or child_proc_win.c defines it. */
#include "child_proc.h"

/* Read at most cap bytes of the child's stdout, waiting up to timeout_ms:
 * the count read, 0 at end of file, -1 if nothing came (yet). */
long child_os_read(ChildProc *c, char *dst, size_t cap, int timeout_ms);
/* Close our end of the child's stdout. */
void child_os_close_output(ChildProc *c);
/* Sleep about ms milliseconds. */
void child_os_sleep_ms(int ms);
