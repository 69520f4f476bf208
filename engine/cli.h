// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/* Command-line front: `tuong` (protocol loop), `tuong perft <d> [FEN]`,
 * `tuong bench [depth]`, `tuong --help`, `tuong --version`. Returns the
 * process exit code: 0 on success, 2 for bad arguments. */
int cli_main(int argc, char **argv);
