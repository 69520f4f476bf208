// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_reader.h"

#include <stdlib.h>
#include <string.h>

#include "sys.h"

static bool ensure(InputLine *line, size_t need) {
    if (need <= line->cap) return true;
    size_t cap = line->cap ? line->cap : 256;
    while (cap < need)
        cap *= 2;
    char *p = realloc(line->text, cap);
    if (!p) return false;
    line->text = p;
    line->cap = cap;
    return true;
}

bool reader_next(FILE *in, InputLine *line) {
    line->len = 0;
    line->has_nul = line->too_long = false;
    if (!ensure(line, 1)) return false;
    int c;
    bool any = false;
    sys_lock_file(in);
    while ((c = sys_getc_unlocked(in)) != EOF) {
        any = true;
        if (c == '\n') break;
        if (line->too_long) continue;
        if (c == '\0') line->has_nul = true;
        if (line->len + 1 >= READER_LINE_MAX || !ensure(line, line->len + 2)) {
            line->too_long = true;
            line->len = 0;
            continue;
        }
        line->text[line->len++] = (char)c;
    }
    sys_unlock_file(in);
    line->text[line->len] = '\0';
    return any;
}

void reader_free(InputLine *line) {
    free(line->text);
    line->text = NULL;
    line->len = line->cap = 0;
}
