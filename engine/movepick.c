// SPDX-License-Identifier: GPL-3.0-or-later
#include "movepick.h"

#include <stddef.h>

#include "checks.h"
#include "movegen.h"
#include "see.h"

/* Captures: the victim's value first, the capture history within a value. */
enum { CAPTURE_VICTIM_WEIGHT = 16 };

static inline int capture_score(const MovePicker *mp, Move m) {
    const Position *pos = mp->pos;
    Piece p = pos->board[move_from(m)];
    PieceType victim = type_of(pos->board[move_to(m)]);
    return SeeValue[victim] * CAPTURE_VICTIM_WEIGHT + (*mp->tables.capture)[p][move_to(m)][victim];
}

/* Quiets: butterfly and continuation histories, the nearer plies weighing
 * more, plus the low-ply history near the root. */
static inline int quiet_score(const MovePicker *mp, Move m) {
    const OrderingTables *t = &mp->tables;
    Square from = move_from(m), to = move_to(m);
    Piece p = mp->pos->board[from];
    int s = 2 * (*t->main)[mp->pos->side][from][to];
    s += 2 * (*t->cont[0])[p][to] + (*t->cont[1])[p][to] + (*t->cont[2])[p][to] + (*t->cont[3])[p][to];
    if (t->low_ply) s += 2 * t->low_ply[from][to];
    return s;
}

void mp_init(MovePicker *mp, const Position *pos, Move tt_move, const Move killers[2], Move counter,
             const OrderingTables *tables) {
    mp->pos = pos;
    mp->tables = *tables;
    mp->skip_quiets = mp->qs_checks = false;
    mp->see_threshold = 0;
    mp->cur = mp->bad_count = mp->bad_cur = 0;
    mp->list.count = 0;
    mp->tt_move = tt_move != MOVE_NONE && move_is_pseudo_legal(pos, tt_move) ? tt_move : MOVE_NONE;
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1];
    mp->counter = counter;
    if (pos_in_check(pos))
        mp->stage = mp->tt_move ? STAGE_EVASION_TT : STAGE_GEN_EVASIONS;
    else
        mp->stage = mp->tt_move ? STAGE_TT : STAGE_GEN_CAPTURES;
}

void mp_init_qsearch(MovePicker *mp, const Position *pos, Move tt_move, bool checks, const OrderingTables *tables) {
    static const Move NoKillers[2] = {MOVE_NONE, MOVE_NONE};
    mp_init(mp, pos, tt_move, NoKillers, MOVE_NONE, tables);
    mp->qs_checks = checks;
    if (pos_in_check(pos)) return;
    mp->tt_move = mp->tt_move && move_is_capture(pos, mp->tt_move) ? mp->tt_move : MOVE_NONE;
    mp->stage = mp->tt_move ? STAGE_QS_TT : STAGE_QS_GEN_CAPTURES;
}

void mp_init_probcut(MovePicker *mp, const Position *pos, Move tt_move, int threshold, const OrderingTables *tables) {
    mp_init_qsearch(mp, pos, tt_move, false, tables);
    mp->see_threshold = threshold;
    if (mp->tt_move && !see_ge(pos, mp->tt_move, threshold)) mp->tt_move = MOVE_NONE;
    mp->stage = mp->tt_move ? STAGE_PC_TT : STAGE_PC_GEN_CAPTURES;
}

/* Index of the best-scored move from mp->cur on, swapped to mp->cur. */
static Move pick_best(MovePicker *mp) {
    int best = mp->cur;
    for (int i = mp->cur + 1; i < mp->list.count; i++)
        if (mp->scores[i] > mp->scores[best]) best = i;
    Move m = mp->list.moves[best];
    int s = mp->scores[best];
    mp->list.moves[best] = mp->list.moves[mp->cur];
    mp->scores[best] = mp->scores[mp->cur];
    mp->list.moves[mp->cur] = m;
    mp->scores[mp->cur] = s;
    mp->cur++;
    return m;
}

/* Sort list[from..count) by score, highest first (insertion sort: the
 * lists are short and often nearly ordered). */
static void sort_moves(MovePicker *mp, int from) {
    for (int i = from + 1; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        int s = mp->scores[i], j = i - 1;
        for (; j >= from && mp->scores[j] < s; j--) {
            mp->list.moves[j + 1] = mp->list.moves[j];
            mp->scores[j + 1] = mp->scores[j];
        }
        mp->list.moves[j + 1] = m;
        mp->scores[j + 1] = s;
    }
}

static void score_captures(MovePicker *mp) {
    for (int i = 0; i < mp->list.count; i++) mp->scores[i] = capture_score(mp, mp->list.moves[i]);
}

/* A killer or countermove worth trying: a fresh quiet move of this position. */
static bool good_refutation(const MovePicker *mp, Move m) {
    return m != MOVE_NONE && m != mp->tt_move && move_is_pseudo_legal(mp->pos, m) && !move_is_capture(mp->pos, m);
}

/* Once the search skips quiet moves, it still wants the checking ones. */
static inline bool wanted_quiet(const MovePicker *mp, Move m) {
    return !mp->skip_quiets || move_gives_check(mp->pos, m);
}

static bool is_refutation(const MovePicker *mp, Move m) {
    return m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

Move mp_next(MovePicker *mp) {
    Move m;
    switch (mp->stage) {
    case STAGE_TT:
        mp->stage = STAGE_GEN_CAPTURES;
        return mp->tt_move;
    case STAGE_GEN_CAPTURES:
        mp->list.count = mp->cur = 0;
        gen_pseudo_captures(mp->pos, &mp->list);
        score_captures(mp);
        mp->stage = STAGE_GOOD_CAPTURES;
        /* fall through */
    case STAGE_GOOD_CAPTURES:
        while (mp->cur < mp->list.count) {
            m = pick_best(mp);
            if (m == mp->tt_move) continue;
            if (see_ge(mp->pos, m, 0)) return m;
            mp->bad[mp->bad_count++] = m;
        }
        mp->stage = STAGE_KILLER1;
        /* fall through */
    case STAGE_KILLER1:
        mp->stage = STAGE_KILLER2;
        if (good_refutation(mp, mp->killers[0]) && wanted_quiet(mp, mp->killers[0])) return mp->killers[0];
        /* fall through */
    case STAGE_KILLER2:
        mp->stage = STAGE_COUNTER;
        if (mp->killers[1] != mp->killers[0] && good_refutation(mp, mp->killers[1]) && wanted_quiet(mp, mp->killers[1]))
            return mp->killers[1];
        /* fall through */
    case STAGE_COUNTER:
        mp->stage = STAGE_GEN_QUIETS;
        if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1] && good_refutation(mp, mp->counter) &&
            wanted_quiet(mp, mp->counter))
            return mp->counter;
        /* fall through */
    case STAGE_GEN_QUIETS:
        mp->list.count = mp->cur = 0;
        gen_pseudo_quiets(mp->pos, &mp->list);
        if (!mp->skip_quiets) {
            for (int i = 0; i < mp->list.count; i++) mp->scores[i] = quiet_score(mp, mp->list.moves[i]);
            sort_moves(mp, 0);
        }
        mp->stage = STAGE_QUIETS;
        /* fall through */
    case STAGE_QUIETS:
        while (mp->cur < mp->list.count) {
            m = mp->list.moves[mp->cur++];
            if (m != mp->tt_move && !is_refutation(mp, m) && wanted_quiet(mp, m)) return m;
        }
        mp->stage = STAGE_BAD_CAPTURES;
        /* fall through */
    case STAGE_BAD_CAPTURES:
        if (mp->bad_cur < mp->bad_count) return mp->bad[mp->bad_cur++];
        mp->stage = STAGE_DONE;
        return MOVE_NONE;

    case STAGE_EVASION_TT:
        mp->stage = STAGE_GEN_EVASIONS;
        return mp->tt_move;
    case STAGE_GEN_EVASIONS:
        mp->list.count = mp->cur = 0;
        gen_pseudo_captures(mp->pos, &mp->list);
        score_captures(mp);
        for (int i = 0; i < mp->list.count; i++) mp->scores[i] += 1 << 20;
        {
            int start = mp->list.count;
            gen_pseudo_quiets(mp->pos, &mp->list);
            for (int i = start; i < mp->list.count; i++) mp->scores[i] = quiet_score(mp, mp->list.moves[i]);
        }
        mp->stage = STAGE_EVASIONS;
        /* fall through */
    case STAGE_EVASIONS:
        while (mp->cur < mp->list.count) {
            m = pick_best(mp);
            if (m != mp->tt_move) return m;
        }
        mp->stage = STAGE_DONE;
        return MOVE_NONE;

    case STAGE_QS_TT:
        mp->stage = STAGE_QS_GEN_CAPTURES;
        return mp->tt_move;
    case STAGE_QS_GEN_CAPTURES:
        mp->list.count = mp->cur = 0;
        gen_pseudo_captures(mp->pos, &mp->list);
        score_captures(mp);
        mp->stage = STAGE_QS_CAPTURES;
        /* fall through */
    case STAGE_QS_CAPTURES:
        while (mp->cur < mp->list.count) {
            m = pick_best(mp);
            if (m != mp->tt_move) return m;
        }
        if (!mp->qs_checks) {
            mp->stage = STAGE_DONE;
            return MOVE_NONE;
        }
        mp->stage = STAGE_QS_GEN_CHECKS;
        /* fall through */
    case STAGE_QS_GEN_CHECKS:
        mp->list.count = mp->cur = 0;
        gen_pseudo_quiets(mp->pos, &mp->list);
        mp->stage = STAGE_QS_CHECKS;
        /* fall through */
    case STAGE_QS_CHECKS:
        while (mp->cur < mp->list.count) {
            m = mp->list.moves[mp->cur++];
            if (m != mp->tt_move && move_gives_check(mp->pos, m)) return m;
        }
        mp->stage = STAGE_DONE;
        return MOVE_NONE;

    case STAGE_PC_TT:
        mp->stage = STAGE_PC_GEN_CAPTURES;
        return mp->tt_move;
    case STAGE_PC_GEN_CAPTURES:
        mp->list.count = mp->cur = 0;
        gen_pseudo_captures(mp->pos, &mp->list);
        score_captures(mp);
        mp->stage = STAGE_PC_CAPTURES;
        /* fall through */
    case STAGE_PC_CAPTURES:
        while (mp->cur < mp->list.count) {
            m = pick_best(mp);
            if (m != mp->tt_move && see_ge(mp->pos, m, mp->see_threshold)) return m;
        }
        mp->stage = STAGE_DONE;
        return MOVE_NONE;

    case STAGE_DONE: break;
    }
    return MOVE_NONE;
}
