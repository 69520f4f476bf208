// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong: command-line entry. Everything interesting lives in the modules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "position.h"

int main(int argc, char **argv) {
    engine_init();
    return cli_main(argc, argv);
}
