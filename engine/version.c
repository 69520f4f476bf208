// SPDX-License-Identifier: GPL-3.0-or-later
#include "version.h"

/* git_commit.h is written at build time (engine/git_commit.cmake); builds
 * that do not make it (the fuzzing build) say "unknown". */
#if __has_include("git_commit.h")
#include "git_commit.h"
#else
#define TUONG_GIT_COMMIT "unknown"
#endif
/* The CPU target (native, x86-64, avx2), from CMake's TUONG_ARCH. */
#ifndef TUONG_FLAVOUR
#define TUONG_FLAVOUR "unknown"
#endif

#if defined(_WIN32)
#define TUONG_OS "windows"
#elif defined(__linux__)
#define TUONG_OS "linux"
#elif defined(__APPLE__)
#define TUONG_OS "macos"
#else
#define TUONG_OS "unix"
#endif

const char *version_text(void) {
    return TUONG_NAME " " TUONG_VERSION " (git " TUONG_GIT_COMMIT ", " TUONG_FLAVOUR ", " TUONG_OS ")";
}

const char *version_commit(void) { return TUONG_GIT_COMMIT; }
