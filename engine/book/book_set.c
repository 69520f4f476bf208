// SPDX-License-Identifier: GPL-3.0-or-later
#include "book_set.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys.h"

enum { BOOK_PATH_MAX = 4096 };

void book_set_clear(BookSet *set) {
    for (int i = 0; i < set->count; i++)
        book_close(set->books[i]);
    set->count = 0;
}

/* path as given if it exists or is absolute, else beside the binary when
 * there is one there. */
static void resolve(const char *path, char *out, size_t len) {
    snprintf(out, len, "%s", path);
    if (path[0] == '/' || access(path, F_OK) == 0) return;
    char exe[BOOK_PATH_MAX];
    size_t n = sys_exe_path(exe, sizeof exe);
    char *slash = NULL;
    for (size_t i = 0; i < n; i++)
        if (sys_is_separator(exe[i])) slash = exe + i;
    if (!slash) return;
    size_t dir = (size_t)(slash + 1 - exe), name = strlen(path);
    char beside[BOOK_PATH_MAX];
    if (dir + name + 1 > sizeof beside || dir + name + 1 > len) return;
    memcpy(beside, exe, dir);
    memcpy(beside + dir, path, name + 1);
    if (access(beside, F_OK) == 0) memcpy(out, beside, dir + name + 1);
}

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t lead = strspn(s, " \t");
    memmove(s, s + lead, n - lead + 1);
}

static void load_one(BookSet *set, const char *name, BookReport report, void *ctx) {
    char path[BOOK_PATH_MAX], text[BOOK_PATH_MAX + 256];
    if (set->count == BOOK_SET_MAX) {
        snprintf(text, sizeof text, "more than %d book files; '%.200s' left out", BOOK_SET_MAX, name);
        report(ctx, true, text);
        return;
    }
    resolve(name, path, sizeof path);
    Book *b = book_open(path, text, sizeof text);
    if (!b) {
        report(ctx, true, text);
        return;
    }
    set->books[set->count++] = b;
    snprintf(text, sizeof text, "book '%s': %s, %zu entries", path, book_format_name(book_format(b)),
             book_entry_count(b));
    report(ctx, false, text);
}

void book_set_load(BookSet *set, const char *list, BookReport report, void *ctx) {
    book_set_clear(set);
    char buf[BOOK_PATH_MAX];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *name = strtok_r(buf, ";", &save); name; name = strtok_r(NULL, ";", &save)) {
        trim(name);
        if (*name) load_one(set, name, report, ctx);
    }
}

int book_set_probe(const BookSet *set, const Position *pos, BookMoves *out) {
    out->count = 0;
    for (int i = 0; i < set->count && !out->count; i++)
        book_probe(set->books[i], pos, out);
    return out->count;
}
