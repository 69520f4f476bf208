// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong: command-line entry. Everything interesting lives in the modules.
 * Compiled for the x86-64 baseline (engine/cpu.h): the CPU check comes
 * first. */
#include "cli.h"
#include "cpu.h"
#include "position.h"

int main(int argc, char **argv) {
    cpu_require();
    engine_init();
    return cli_main(argc, argv);
}
