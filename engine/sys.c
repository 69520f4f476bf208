// SPDX-License-Identifier: GPL-3.0-or-later
#include "sys.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <windows.h>

void *sys_aligned_alloc(size_t align, size_t size) { return _aligned_malloc(size, align); }

void sys_aligned_free(void *p) { _aligned_free(p); }

/* Committed pages are zero and backed only when touched. Large pages need
 * a privilege users rarely have, so plain pages. */
void *sys_large_alloc(size_t size) { return VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE); }

void sys_large_free(void *p, size_t size) {
    (void)size;
    if (p) VirtualFree(p, 0, MEM_RELEASE);
}

unsigned long long sys_memory_bytes(void) {
    MEMORYSTATUSEX m = {.dwLength = sizeof m};
    return GlobalMemoryStatusEx(&m) ? (unsigned long long)m.ullTotalPhys : 0;
}

long sys_cpu_count(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return (long)n;
}

void sys_stdin_binary(void) { _setmode(_fileno(stdin), _O_BINARY); }

int sys_open_read(const char *path) { return _open(path, _O_RDONLY | _O_BINARY); }

void sys_sleep_ms(int ms) { Sleep(ms > 0 ? (DWORD)ms : 0); }

size_t sys_exe_path(char *out, size_t size) {
    DWORD n = GetModuleFileNameA(NULL, out, (DWORD)size);
    return n > 0 && n < size ? (size_t)n : 0;
}

#else
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void *sys_aligned_alloc(size_t align, size_t size) {
    /* aligned_alloc wants a multiple of the alignment. */
    return aligned_alloc(align, (size + align - 1) / align * align);
}

void sys_aligned_free(void *p) { free(p); }

enum { HUGE_PAGE_SIZE = 2 << 20 };

/* The mapping's length: whole huge pages from one huge page up, else whole
 * small pages, so that every part of it can be unmapped. */
static size_t large_length(size_t size) {
    size_t unit = size >= HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : 4096;
    return (size + unit - 1) / unit * unit;
}

/* Anonymous pages are zero and backed only when touched. A mapping one huge
 * page longer is trimmed to the first 2 MB boundary, since only aligned
 * 2 MB runs can become huge pages. */
void *sys_large_alloc(size_t size) {
    size_t length = large_length(size);
    if (length < size) return NULL;
    size_t slack = length >= HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : 0;
    if (length > SIZE_MAX - slack) return NULL;
    char *raw = mmap(NULL, length + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    if (!slack) return raw;
    size_t head = (HUGE_PAGE_SIZE - (uintptr_t)raw % HUGE_PAGE_SIZE) % HUGE_PAGE_SIZE;
    if (head) munmap(raw, head);
    if (slack - head) munmap(raw + head + length, slack - head);
#ifdef MADV_HUGEPAGE
    madvise(raw + head, length, MADV_HUGEPAGE); /* only a hint: plain pages if refused */
#endif
    return raw + head;
}

void sys_large_free(void *p, size_t size) {
    if (p) munmap(p, large_length(size));
}

unsigned long long sys_memory_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (unsigned long long)pages * (unsigned long long)size : 0;
}

long sys_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 0;
}

void sys_stdin_binary(void) {}

int sys_open_read(const char *path) { return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); }

void sys_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

size_t sys_exe_path(char *out, size_t size) {
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) return 0;
    out[n] = '\0';
    return (size_t)n;
}
#endif

uint64_t sys_entropy_seed(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 32;
}
