// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The both-sides DTM rule marks (egtb_dtm_marks.h), following xiangqitb's
 * sp_init_check_chase, sp_remove_fake, check_remove_lose and
 * check_remove_win. "WIN" marks the victim of a perpetual check (chase),
 * "LOSE" its author; the chess facts are egtb_rule.h's.
 */
#include "egtb_dtm_marks.h"

#include "egtb_rule.h"

/* The first marking: an open position whose side to move is in check
 * (escapes an attack) marks the open children of its evasions (escapes)
 * that the WDL gives the right sign, and itself.
 *
 * The cost is in the escape test, which finds the other side's threats
 * (a null move and an attack test per capture): they are the position's,
 * so they are found once, and a position not in check with none has no
 * escape and needs no moves; the test is made only for a move with a
 * child that would be marked. A loss in check marks nothing (its evasions
 * lead to wins of the other side), so it is not looked at. */
static void init_marks(DtmRule *D, uint64_t *rule_bits[COLOR_NB]) {
    Position *pos = D->pos;
    for (uint64_t i = 0; i < D->n; i++)
        for (int me = 0; me < COLOR_NB; me++) {
            if (!bit_test(D->unknown[me], i)) continue;
            Wdl sc = dtm_wdl(D, me, i);
            if (sc != WDL_WIN && sc != WDL_LOSE) continue;
            int opp = !me;
            egtb_decode(D->lay, i, (Color)me, pos);
            bool in_check = pos_in_check(pos);
            if (in_check && sc == WDL_LOSE) continue;
            MoveList threats = {.count = 0};
            if (!in_check) {
                egtb_rule_threats(pos, &threats);
                if (threats.count == 0) continue;
            }
            /* the child's WDL that gets a mark, for side opp to move */
            Wdl want = sc == WDL_WIN ? WDL_LOSE : WDL_WIN;
            EgtbReindex r;
            egtb_reindex_set(D->lay, pos, &r);
            MoveList all;
            gen_legal(pos, &all);
            bool find = false;
            for (int j = 0; j < all.count; j++) {
                Move m = all.moves[j];
                if (pos->board[move_to(m)] != NO_PIECE) continue; /* quiet moves only */
                uint64_t idx[2];
                int count = egtb_reindex_move_both(D->lay, &r, pos->board[move_from(m)], move_from(m), move_to(m), idx);
                bool wanted[2] = {false, false};
                bool any = false;
                for (int x = 0; x < count; x++) {
                    wanted[x] = bit_test(D->unknown[opp], idx[x]) && dtm_wdl(D, opp, idx[x]) == want;
                    any |= wanted[x];
                }
                if (!any || (!in_check && !egtb_rule_marking_escape_from(pos, m, &threats))) continue;
                for (int x = 0; x < count; x++) {
                    if (!wanted[x]) continue;
                    find = true;
                    D->e[opp][idx[x]] |= in_check ? CHECK_LOSE : CHASE_LOSE;
                    bit_set(rule_bits[opp], idx[x]);
                }
            }
            if (find) {
                D->e[me][i] |= in_check ? CHECK_WIN : CHASE_WIN;
                bit_set(rule_bits[me], i);
            }
        }
}

/* is_long_chase of check_remove_lose: the quiet move m of D->pos (side me
 * to move) attacks anew; and, when me is in check, the other side has a
 * reply that is no check, escapes an attack and reaches a position marked
 * as a chaser's. */
static bool long_chase_move(DtmRule *D, int me, Move m) {
    Position *pos = D->pos;
    if (!egtb_rule_new_attacks(pos, m)) return false;
    if (!pos_in_check(pos)) return true;
    Kids k;
    pos_make_move(pos, m);
    dtm_kids(D, pos, &k);
    bool found = false;
    MoveList threats; /* the position's, found at the first escape test */
    bool have_threats = false;
    for (int j = 0; j < k.quiets.count && !found; j++) {
        Move m2 = k.quiets.moves[j];
        uint16_t e2 = D->e[me][k.child[j]];
        if (!e_legal(e2) || !e_has(e2, CHASE_LOSE) || egtb_rule_gives_check(pos, m2)) continue;
        if (!have_threats) {
            egtb_rule_threats(pos, &threats);
            have_threats = true;
        }
        found = egtb_rule_escape_from(pos, m2, &threats) != 0;
    }
    pos_unmake_move(pos);
    return found;
}

/* check_remove_lose: a checker's (chaser's) mark stays only if some quiet
 * move goes on into the victim's mark (a chase: one that attacks anew). */
static uint16_t remove_lose(DtmRule *D, int me, const Kids *k, uint16_t tt) {
    int opp = !me;
    bool long_check = !e_has(tt, CHECK_LOSE), long_chase = !e_has(tt, CHASE_LOSE);
    for (int j = 0; j < k->quiets.count && !(long_check && long_chase); j++) {
        uint16_t e = D->e[opp][k->child[j]];
        if (!e_legal(e)) continue;
        if (!long_check && e_has(e, CHECK_WIN)) long_check = true;
        if (!long_chase && e_has(e, CHASE_WIN)) long_chase = long_chase_move(D, me, k->quiets.moves[j]);
    }
    if (!long_check) tt &= (uint16_t)~CHECK_LOSE;
    if (!long_chase) tt &= (uint16_t)~CHASE_LOSE;
    return tt;
}

/* check_remove_win: a victim's mark stays only if an evasion reaches the
 * checker's mark; for a chase, one after which the chaser attacks again a
 * piece that evasion rescued. */
static uint16_t remove_win(DtmRule *D, int me, uint64_t i, const Kids *k, uint16_t tt) {
    int opp = !me;
    Position *pos = D->pos;
    if (e_has(tt, CHECK_WIN) == e_has(tt, CHASE_WIN)) {
        dtm_fail(D, "a victim's mark is both a check and a chase, or neither", i, me);
        return tt;
    }
    if (e_has(tt, CHECK_WIN)) {
        for (int j = 0; j < k->quiets.count; j++) {
            uint16_t e = D->e[opp][k->child[j]];
            if (e_legal(e) && e_has(e, CHECK_LOSE)) return tt;
        }
        return tt & (uint16_t)~CHECK_WIN;
    }
    MoveList threats; /* the position's, found at the first escape test */
    bool have_threats = false;
    for (int j = 0; j < k->quiets.count; j++) {
        Move m = k->quiets.moves[j];
        uint16_t e = D->e[opp][k->child[j]];
        if (!e_legal(e) || !e_has(e, CHASE_LOSE)) continue;
        if (!have_threats) {
            egtb_rule_threats(pos, &threats);
            have_threats = true;
        }
        Bitboard rescued = egtb_rule_escape_from(pos, m, &threats);
        if (!rescued) continue;
        Kids k2;
        pos_make_move(pos, m);
        dtm_kids(D, pos, &k2);
        bool keep = false;
        for (int x = 0; x < k2.quiets.count && !keep; x++) {
            uint16_t e2 = D->e[me][k2.child[x]];
            keep = e_legal(e2) && e_has(e2, CHASE_WIN) && (egtb_rule_new_attacks(pos, k2.quiets.moves[x]) & rescued);
        }
        pos_unmake_move(pos);
        if (keep) return tt;
    }
    return tt & (uint16_t)~CHASE_WIN;
}

/* sp_remove_fake: one pass over side me's marked entries for the win
 * (victim) or lose (author) marks; returns whether an entry changed. */
static bool remove_fake(DtmRule *D, int me, bool win, uint64_t *bits) {
    uint16_t good = win ? CHASE_WIN : CHASE_LOSE, bad = win ? CHASE_LOSE : CHASE_WIN;
    Wdl bad_type = win ? WDL_LOSE : WDL_WIN;
    Kids k;
    bool any = false;
    for (uint64_t i = 0; i < D->n && !D->failed; i++) {
        if (!bit_test(bits, i)) continue;
        uint16_t e = D->e[me][i];
        if (!(win ? e_ban_win(e) : e_ban_lose(e))) continue;
        uint16_t ne = e;
        /* a chase mark on the wrong side of the WDL holds only as a mutual chase */
        if (dtm_wdl(D, me, i) == bad_type && e_has(ne, good) && !e_has(ne, bad)) ne &= (uint16_t)~good;
        if (win ? e_ban_win(ne) : e_ban_lose(ne)) {
            dtm_decode(D, i, me, &k);
            ne = win ? remove_win(D, me, i, &k, ne) : remove_lose(D, me, &k, ne);
        }
        if (ne != e) {
            D->e[me][i] = ne;
            if (!e_ban_win(ne) && !e_ban_lose(ne)) bit_clear(bits, i);
            any = true;
        }
    }
    return any;
}

void dtm_marks(DtmRule *D, uint64_t *rule_bits[COLOR_NB]) {
    dtm_bits_clear(D, rule_bits[RED]);
    dtm_bits_clear(D, rule_bits[BLACK]);
    init_marks(D, rule_bits);
    for (int me = 0; me < COLOR_NB && !D->failed; me++) {
        int opp = !me;
        while (remove_fake(D, opp, false, rule_bits[opp]) && remove_fake(D, me, true, rule_bits[me])) {
        }
    }
}
