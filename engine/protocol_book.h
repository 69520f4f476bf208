// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The opening book at `go` (docs/book.md). A `go` that is to play a move
 * (clock, movetime, depth or nodes) is answered from the book when it is on
 * and knows the position: `info depth 0 ... pv <move>`, a message naming
 * the book move, then `bestmove <move> [ponder <reply>]`, with no search.
 * Analysis (`go infinite`), pondering, `go mate` and `searchmoves` always
 * search. Book moves are legal by construction (book_probe); banned moves
 * and moves that repeat an earlier position of the game are left out.
 */
#include <stdbool.h>

#include "position.h"
#include "protocol_options.h"
#include "protocol_parse.h"

/* Answer g from the book if it may; true when bestmove has been sent. pos
 * is only borrowed (moves are made and taken back). */
bool protocol_book_go(const ProtoSettings *s, Dialect d, int rank_base, Position *pos, const GoSpec *g,
                      const Move *banned, int ban_count);
