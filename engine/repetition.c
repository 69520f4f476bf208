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

/* Can the side to move legally capture on s? */
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
static bool chase_candidate(Piece a, Piece v, Square s) {
    if (type_of(a) == KING || type_of(a) == PAWN) return false;
    if (type_of(v) == KING) return false;
    if (type_of(v) == PAWN && relative_rank(color_of(v), s) < 5) return false;
    return true;
}

/* Threats of the side to move: captures of unprotected chase candidates,
 * with pieces named by their identity in id[]. Legal captures, or with
 * `pseudo` the pseudo-legal ones: the threats that stood before a move are
 * taken that way, so that a side in check, whose only legal moves answer the
 * check, does not seem to create every threat anew once out of check. */
static void find_threats(Position *sp, const uint8_t *id, ThreatList *out, bool pseudo) {
    MoveList caps;
    caps.count = 0;
    if (pseudo) gen_pseudo_captures(sp, &caps);
    else gen_captures(sp, &caps);
    out->count = 0;
    for (int i = 0; i < caps.count; i++) {
        Move m = caps.moves[i];
        Square from = move_from(m), to = move_to(m);
        if (!chase_candidate(sp->board[from], sp->board[to], to)) continue;
        pos_make_move(sp, m);
        bool protected = can_capture_on(sp, to);
        pos_unmake_move(sp);
        if (!protected) out->t[out->count++] = (Threat){id[from], id[to]};
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

/* Victims (as a set of identities) that the move just made, by the side not
 * to move in sp, chases: new threats compared with `before`, excluding
 * victims that can take their attacker. */
static Bitboard chased_by_last_move(Position *sp, const uint8_t *id, const ThreatList *before) {
    ThreatList after;
    pos_make_null(sp);
    find_threats(sp, id, &after, false);
    pos_unmake_null(sp);
    Bitboard victims = 0;
    for (int i = 0; i < after.count; i++) {
        Threat t = after.t[i];
        if (has_threat(before, t)) continue;
        Square a = square_of(id, sp, t.attacker), v = square_of(id, sp, t.victim);
        if (move_is_legal(sp, make_move(v, a))) continue; /* mutual attack: an offer to exchange */
        victims |= square_bb(t.victim);
    }
    return victims;
}

RepJudgement rep_judge_cycle(const Position *pos, int start_ply) {
    RepJudgement j = {REP_DRAW, {REP_IDLE, REP_IDLE}, start_ply};
    assert(pos->game_ply > start_ply && (pos->game_ply - start_ply) % 2 == 0);

    /* Rebuild the board at the start of the cycle: no capture lies inside. */
    Position *sp = &Scratch;
    memcpy(sp, pos, offsetof(Position, history));
    for (int ply = pos->game_ply; ply > start_ply; ply--) {
        Move m = pos->history[ply].move;
        Piece p = sp->board[move_to(m)];
        pos_remove_piece(sp, move_to(m));
        pos_put_piece(sp, p, move_from(m));
    }
    pos_finish_setup(sp);

    uint8_t id[SQUARE_NB];
    for (Square s = 0; s < SQUARE_NB; s++) id[s] = (uint8_t)s;

    bool all_check[COLOR_NB] = {true, true}, any_check[COLOR_NB] = {false, false};
    bool any_quiet[COLOR_NB] = {false, false};
    Bitboard chased[COLOR_NB] = {~(Bitboard)0, ~(Bitboard)0};
    for (int ply = start_ply + 1; ply <= pos->game_ply; ply++) {
        Color us = sp->side;
        Move m = pos->history[ply].move;
        ThreatList before;
        find_threats(sp, id, &before, true);
        pos_make_move(sp, m);
        id[move_to(m)] = id[move_from(m)];
        if (pos_in_check(sp)) {
            any_check[us] = true;
        } else {
            all_check[us] = false;
            any_quiet[us] = true;
            chased[us] &= chased_by_last_move(sp, id, &before);
        }
    }

    for (Color c = RED; c <= BLACK; c++) {
        if (all_check[c]) j.conduct[c] = REP_CHECK;
        else if (any_quiet[c] && chased[c]) j.conduct[c] = any_check[c] ? REP_CHECK_CHASE : REP_CHASE;
    }
    Color us = pos->side, them = (Color)!us;
    bool we_forbidden = j.conduct[us] != REP_IDLE, they_forbidden = j.conduct[them] != REP_IDLE;
    if (we_forbidden && !they_forbidden) j.verdict = REP_LOSS;
    else if (they_forbidden && !we_forbidden) j.verdict = REP_WIN;
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
    case REP_CHECK_CHASE: return "check and chase";
    default: return "idle";
    }
}
