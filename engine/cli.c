// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "nnue/nnue.h"
#include "perft.h"
#include "protocol.h"
#include "sys.h"
#include "version.h"

static const char Usage[] =
    "usage: tuong                  start the protocol loop (first command: ucci or uci)\n"
    "       tuong perft <depth> [FEN]  count move-generation leaves, per root move\n"
    "       tuong bench [depth]    search the benchmark positions\n"
    "       tuong --help | --version\n";

/* Parse a whole decimal number in [lo, hi]. */
static bool parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static int cli_perft(int argc, char **argv) {
    long depth;
    if (argc < 3 || !parse_int(argv[2], 0, 20, &depth)) {
        fprintf(stderr, "tuong: error: perft needs a depth from 0 to 20\n%s", Usage);
        return 2;
    }
    char fen[512] = "";
    for (int i = 3; i < argc; i++) {
        if (strlen(fen) + strlen(argv[i]) + 2 > sizeof fen) break;
        if (i > 3) strcat(fen, " ");
        strcat(fen, argv[i]);
    }
    static Position pos;
    char err[200];
    if (!fen_parse(&pos, argc > 3 ? fen : START_FEN, err, sizeof err)) {
        fprintf(stderr, "tuong: error: %s\n", err);
        return 2;
    }
    perft_divide(&pos, (int)depth, 0, stdout);
    return 0;
}

int cli_main(int argc, char **argv) {
    if (argc < 2) {
        sys_stdin_binary();
        return protocol_loop(stdin, stdout);
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(Usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v")) {
        printf("%s%s\n", version_text(), nnue_banner());
        return 0;
    }
    if (!strcmp(cmd, "perft")) return cli_perft(argc, argv);
    if (!strcmp(cmd, "bench")) return protocol_bench_command(argc > 2 ? argv[2] : NULL, stdout);
    fprintf(stderr, "tuong: error: unknown argument '%s'\n%s", cmd, Usage);
    return 2;
}
