// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The options Tuong advertises in each dialect, and setoption. Options of
 * the search go to the global SearchOptions (search.h); those of the
 * protocol stay in ProtoSettings. Names match case-insensitively in either
 * dialect's spelling (`hashsize` and `Hash` alike); unknown options are
 * ignored (UCCI silently, UCI with a message).
 */
#include <stdbool.h>

#include "book/book_set.h"
#include "protocol_parse.h"
#include "protocol_verdict.h"

/* Move notation of the UCI dialect: ICCS ranks 0..9 (Pikafish, XBoard via
 * uci2wb) or the Fairy-Stockfish ranks 1..10, chosen by the `Notation`
 * option. Setting UCI_Variant does not switch: uci2wb sets it and still
 * sends ranks 0..9. UCCI is always ICCS. */
typedef enum { NOTATION_ICCS = 0, NOTATION_FAIRY } Notation;

typedef struct {
    bool usemillisec, batch, debug, ponder, useegtb, promotion;
    /* The book is on by default in UCCI (its spec says so) and off in UCI
     * (OwnBook's convention) until the GUI sets usebook/OwnBook. */
    bool usebook, usebook_set;
    int randomness; /* 0..3: none, small, medium, large */
    BookSet books;  /* from bookfiles / BookFile */
    VerdictRules verdict;
    Notation notation;
} ProtoSettings;

/* What the dispatcher must do after setoption. */
typedef enum { OPTION_DONE = 0, OPTION_NEWGAME } OptionAction;

/* Defaults (also the state after start-up). */
void options_defaults(ProtoSettings *s);
/* Print the `option ...` lines of dialect d. */
void options_print(Dialect d);
/* Apply one setoption; reports bad values through out_error(). */
OptionAction options_set(ProtoSettings *s, Dialect d, const char *name, const char *value, bool has_value);
/* Rank base of move text in dialect d: 0 (a0..i9) or 1 (a1..i10). */
int options_rank_base(const ProtoSettings *s, Dialect d);
/* Is the opening book on in dialect d? */
bool options_use_book(const ProtoSettings *s, Dialect d);
