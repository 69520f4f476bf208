// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#define TUONG_NAME "Tuong"
#define TUONG_VERSION "0.1.0"
#define TUONG_AUTHOR "The Tuong developers"
#define TUONG_COPYRIGHT "2026 The Tuong developers"
