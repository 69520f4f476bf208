/* Minimal loop until the full protocol front end lands. */
#include "protocol.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "perft.h"

int protocol_loop(FILE *in, FILE *out) {
    static Position pos;
    char err[200], line[4096];
    fen_parse(&pos, START_FEN, err, sizeof err);
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strcmp(line, "quit")) break;
        if (!strncmp(line, "go perft ", 9)) perft_divide(&pos, atoi(line + 9), 0, out);
        else if (!strncmp(line, "position fen ", 13) && !fen_parse(&pos, line + 13, err, sizeof err))
            fprintf(out, "info string error: %s\n", err);
        fflush(out);
    }
    return 0;
}

int protocol_bench_command(const char *depth, FILE *out) {
    (void)depth;
    fprintf(out, "bench: not yet\n");
    return 0;
}
