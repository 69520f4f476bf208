// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The books behind UCCI `bookfiles` / UCI `BookFile`: up to BOOK_SET_MAX
 * files separated by ';' (the UCCI rule), consulted in order; the first
 * that has a legal move for the position answers. A relative path that
 * does not exist from the working directory is looked for next to the
 * engine's binary, where ElephantEye keeps its BOOK.DAT.
 */
#include <stdbool.h>

#include "book.h"

enum { BOOK_SET_MAX = 8 };

typedef struct {
    int count;
    Book *books[BOOK_SET_MAX];
} BookSet;

/* Receives one line per file: what was loaded, or why it was not. */
typedef void (*BookReport)(void *ctx, bool error, const char *text);

/* Replace the set with the books of a ';'-separated list (empty: none).
 * Each file that cannot be used is reported once and left out. */
void book_set_load(BookSet *set, const char *list, BookReport report, void *ctx);
void book_set_clear(BookSet *set);
/* The moves of the first book that has any for pos; returns out->count. */
int book_set_probe(const BookSet *set, const Position *pos, BookMoves *out);
