// SPDX-License-Identifier: GPL-3.0-or-later
#include "sys.h"

#include <stdlib.h>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <windows.h>

void *sys_aligned_alloc(size_t align, size_t size) { return _aligned_malloc(size, align); }

void sys_aligned_free(void *p) { _aligned_free(p); }

unsigned long long sys_memory_bytes(void) {
    MEMORYSTATUSEX m = {.dwLength = sizeof m};
    return GlobalMemoryStatusEx(&m) ? (unsigned long long)m.ullTotalPhys : 0;
}

long sys_cpu_count(void) {
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return (long)n;
}

void sys_stdin_binary(void) { _setmode(_fileno(stdin), _O_BINARY); }

#else
#include <unistd.h>

void *sys_aligned_alloc(size_t align, size_t size) {
    /* aligned_alloc wants a multiple of the alignment. */
    return aligned_alloc(align, (size + align - 1) / align * align);
}

void sys_aligned_free(void *p) { free(p); }

unsigned long long sys_memory_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (unsigned long long)pages * (unsigned long long)size : 0;
}

long sys_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 0;
}

void sys_stdin_binary(void) {}
#endif
