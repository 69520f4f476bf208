#pragma once
/* Helpers shared by the cmocka tests. cmocka needs these includes first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "position.h"

/* Parse a FEN that must be valid (fails the test otherwise). */
void must_parse(Position *pos, const char *fen);
/* Open a file of the shared reference data (fails the test if missing). */
FILE *open_data(const char *relative);
/* Is the sanitizer build running (tests shrink their node budgets)? */
int running_slow(void);
/* The twin of src with colours swapped and the board turned through the
 * river (src and dst must differ). */
void colour_mirror(const Position *src, Position *dst);
