// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The both-sides DTM generator's final raising steps (dtm_raise in
 * egtb_dtm_rule_state.h; xiangqitb's loop_build_check_chase with
 * second_init, sp_load_bits, sp_change_win_pos and
 * check_double_chase_win). After the plain steps, for each winning side
 * in turn and n = 3, 4, ...: the loser's losses of value n are raised to
 * one more than their longest win child, and the winners above them to
 * their shortest lost child, back and forth until nothing moves. A move
 * that goes on with a perpetual check or chase counts no ply, and the
 * first pass over the winners counts none at all (xiangqitb's STEP_1:
 * hence its odd wins).
 */
#include "egtb_dtm_rule_state.h"
#include "egtb_rule.h"

#include "attacks.h"

/* xiangqitb stops (and refuses the table) when the steps reach this. */
enum { RAISE_STEP_LIMIT = E_SCORE_MAX - 10 };

/* The steps' first bound; the passes raise it to the largest value seen. */
enum { RAISE_STEP_START = 5 };

/* A mate is a loss of 1 and the move into it a win of 2: neither has a
 * longer line to raise, so the raising steps start at 3 and take wins
 * above 2 and losses above 1 (xiangqitb's second_init). */
enum { MATE_LOSS = 1, MATE_WIN = 2, RAISE_FIRST_STEP = 3 };

typedef enum { LOAD_LOSE_CHANGE, CHANGE_LOSE_POS } LoadKind;
typedef enum { WIN_STEP_1, WIN_STEP_2 } WinStep;

/* second_init: the wins of `winner` above 2 and the other side's losses
 * above 1 may be raised. */
static void second_init(DtmRule *D, int winner) {
    dtm_bits_clear(D, D->unknown[RED]);
    dtm_bits_clear(D, D->unknown[BLACK]);
    for (uint64_t i = 0; i < D->n; i++) {
        if (e_is_win(D->e[winner][i]) && e_score(D->e[winner][i]) > MATE_WIN) bit_set(D->unknown[winner], i);
        if (e_is_lose(D->e[!winner][i]) && e_score(D->e[!winner][i]) > MATE_LOSS) bit_set(D->unknown[!winner], i);
    }
}

/* sp_load_bits: a loss of value n (side me to move) among `bits` is
 * raised to one more than its longest win child, or to that child's value
 * when every such move goes on with the loser's perpetual mark (a check,
 * or a chase attacking one common piece; not both kinds). Raised entries
 * go into gen. LOAD_LOSE_CHANGE also drops losses below n from bits. */
static bool load_bits(DtmRule *D, int me, unsigned n, LoadKind kind) {
    int opp = !me;
    uint64_t *bits = kind == LOAD_LOSE_CHANGE ? D->unknown[me] : D->pre;
    unsigned max_crv = 0;
    bool any = false;
    Kids k;
    dtm_bits_clear(D, D->gen);
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(bits, i)) continue;
        uint16_t e = D->e[me][i];
        if (!e_is_lose(e)) continue;
        if (e_score(e) > max_crv) max_crv = e_score(e);
        if (e_score(e) != n) {
            if (kind == LOAD_LOSE_CHANGE && e_score(e) < n) bit_clear(bits, i);
            continue;
        }
        dtm_decode(D, i, me, &k);
        Position *pos = D->pos;
        unsigned max_step = 0;
        int best[MAX_MOVES], nbest = 0; /* the moves to the longest win children */
        for (int j = 0; j < k.quiets.count; j++) {
            uint16_t e2 = D->e[opp][k.child[j]];
            if (!e_is_win(e2) || e_score(e2) < max_step) continue;
            if (e_score(e2) > max_step) {
                max_step = e_score(e2);
                nbest = 0;
            }
            best[nbest++] = j;
        }
        if (nbest == 0 || max_step + 1 <= e_score(e)) continue;
        bool no_rule = false, check_lose = false;
        int chase_lose = 0;
        Bitboard common = pos->occ;
        for (int x = 0; x < nbest && !no_rule; x++) {
            uint16_t e2 = D->e[opp][k.child[best[x]]];
            Bitboard bb;
            if (e_has(e, CHECK_LOSE) && e_has(e2, CHECK_WIN)) {
                check_lose = true;
            } else if (e_has(e, CHASE_LOSE) && e_has(e2, CHASE_WIN) &&
                       (bb = egtb_rule_new_attacks(pos, k.quiets.moves[best[x]])) != 0) {
                common &= bb;
                chase_lose++;
            } else {
                no_rule = true;
            }
        }
        if (!no_rule && ((check_lose && chase_lose) || (chase_lose >= 2 && !common))) no_rule = true;
        unsigned v = no_rule ? max_step + 1 : max_step;
        if (v > e_score(e)) {
            if (v > max_crv) max_crv = v;
            D->e[me][i] = e_set_score(e, v);
            bit_set(D->gen, i);
            any = true;
        }
    }
    if (max_crv > D->max_step) D->max_step = max_crv;
    return any;
}

/* The leg of a horse on `from` toward `to`, or -1 when it cannot get there. */
static int horse_leg(Square from, Square to) {
    for (int j = 0; j < HorseCount[from]; j++)
        if (HorseSteps[from][j].to == to) return HorseSteps[from][j].block;
    return -1;
}

/* check_double_chase_win: D->pos is C, the loser to move after the
 * winner's chase; ev, the loser's reply, escapes an attack into G (the
 * winner to move). Are the winner's shortest moves from G all into mutual
 * chases of value at most max_step, each attacking every piece ev
 * rescued? G is made on D->pos and taken back. */
static bool double_chase(DtmRule *D, int me, Move ev, unsigned max_step) {
    Position *pos = D->pos;
    int opp = !me;
    Bitboard evt = egtb_rule_escape(pos, ev);
    if (!evt) {
        dtm_fail(D, "expected an evasion", 0, me);
        return false;
    }
    Kids k;
    pos_make_move(pos, ev);
    dtm_kids(D, pos, &k);
    unsigned min_step = E_SCORE_MAX;
    int tb[MAX_MOVES], ntb = 0;
    bool no_cap = false;
    for (int j = 0; j < k.quiets.count; j++) {
        uint16_t e = D->e[opp][k.child[j]];
        if (!e_is_lose(e) || e_score(e) > min_step) continue;
        if (e_score(e) < min_step) {
            min_step = e_score(e);
            ntb = 0;
            no_cap = false;
        }
        if (e_has(e, CHASE_WIN) && e_has(e, CHASE_LOSE))
            tb[ntb++] = j;
        else
            no_cap = true;
    }
    bool result = !(no_cap || min_step > max_step || ntb == 0);
    for (int x = 0; result && x < ntb; x++) {
        evt &= egtb_rule_new_attacks(pos, k.quiets.moves[tb[x]]);
        if (!evt) result = false;
    }
    pos_unmake_move(pos);
    return result;
}

/* Step 4 of sp_change_win_pos for the chase move m of the winner (D->pos,
 * me to move): does the loser, after it, have a longest resistance that
 * escapes m's attack into a mutual chase the winner cannot break
 * (double_chase)? Then m does not win by the chase rule. */
static bool chase_evaded(DtmRule *D, int me, Move m) {
    Position *pos = D->pos;
    Bitboard capbb = egtb_rule_new_attacks(pos, m);
    if (!capbb) {
        dtm_fail(D, "expected a capture move", 0, me);
        return false;
    }
    Kids k;
    pos_make_move(pos, m);
    dtm_kids(D, pos, &k);
    unsigned max_step = 0;
    int tb[MAX_MOVES], ntb = 0;
    for (int j = 0; j < k.quiets.count; j++) {
        uint16_t e2 = D->e[me][k.child[j]];
        if (!e_is_win(e2) || e_score(e2) < max_step) continue;
        if (e_score(e2) > max_step) {
            max_step = e_score(e2);
            ntb = 0;
        }
        if (e_has(e2, CHASE_LOSE) && e_has(e2, CHASE_WIN)) tb[ntb++] = j;
    }
    bool found = false;
    for (int x = 0; x < ntb && !found; x++) {
        Move m2 = k.quiets.moves[tb[x]];
        Bitboard evt = egtb_rule_escape(pos, m2);
        found = evt && (capbb & evt) && double_chase(D, me, m2, max_step);
    }
    pos_unmake_move(pos);
    return found;
}

/* sp_change_win_pos: a win of value n or n + 1 (side me to move) among
 * `bits` is raised to its shortest lost child's value, plus one in
 * WIN_STEP_2 unless that move goes on with the loser's perpetual mark, and
 * never past its capture score. WIN_STEP_1 leaves the chases it cannot
 * settle in D->win for WIN_STEP_2. */
static bool change_win(DtmRule *D, int me, unsigned n, WinStep step) {
    int opp = !me;
    uint64_t *bits = step == WIN_STEP_1 ? D->pre : D->win;
    if (step == WIN_STEP_1) {
        dtm_bits_clear(D, D->gen);
        dtm_bits_clear(D, D->win);
    }
    unsigned max_crv = 0;
    bool any = false;
    Kids k;
    for (uint64_t i = 0; i < D->n && !D->failed; i++) {
        if (!bit_test(bits, i)) continue;
        uint16_t e = D->e[me][i];
        if (!e_is_win(e)) continue;
        if (e_score(e) > max_crv) max_crv = e_score(e);
        if (e_score(e) != n && e_score(e) != n + 1) continue;
        dtm_decode(D, i, me, &k);
        Position *pos = D->pos;
        unsigned min_step = E_SCORE_MAX;
        int tb[MAX_MOVES], ntb = 0;
        bool no_rule = false;
        for (int j = 0; j < k.quiets.count; j++) { /* 1.a */
            uint16_t e2 = D->e[opp][k.child[j]];
            if (!e_is_lose(e2)) continue;
            no_rule = no_rule || !e_has(e2, CHASE_WIN) || !egtb_rule_new_attacks(pos, k.quiets.moves[j]);
            if (e_score(e2) > min_step) continue;
            if (e_score(e2) < min_step) {
                min_step = e_score(e2);
                ntb = 0;
            }
            tb[ntb++] = j;
        }
        if (min_step == E_SCORE_MAX || min_step + 1 <= e_score(e)) continue; /* 1.b */
        unsigned cap_step = dtm_cap_win_score(D, pos);                       /* 2 */
        if (cap_step != E_SCORE_MAX) {
            if (cap_step <= e_score(e)) continue;
            no_rule = true;
        }
        bool rule_win = false;
        int chase[MAX_MOVES], nchase = 0;
        for (int x = 0; x < ntb; x++) { /* 3.a */
            int j = tb[x];
            Move m = k.quiets.moves[j];
            uint16_t e2 = D->e[opp][k.child[j]];
            if (e_has(e, CHECK_WIN) && e_has(e2, CHECK_LOSE)) {
                rule_win = true;
                break;
            }
            if (!e_has(e, CHASE_WIN) || !e_has(e2, CHASE_LOSE)) continue;
            Bitboard evt = egtb_rule_escape(pos, m);
            if (!evt) continue;
            Bitboard cap = 0;
            if (!no_rule || !e_has(e, CHASE_LOSE) || !e_has(e2, CHASE_WIN) || !(cap = egtb_rule_new_attacks(pos, m))) {
                rule_win = true;
                break;
            }
            evt &= pos_pieces(pos, (Color)me, ROOK);
            bool rook_on_leg = false;
            /* the rescued chariot stands on the leg of an attacked horse that
             * would check the king: the chase it answers is a real one */
            Square king = pos->king_sq[me];
            for (Bitboard b = cap; evt && b && !rook_on_leg;) {
                Square s = bb_pop_lsb(&b);
                if (type_of(pos->board[s]) != HORSE) continue;
                int leg = horse_leg(s, king);
                if (leg >= 0 && bb_test(evt, (Square)leg)) rook_on_leg = true;
            }
            if (rook_on_leg) {
                rule_win = true;
                break;
            }
            chase[nchase++] = j;
        }
        if (!rule_win && nchase) { /* 3.b */
            if (step == WIN_STEP_1) {
                bit_set(D->win, i);
            } else {
                for (int x = 0; x < nchase && !rule_win; x++) /* 4 */
                    if (!chase_evaded(D, me, k.quiets.moves[chase[x]])) rule_win = true;
            }
        }
        unsigned v = step == WIN_STEP_1 ? min_step : rule_win ? min_step : min_step + 1;
        if (cap_step < v) v = cap_step;
        if (v > e_score(e)) {
            D->e[me][i] = e_set_score(e, v);
            bit_set(D->gen, i);
            if (v > max_crv) max_crv = v;
            any = true;
        }
    }
    if (max_crv > D->max_step) D->max_step = max_crv;
    return any;
}

bool dtm_raise(DtmRule *D) {
    for (int me = 0; me < COLOR_NB && !D->failed; me++) {
        int opp = !me;
        D->max_step = RAISE_STEP_START;
        second_init(D, me);
        unsigned n = RAISE_FIRST_STEP;
        for (; n <= D->max_step && n < E_SCORE_MAX && !D->failed; n++) {
            if (!load_bits(D, opp, n, LOAD_LOSE_CHANGE)) continue;
            for (;;) {
                if (!dtm_gen_pre(D, opp, n, false)) break;
                bool find = change_win(D, me, n, WIN_STEP_1);
                if (!change_win(D, me, n, WIN_STEP_2) && !find) break;
                if (!dtm_gen_pre(D, me, n, false)) break;
                if (!load_bits(D, opp, n, CHANGE_LOSE_POS)) break;
            }
        }
        if (n >= RAISE_STEP_LIMIT) dtm_fail(D, "raising steps past the limit", 0, me);
    }
    return !D->failed;
}
