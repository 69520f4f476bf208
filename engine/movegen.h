// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Move generation. The pseudo-legal generators follow every piece rule
 * (palace, river, eye, leg, screen) but may leave the own king attacked;
 * pos_move_is_safe() settles that cheaply. The legal generators filter.
 * Captures and quiet moves are separate so the search can stage them.
 */
#include "move.h"
#include "position.h"

/* Append pseudo-legal captures / non-captures of the side to move. */
void gen_pseudo_captures(const Position *pos, MoveList *list);
void gen_pseudo_quiets(const Position *pos, MoveList *list);

/* Legal captures, legal non-captures, and all legal moves (list reset first). */
void gen_captures(const Position *pos, MoveList *list);
void gen_quiets(const Position *pos, MoveList *list);
void gen_legal(const Position *pos, MoveList *list);
/* Number of legal moves, without building a list the caller keeps. */
int gen_count_legal(const Position *pos);

/* Is m a legal move in pos (any 16-bit value is accepted, e.g. from the TT)? */
bool move_is_legal(const Position *pos, Move m);
/* Is m a pseudo-legal move in pos (piece rules only)? */
bool move_is_pseudo_legal(const Position *pos, Move m);
