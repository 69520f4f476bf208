// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* The net file linked into the binary at build time (engine/CMakeLists.txt
 * picks engine/nnue/default.nnue, or -DTUONG_EVALFILE=...). */
#include <stddef.h>

/* Its bytes and size, or NULL if the build embedded none. */
const unsigned char *nnue_embedded_data(size_t *size);
