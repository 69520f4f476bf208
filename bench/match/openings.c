// SPDX-License-Identifier: GPL-3.0-or-later
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

static bool append(OpeningBook *book, const char *fen, int *cap) {
    if (book->count == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        void *p = realloc(book->fens, (size_t)ncap * sizeof *book->fens);
        if (!p) return false;
        book->fens = p;
        *cap = ncap;
    }
    snprintf(book->fens[book->count++], FEN_MAX, "%s", fen);
    return true;
}

bool openings_load(OpeningBook *book, const char *path, char *err, size_t errlen) {
    book->fens = NULL;
    book->count = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    static _Thread_local Position pos;
    char line[1024], why[200];
    int cap = 0, lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, ";\r\n")] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
        if (!*s || *s == '#') continue;
        if (!fen_parse(&pos, s, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: not a xiangqi position: %s", path, lineno, why);
            ok = false;
        } else if (!append(book, fen_write(&pos, why), &cap)) {
            snprintf(err, errlen, "%s: out of memory", path);
            ok = false;
        }
    }
    fclose(f);
    if (ok && book->count == 0) {
        snprintf(err, errlen, "%s: no positions in the file", path);
        ok = false;
    }
    if (!ok) openings_free(book);
    return ok;
}

void openings_startpos(OpeningBook *book) {
    int cap = 0;
    book->fens = NULL;
    book->count = 0;
    if (!append(book, START_FEN, &cap)) abort();
}

void openings_free(OpeningBook *book) {
    free(book->fens);
    book->fens = NULL;
    book->count = 0;
}

void openings_shuffle(OpeningBook *book, uint64_t seed) {
    uint64_t state = seed;
    char tmp[FEN_MAX];
    for (int i = book->count - 1; i > 0; i--) {
        int j = (int)(prng_next(&state) % (uint64_t)(i + 1));
        memcpy(tmp, book->fens[i], FEN_MAX);
        memcpy(book->fens[i], book->fens[j], FEN_MAX);
        memcpy(book->fens[j], tmp, FEN_MAX);
    }
}
