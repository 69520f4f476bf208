// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * xiangqitb's rule-loop chess facts on the engine's Position (egtb_rule.h).
 * Our own code, written from its definitions; tuong-egtb rulefacts prints
 * every fact for a stream of positions so a harness built from xiangqitb
 * can print the same and diff (docs/egtb.md, "Rule loop in Tuong").
 */
#include "egtb_rule.h"

#include "attacks.h"
#include "movegen.h"

/* The pieces attacking colour c's king, the facing king included. */
static Bitboard king_attackers(const Position *pos, Color c) {
    return pos_attackers_to(pos, pos->king_sq[c], (Color)!c);
}

/* Is the side to move's pseudo-legal non-king move m legal once a check
 * already on its king is ignored: does m bring no new attacker onto that
 * king? xiangqitb tests an attacking capture with its not-in-check legality
 * test, which only looks at the lines and horse legs m opens, so a piece
 * pinned to its king does not attack, but one whose king is already in
 * check does (its source: "giving checks are not considered evasions of
 * existing attacks"). */
static bool legal_ignoring_check(Position *pos, Move m) {
    Color us = pos->side;
    Bitboard before = king_attackers(pos, us);
    pos_make_move(pos, m);
    Bitboard after = king_attackers(pos, us);
    pos_unmake_move(pos);
    return !(after & ~before);
}

/* Can the side to move legally capture on point s? This is what makes a
 * piece protected (xiangqitb's is_square_attacked); fully legal, so a
 * protector pinned to its king or whose king is in check after the capture
 * does not protect. The king protects only by a step: a king on the same
 * open file "attacks" s in pos_attackers_to but never captures there. */
static bool can_recapture(const Position *pos, Square s) {
    Color us = pos->side;
    Bitboard king = pos_pieces(pos, us, KING);
    Bitboard from = pos_attackers_to(pos, s, us);
    if (!(KingSteps[s] & king)) from &= ~king;
    while (from) {
        Square f = bb_pop_lsb(&from);
        if (pos_move_is_safe_slow(pos, make_move(f, s))) return true;
    }
    return false;
}

/* After capture m, can the owner of the captured piece take back on its
 * point? */
static bool protected_after(Position *pos, Move m) {
    pos_make_move(pos, m);
    bool r = can_recapture(pos, move_to(m));
    pos_unmake_move(pos);
    return r;
}

/* Could the attacked piece capture its attacker first (were it its turn)?
 * Then a capture by a piece of the same kind is an offer to exchange, not
 * an attack. The way back is a legal move for a chariot or a cannon (the
 * same line, the same screen); a horse's needs its own leg free.
 * Legality here ignores a check, as for the attacker. */
static bool can_take_back(Position *pos, Move m) {
    Move back = make_move(move_to(m), move_from(m));
    pos_make_null(pos);
    bool r = move_is_pseudo_legal(pos, back) && legal_ignoring_check(pos, back);
    pos_unmake_null(pos);
    return r;
}

bool egtb_rule_is_attack(Position *pos, Move m) {
    Square to = move_to(m);
    Piece cap = pos->board[to];
    if (!cap || type_of(cap) == KING || !move_is_pseudo_legal(pos, m)) return false;
    PieceType by = type_of(pos->board[move_from(m)]);
    /* Kings and pawns never chase. */
    if (by == KING || by == PAWN) return false;
    if (!legal_ignoring_check(pos, m)) return false;
    switch (type_of(cap)) {
    case ROOK:
        /* A chariot is worth more than a horse or a cannon: attacked by
         * them even when protected. */
        if (by == HORSE || by == CANNON) return true;
        if (by == ROOK && can_take_back(pos, m)) return false;
        return !protected_after(pos, m);
    case HORSE:
    case CANNON:
        if (by == type_of(cap) && can_take_back(pos, m)) return false;
        return !protected_after(pos, m);
    case PAWN:
        /* A pawn on its own side of the river is not chased. */
        if (OwnHalfBB[color_of(cap)] & square_bb(to)) return false;
        return !protected_after(pos, m);
    case ADVISOR:
    case ELEPHANT: return !protected_after(pos, m);
    default: return false;
    }
}

void egtb_rule_attacks(Position *pos, MoveList *list) {
    MoveList caps;
    caps.count = 0;
    gen_pseudo_captures(pos, &caps);
    list->count = 0;
    for (int i = 0; i < caps.count; i++)
        if (egtb_rule_is_attack(pos, caps.moves[i])) list->moves[list->count++] = caps.moves[i];
}

void egtb_rule_threats(Position *pos, MoveList *list) {
    pos_make_null(pos);
    egtb_rule_attacks(pos, list);
    pos_unmake_null(pos);
}

/* Do a and b both run along a file, or both along a rank? A piece that
 * moves along the line it is attacked on (or attacks on) stays on that
 * line, so xiangqitb counts no escape (no new attack) for it
 * (moves_chain is the negation). */
static bool same_line_kind(Move a, Move b) {
    Square af = move_from(a), at = move_to(a), bf = move_from(b), bt = move_to(b);
    return (file_of(af) == file_of(at) && file_of(bf) == file_of(bt)) ||
           (rank_of(af) == rank_of(at) && rank_of(bf) == rank_of(bt));
}

/* Is capture a (of the side not to move) still an attack after the side to
 * move plays quiet move m? */
static bool attack_survives(Position *pos, Move m, Move a) {
    pos_make_move(pos, m);
    bool r = egtb_rule_is_attack(pos, a);
    pos_unmake_move(pos);
    return r;
}

Bitboard egtb_rule_escape(Position *pos, Move m) {
    MoveList th;
    egtb_rule_threats(pos, &th);
    return egtb_rule_escape_from(pos, m, &th);
}

Bitboard egtb_rule_escape_from(Position *pos, Move m, const MoveList *th) {
    Bitboard rescued = 0;
    for (int i = 0; i < th->count; i++) {
        Move a = th->moves[i];
        if (move_to(a) == move_from(m)) {
            if (!same_line_kind(a, m)) rescued |= square_bb(move_to(m));
        } else if (!attack_survives(pos, m, a)) {
            rescued |= square_bb(move_to(a));
        }
    }
    return rescued;
}

bool egtb_rule_marking_escape(Position *pos, Move m) {
    MoveList th;
    egtb_rule_threats(pos, &th);
    return egtb_rule_marking_escape_from(pos, m, &th);
}

bool egtb_rule_marking_escape_from(Position *pos, Move m, const MoveList *th) {
    for (int i = 0; i < th->count; i++) {
        Move a = th->moves[i];
        if (move_to(a) == move_from(m)) {
            if (!same_line_kind(a, m)) return true;
            /* Along the line: the attacker may no longer reach it there,
             * or it may have become protected. */
            if (!attack_survives(pos, m, make_move(move_from(a), move_to(m)))) return true;
        } else if (!attack_survives(pos, m, a)) {
            return true;
        }
    }
    return false;
}

/* Is x on the segment from a to b, ends included (coordinates along one
 * line)? */
static bool on_segment(int x, int a, int b) { return (x - b) * (a - x) >= 0; }

/* Does move `first` make the later move `second` possible by the shape of
 * the board alone: its from-point was between second's ends on second's
 * line (a line opened, or a cannon screen left) and it did not come back
 * there, or it landed between them (a cannon screen placed), or it was
 * second's horse leg or elephant eye? xiangqitb's moves_connect. Only a
 * shortcut: every capture it accepts was not even a pseudo-legal capture
 * before `first` (a blocked line or leg, zero or two screens), so the
 * "was it an attack before" test that follows would count it new too. */
static bool moves_connect(Move first, Move second) {
    Square af = move_from(first), at = move_to(first), bf = move_from(second), bt = move_to(second);
    if (file_of(bf) == file_of(bt)) {
        int f = file_of(bf);
        bool from_on = file_of(af) == f && on_segment(rank_of(af), rank_of(bf), rank_of(bt));
        bool to_on = file_of(at) == f && on_segment(rank_of(at), rank_of(bf), rank_of(bt));
        if (file_of(af) == file_of(at) ? from_on && !to_on : from_on || to_on) return true;
    }
    if (rank_of(bf) == rank_of(bt)) {
        int r = rank_of(bf);
        bool from_on = rank_of(af) == r && on_segment(file_of(af), file_of(bf), file_of(bt));
        bool to_on = rank_of(at) == r && on_segment(file_of(at), file_of(bf), file_of(bt));
        if (rank_of(af) == rank_of(at) ? from_on && !to_on : from_on || to_on) return true;
    }
    int df = file_of(bt) - file_of(bf), dr = rank_of(bt) - rank_of(bf);
    int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    /* A horse step: the leg is next to the horse, on the long side. */
    if (adf + adr == 3 && adf && adr) {
        Square leg =
            adf == 2 ? make_square(file_of(bf) + df / 2, rank_of(bf)) : make_square(file_of(bf), rank_of(bf) + dr / 2);
        if (leg == af) return true;
    }
    /* An elephant step (only elephants move two points diagonally). */
    if (adf == 2 && adr == 2 && make_square(file_of(bf) + df / 2, rank_of(bf) + dr / 2) == af) return true;
    return false;
}

Bitboard egtb_rule_new_attacks(Position *pos, Move m) {
    MoveList now;
    pos_make_move(pos, m);
    pos_make_null(pos);
    egtb_rule_attacks(pos, &now);
    pos_unmake_null(pos);
    pos_unmake_move(pos);
    Bitboard fresh = 0;
    for (int i = 0; i < now.count; i++) {
        Move a = now.moves[i];
        if (move_from(a) == move_to(m)) {
            if (!same_line_kind(m, a)) fresh |= square_bb(move_to(a));
        } else if (moves_connect(m, a) || !egtb_rule_is_attack(pos, a)) {
            fresh |= square_bb(move_to(a));
        }
    }
    return fresh;
}

/* Is point x strictly between a and b on one rank or file? */
static bool strictly_between(Square x, Square a, Square b) {
    if (x == a || x == b) return false;
    if (file_of(a) == file_of(b)) return file_of(x) == file_of(a) && on_segment(rank_of(x), rank_of(a), rank_of(b));
    return rank_of(a) == rank_of(b) && rank_of(x) == rank_of(a) && on_segment(file_of(x), file_of(a), file_of(b));
}

bool egtb_rule_gives_check(Position *pos, Move m) {
    pos_make_move(pos, m);
    Color them = pos->side;
    Square k = pos->king_sq[them];
    Bitboard checkers = pos_attackers_to(pos, k, (Color)!them);
    pos_unmake_move(pos);
    if (!checkers) return false;
    /* xiangqitb's is_move_check misses one kind of check: the moved piece
     * landing between its own cannon and the enemy king as the cannon's
     * screen, with no other piece giving check (it tests the cannon with
     * the moved piece lifted off the board but not put down). Its tables
     * were made with that test, so ours counts that move as no check too
     * (docs/egtb.md, "Rule loop in Tuong"). */
    Square c = bb_lsb(checkers);
    bool one_checker = !(checkers & (checkers - 1));
    return !(one_checker && type_of(pos->board[c]) == CANNON && strictly_between(move_to(m), c, k));
}
