// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The few services that differ between POSIX systems and Windows (mingw-w64
 * with POSIX threads, where pthreads and clock_gettime exist but sysconf,
 * aligned_alloc and flockfile do not). Everything else in the engine is
 * plain C17 + pthreads.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* size bytes aligned to align (a power of two); release with sys_aligned_free. */
void *sys_aligned_alloc(size_t align, size_t size);
void sys_aligned_free(void *p);
/* size bytes of zeroed memory for a large table probed at random (the
 * transposition table): pages are given only when first touched; on Linux
 * 2 MB aligned and marked for transparent huge pages, so that probes miss
 * the TLB far less. Release with sys_large_free and the same size. */
void *sys_large_alloc(size_t size);
void sys_large_free(void *p, size_t size);
/* Physical memory in bytes, 0 if unknown. */
unsigned long long sys_memory_bytes(void);
/* Processors online, 0 if unknown. */
long sys_cpu_count(void);
/* Read stdin as bytes: on Windows text mode would turn a stray Ctrl-Z
 * into end of input; the line reader handles CRLF itself. */
void sys_stdin_binary(void);
/* open() a file for reading bytes: never blocking on a FIFO and not
 * inherited (POSIX), binary mode (Windows); -1 with errno on failure. */
int sys_open_read(const char *path);
/* A seed that differs from process to process and run to run (the clock and
 * the process id), for choices meant to vary: book moves, weaker levels. */
uint64_t sys_entropy_seed(void);
/* Sleep for ms milliseconds (the search's idle option). */
void sys_sleep_ms(int ms);
/* The running program's own path into out; its length, 0 if unknown. */
size_t sys_exe_path(char *out, size_t size);
/* Is c a directory separator ('/', and on Windows also a backslash)? */
static inline bool sys_is_separator(char c) {
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
#endif
}

/* Whole-line reads without a lock per character. */
#ifdef _WIN32
static inline void sys_lock_file(FILE *f) { _lock_file(f); }
static inline void sys_unlock_file(FILE *f) { _unlock_file(f); }
static inline int sys_getc_unlocked(FILE *f) { return _getc_nolock(f); }
#else
static inline void sys_lock_file(FILE *f) { flockfile(f); }
static inline void sys_unlock_file(FILE *f) { funlockfile(f); }
static inline int sys_getc_unlocked(FILE *f) { return getc_unlocked(f); }
#endif
