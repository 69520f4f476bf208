// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* TUONG_VERSION is the one place of the version number: CMakeLists.txt
 * reads it from here for the project and the package names. */
#define TUONG_NAME "Tuong"
#define TUONG_VERSION "0.1.0"
#define TUONG_AUTHOR "The Tuong developers"
#define TUONG_COPYRIGHT "2026 The Tuong developers"

/* "Tuong 0.1.0 (git 1a2b3c4d, avx2, windows)": the name, the version, the
 * commit built, the CPU target and the system; `tuong --version` and the
 * protocols' `id name` print it. */
const char *version_text(void);
/* The git commit built: "1a2b3c4d", "1a2b3c4d-dirty" when tracked files
 * had changed, or "unknown" (engine/git_commit.cmake). */
const char *version_commit(void);
