// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-pgn: PGN utilities; `convert` rewrites games in another move
 * notation (docs/book.md, "Move notations"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

static const char Usage[] = "usage: tuong-pgn convert --to vn|wxf|iccs [--from auto|iccs|wxf|vn] FILE.pgn...\n"
                            "  writes the games to standard output with their moves in the notation asked\n"
                            "  for (vn: Vietnamese, P2-5 M8.7); each game's notation is detected unless\n"
                            "  --from says it; FILE '-' is standard input. Nothing is written unless\n"
                            "  every game converts.\n"
                            "       tuong-pgn --help\n";

static int usage_error(const char *what) {
    fprintf(stderr, "tuong-pgn: error: %s\n%s", what, Usage);
    return 2;
}

/* Convert every file into one memory buffer; out gets it all or nothing. */
static int convert_files(Conversion *c, int argc, char **argv, int first) {
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (!mem) {
        fprintf(stderr, "tuong-pgn: error: out of memory\n");
        return 1;
    }
    bool ok = true;
    for (int i = first; ok && i < argc; i++) {
        bool stdin_file = !strcmp(argv[i], "-");
        FILE *f = stdin_file ? stdin : fopen(argv[i], "r");
        if (!f) {
            snprintf(c->error, sizeof c->error, "cannot open '%s': %s", argv[i], strerror(errno));
            ok = false;
            break;
        }
        ok = convert_pgn(f, stdin_file ? "(stdin)" : argv[i], mem, c);
        if (!stdin_file) fclose(f);
    }
    ok &= fclose(mem) == 0;
    if (ok) {
        fwrite(text, 1, size, stdout);
        ok = fflush(stdout) == 0;
        if (!ok) snprintf(c->error, sizeof c->error, "cannot write the output: %s", strerror(errno));
    }
    free(text);
    if (!ok) {
        fprintf(stderr, "tuong-pgn: error: %s; nothing written\n", c->error[0] ? c->error : "out of memory");
        return 1;
    }
    if (c->dropped)
        fprintf(stderr, "tuong-pgn: note: %d variations or ';' comments left out (they are not converted)\n",
                c->dropped);
    return 0;
}

static int cmd_convert(int argc, char **argv) {
    Conversion c = {NOTATION_AUTO, NOTATION_AUTO, 0, 0, ""};
    int i = 2;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--to")) {
            if (!v || !notation_from_name(v, false, &c.to)) return usage_error("--to is vn, wxf or iccs");
        } else if (!strcmp(argv[i], "--from")) {
            if (!v || !notation_from_name(v, true, &c.from)) return usage_error("--from is auto, iccs, wxf or vn");
        } else {
            return usage_error("unknown option");
        }
    }
    if (c.to == NOTATION_AUTO) return usage_error("convert needs --to vn, wxf or iccs");
    if (i == argc) return usage_error("convert needs at least one PGN file");
    return convert_files(&c, argc, argv, i);
}

int main(int argc, char **argv) {
    engine_init();
    if (argc < 2) return usage_error("no command");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(Usage, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "convert")) return cmd_convert(argc, argv);
    return usage_error("unknown command");
}
