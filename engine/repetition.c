// SPDX-License-Identifier: GPL-3.0-or-later
#include "repetition.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "movegen.h"

/* The cycle is replayed on this board. Only the board part and a handful of
 * history records are ever written, but it must be a whole Position so the
 * ordinary move generator and make/unmake work on it; one per thread keeps
 * the judge usable from every search thread without a 100 KB stack frame. */
static _Thread_local Position Scratch;

/* A threat: the attacker (by piece identity) may capture the victim. */
typedef struct {
    uint8_t attacker, victim;
} Threat;

/* Captures of the side to move are at most a few dozen; MAX_MOVES bounds them. */
typedef struct {
    Threat t[MAX_MOVES];
    int count;
} ThreatList;

/* Earliest history index a repetition may reach back to: the last capture
 * (rule60) or the position after the last null move. */
static int lookback_limit(const Position *pos) {
    int lo = pos->game_ply - pos_state(pos)->rule60;
    if (lo < 0) lo = 0;
    for (int j = pos->game_ply; j > lo; j--)
        if (pos->history[j].move == MOVE_NULL) return j;
    return lo;
}

int rep_count(const Position *pos, int *first_ply) {
    Key key = pos_key(pos);
    int lo = lookback_limit(pos), count = 1, first = pos->game_ply;
    for (int i = pos->game_ply - 4; i >= lo; i -= 2) {
        if (pos->history[i].key == key) {
            count++;
            first = i;
        }
    }
    if (first_ply) *first_ply = first;
    return count;
}

/* Can the side to move legally capture on s? (A protector that is pinned,
 * a "false root", cannot; the king can, unless the point is covered.) */
static bool can_capture_on(const Position *sp, Square s) {
    Bitboard att = pos_attackers_to(sp, s, sp->side);
    while (att) {
        if (move_is_legal(sp, make_move(bb_pop_lsb(&att), s))) return true;
    }
    return false;
}

/* May a capture of piece v on s by piece a count as a chase? Kings and pawns
 * never chase; the king is never chased (that is check); a pawn counts as a
 * victim only once it has crossed the river. */
static bool chase_candidate(const Position *sp, Square from, Square to) {
    Piece a = sp->board[from], v = sp->board[to];
    if (type_of(a) == KING || type_of(a) == PAWN) return false;
    if (type_of(v) == KING) return false;
    if (type_of(v) == PAWN && relative_rank(color_of(v), to) < 5) return false;
    return true;
}

/* A horse or a cannon attacking a chariot chases it even when it is
 * protected: the chariot is worth more than either (AXF D18-D25, D42). */
static bool chases_when_protected(Piece a, Piece v) {
    return type_of(v) == ROOK && (type_of(a) == HORSE || type_of(a) == CANNON);
}

/* Would the capture from -> to (made by the side to move in sp) chase its
 * victim: is the victim left without a legal recapture, or a chariot under a
 * horse or cannon? The capture itself is assumed possible. */
static bool capture_chases(Position *sp, Square from, Square to) {
    if (chases_when_protected(sp->board[from], sp->board[to])) return true;
    pos_make_move(sp, make_move(from, to));
    bool protected = can_capture_on(sp, to);
    pos_unmake_move(sp);
    return !protected;
}

/* Threats of the side to move: captures that would chase their victim, with
 * pieces named by their identity in id[]. Legal captures, or with `pseudo`
 * the pseudo-legal ones: the threats that stood before a move are taken that
 * way, so that a side in check, whose only legal moves answer the check,
 * does not seem to create every threat anew once out of check. */
static void find_threats(Position *sp, const uint8_t *id, ThreatList *out, ThreatList *attacks, bool pseudo) {
    MoveList caps;
    caps.count = 0;
    if (pseudo) gen_pseudo_captures(sp, &caps);
    else gen_captures(sp, &caps);
    out->count = 0;
    if (attacks) attacks->count = 0;
    for (int i = 0; i < caps.count; i++) {
        Square from = move_from(caps.moves[i]), to = move_to(caps.moves[i]);
        if (attacks) attacks->t[attacks->count++] = (Threat){id[from], id[to]};
        if (chase_candidate(sp, from, to) && capture_chases(sp, from, to))
            out->t[out->count++] = (Threat){id[from], id[to]};
    }
}

static bool has_threat(const ThreatList *list, Threat t) {
    for (int i = 0; i < list->count; i++)
        if (list->t[i].attacker == t.attacker && list->t[i].victim == t.victim) return true;
    return false;
}

/* Square that piece identity `ident` stands on now (SQ_NONE if gone). */
static Square square_of(const uint8_t *id, const Position *sp, uint8_t ident) {
    for (Square s = 0; s < SQUARE_NB; s++)
        if (sp->board[s] && id[s] == ident) return s;
    return SQ_NONE;
}

/* Is the attack of a on v an offer to exchange: v is of the same kind and
 * can legally take a first (the side to move in sp owns v)? */
static bool offers_exchange(const Position *sp, Square a, Square v) {
    return type_of(sp->board[a]) == type_of(sp->board[v]) && move_is_legal(sp, make_move(v, a));
}

/* What a side could capture before its move: every pseudo-legal capture,
 * and those of them that would chase. */
typedef struct {
    ThreatList threats, attacks;
} Before;

/* The pieces (as sets of identities) a move chases: all of them, and those it
 * attacks anew (rather than by taking away a protection from a piece that
 * was attacked already). */
typedef struct {
    Bitboard victims, direct;
} MoveChases;

/* What the move just made, by the side not to move in sp, chases: new
 * threats compared with `before`, excluding offers to exchange. */
static MoveChases chased_by_last_move(Position *sp, const uint8_t *id, const Before *before) {
    ThreatList after;
    pos_make_null(sp);
    find_threats(sp, id, &after, NULL, false);
    pos_unmake_null(sp);
    MoveChases mc = {0, 0};
    for (int i = 0; i < after.count; i++) {
        Threat t = after.t[i];
        if (has_threat(&before->threats, t)) continue;
        Square v = square_of(id, sp, t.victim);
        if (offers_exchange(sp, square_of(id, sp, t.attacker), v)) continue;
        mc.victims |= square_bb(t.victim);
        if (!has_threat(&before->attacks, t)) mc.direct |= square_bb(t.victim);
    }
    return mc;
}

/* Rebuild on the scratch board the position at history[start_ply] by taking
 * back the moves since: no capture lies inside a cycle. */
static Position *scratch_at(const Position *pos, int start_ply) {
    Position *sp = &Scratch;
    memcpy(sp, pos, offsetof(Position, history));
    for (int ply = pos->game_ply; ply > start_ply; ply--) {
        Move m = pos->history[ply].move;
        Piece p = sp->board[move_to(m)];
        pos_remove_piece(sp, move_to(m));
        pos_put_piece(sp, p, move_from(m));
    }
    pos_finish_setup(sp);
    return sp;
}

/* How bad a side's conduct over a cycle is: the worse offender must vary,
 * equal offenders draw. Perpetual check loses "under any circumstance"
 * (AXF rule 6), so also against a chase (D1). A chase made only by taking
 * away the protection of a piece already attacked (the attacker and the
 * victim stay put) is the lesser offence: it loses against an idle side
 * (Appendix) but excuses nothing and is excused by nothing against a chase
 * that attacks anew (D39-D41, D61). */
enum { LEVEL_IDLE, LEVEL_CHASE_SUBVERTED, LEVEL_CHASE, LEVEL_CHECK };

/* What one side did over the cycle so far, move by move. */
typedef struct {
    bool all_check;  /* every move gave check */
    Bitboard chased; /* identities chased by every move (none once a move checks) */
    Bitboard direct; /* identities attacked anew by some move */
} SideRecord;

static void record_move(SideRecord *r, Position *sp, const uint8_t *id, const Before *before) {
    if (pos_in_check(sp)) {
        r->chased = 0;
        return;
    }
    r->all_check = false;
    if (!r->chased) return;
    MoveChases mc = chased_by_last_move(sp, id, before);
    r->chased &= mc.victims;
    r->direct |= mc.direct;
}

/* A perpetual chase chases one and the same piece with every move; chasing
 * two or more at once with every move is chasing several pieces, which is
 * allowed (AXF rule 32; the mutual chase of the appendix). */
static int conduct_level(const SideRecord *r, RepConduct *conduct) {
    int level = LEVEL_IDLE;
    if (r->all_check) level = LEVEL_CHECK;
    else if (bb_popcount(r->chased) == 1) level = (r->chased & r->direct) ? LEVEL_CHASE : LEVEL_CHASE_SUBVERTED;
    *conduct = level == LEVEL_CHECK ? REP_CHECK : level == LEVEL_IDLE ? REP_IDLE : REP_CHASE;
    return level;
}

RepJudgement rep_judge_cycle(const Position *pos, int start_ply) {
    RepJudgement j = {.verdict = REP_DRAW, .conduct = {REP_IDLE, REP_IDLE}, .start_ply = start_ply};
    assert(pos->game_ply > start_ply && (pos->game_ply - start_ply) % 2 == 0);

    Position *sp = scratch_at(pos, start_ply);
    uint8_t id[SQUARE_NB];
    for (Square s = 0; s < SQUARE_NB; s++) id[s] = (uint8_t)s;

    /* A perpetual check checks with every move; a perpetual chase chases one
     * and the same piece with every move (by one attacker or several in
     * turn), so a check among chases ("one check one chase", D13), or chases
     * of two pieces in turn (D76-D80), are allowed. */
    SideRecord rec[COLOR_NB] = {{true, ~(Bitboard)0, 0}, {true, ~(Bitboard)0, 0}};
    for (int ply = start_ply + 1; ply <= pos->game_ply; ply++) {
        Color us = sp->side;
        Move m = pos->history[ply].move;
        Before before;
        find_threats(sp, id, &before.threats, &before.attacks, true);
        pos_make_move(sp, m);
        id[move_to(m)] = id[move_from(m)];
        record_move(&rec[us], sp, id, &before);
    }

    for (int c = 0; c < COLOR_NB; c++) j.idle_for_good[c] = !rec[c].all_check && !rec[c].chased;
    Color us = pos->side, them = (Color)!us;
    int ours = conduct_level(&rec[us], &j.conduct[us]), theirs = conduct_level(&rec[them], &j.conduct[them]);
    if (ours > theirs) j.verdict = REP_LOSS;
    else if (theirs > ours) j.verdict = REP_WIN;
    return j;
}

RepVerdict rep_judge(const Position *pos) {
    Key key = pos_key(pos);
    int lo = lookback_limit(pos);
    for (int i = pos->game_ply - 4; i >= lo; i -= 2)
        if (pos->history[i].key == key) return rep_judge_cycle(pos, i).verdict;
    return REP_NONE;
}

const char *rep_conduct_name(RepConduct c) {
    switch (c) {
    case REP_CHECK: return "check";
    case REP_CHASE: return "chase";
    default: return "idle";
    }
}
