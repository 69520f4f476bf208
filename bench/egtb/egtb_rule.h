// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The chess facts xiangqitb's rule loop rests on (docs/egtb.md, "What
 * xiangqitb calls an attack (a chase)"): which captures are attacks, which
 * quiet moves escape an attack, which attacks a quiet move creates, and
 * whether a move gives check. They follow xiangqitb's definitions
 * (Position::is_move_attack, is_move_evasion, the escape test of
 * gen_legal_capture_evasions, attack_bb_after_quiet_move, is_move_check),
 * not the engine's repetition judge (engine/repetition.c), whose chase test
 * is close but not the same: the tables must come out index for index as
 * xiangqitb's.
 *
 * Every function may make and take back moves on pos and leaves it as it
 * was; pos needs room in its history for three more plies.
 */
#include <stdbool.h>

#include "bitboard.h"
#include "move.h"
#include "position.h"

/* Is the side to move's capture m an attack (a chase) in xiangqitb's sense?
 * false for a move that is not a pseudo-legal capture. A capture that would
 * leave the mover's king to a new attacker (a pinned attacker) is none; a
 * check already on that king is ignored. */
bool egtb_rule_is_attack(Position *pos, Move m);

/* The side to move's attacks (list reset first). */
void egtb_rule_attacks(Position *pos, MoveList *list);

/* The points of the side to move's pieces that quiet move m rescues from an
 * attack of the other side (is_move_evasion); 0 when m escapes nothing.
 * The attacked piece moving along the attacking line is no escape. */
Bitboard egtb_rule_escape(Position *pos, Move m);

/* The other side's attacks as if it were to move (null move): the threats
 * a quiet move of the side to move can escape. They depend on pos alone,
 * so a caller testing many moves of one position computes them once and
 * passes them to the _from forms below, which give what egtb_rule_escape
 * and egtb_rule_marking_escape give (those compute the list each call). */
void egtb_rule_threats(Position *pos, MoveList *list);
Bitboard egtb_rule_escape_from(Position *pos, Move m, const MoveList *th);

/* The first marking's escape test (the moves gen_legal_capture_evasions
 * returns): as egtb_rule_escape, except that the attacked piece moving
 * along the attacking line is tested again on its new point. The side to
 * move must not be in check. */
bool egtb_rule_marking_escape(Position *pos, Move m);
bool egtb_rule_marking_escape_from(Position *pos, Move m, const MoveList *th);

/* The points the side to move attacks anew after its quiet move m
 * (attack_bb_after_quiet_move): by the moved piece unless it slid along the
 * line it attacks on; by another piece when m opened its line, leg or eye
 * or gave it a screen; or else when the same capture was no attack before
 * m. */
Bitboard egtb_rule_new_attacks(Position *pos, Move m);

/* Does the side to move's legal move m give check, as xiangqitb's
 * is_move_check says? That is every check but one kind: a move whose only
 * check is by the mover's cannon, screened by the moved piece itself, is
 * none (a flaw of xiangqitb's test that its tables carry). */
bool egtb_rule_gives_check(Position *pos, Move m);
