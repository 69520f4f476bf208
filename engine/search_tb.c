// SPDX-License-Identifier: GPL-3.0-or-later
/* The endgame tables in the search (docs/egtb.md, "In the search"): the
 * scores of table results, and the root moves ranked by DTC, or by DTM
 * when a won root and all its children are in DTM files. Values the
 * repetition rules settled (DTC order > 0) rank by order first and stand
 * only where the repetitions already played agree; plain (order-0) values
 * stand where no later occurrence of a repeated position can turn them
 * (docs/egtb.md, "Rule-settled values in play"). The WDL probe inside
 * the tree is a step of search_tree.c. */
#include <string.h>

#include "egtb/egtb_probe.h"
#include "egtb/egtb_sig.h"
#include "movegen.h"
#include "repetition.h"
#include "search_shared.h"

/* Plies allowed, beyond a rule-settled value's v - 1, for the loser's
 * forced cycle to come round to the referee's verdict (the third
 * occurrence of a position, docs/matches.md): the table counts plies only
 * to the first position where the loser can do nothing but check or chase
 * (v = 1), not to the repetition that ends the game. The loser can delay
 * that repetition by at most two visits to each position of its cycle: in
 * the KRKN worked example 7 positions (14 plies), and the play-out takes 7
 * (docs/egtb.md, "Rule-settled values in play"). A measured allowance, not a
 * bound: a rule-settled value whose v - 1 and this allowance do not fit
 * the move limit is left to the search. */
enum { RULE_CYCLE_PLIES = 40 };

/* The root ranking orders wins by (order, v) as the tables settle them: a
 * lower order first (it rests on fewer rule rounds; order 0 on none), then
 * a smaller v. ORDER_RANK_SPAN exceeds every rank within one order (2 *
 * 1020 + 1), WIN_RANK every order's span (127 orders at most). */
enum { ORDER_RANK_SPAN = 1 << 12, WIN_RANK = 1 << 20 };

Score tb_score(int wdl, int ply, Score draw) {
    return wdl > 0 ? SCORE_TB_WIN - ply : wdl < 0 ? -SCORE_TB_WIN + ply : draw;
}

/* A root move's table result for the side making it: the child's DTC (for
 * the opponent) and whether the move captured. false when the child is not
 * in the tables. */
typedef struct {
    int wdl;   /* for the mover */
    int dtc;   /* the child's v: plies to the next conversion, or to the
                  rule loss when order > 0, + 1 (0: draw) */
    int order; /* the rule round that settled the child (0: no rule) */
    bool capture;
    bool ends; /* the opponent has no legal reply: mated or stalemated now */
} RootResult;

/* A child that repeats a position of the game since the last capture is
 * judged by the repetition judge on the cycle as played, which a table
 * cannot see: the mover gets the worse of the two verdicts, so a table win
 * is never kept where the cycle played says draw or loss. */
static void judge_played_cycle(const Position *child, RootResult *r) {
    RepVerdict v = rep_judge(child); /* for the opponent, to move in child */
    if (v == REP_DRAW && r->wdl > 0) *r = (RootResult){.wdl = 0, .dtc = 0, .order = 0};
    if (v == REP_WIN && r->wdl >= 0) *r = (RootResult){.wdl = -1, .dtc = 1, .order = 0};
}

static bool root_result(Position *pos, Move m, RootResult *r, uint64_t *probes) {
    pos_make_move(pos, m);
    MoveList replies;
    gen_legal(pos, &replies);
    EgtbDtc c = {.v = 1, .order = 0}; /* no reply: mated or stalemated, lost in xiangqi */
    bool ok = replies.count == 0 || egtb_probe_dtc(pos, &c);
    *probes += replies.count > 0 && ok;
    r->capture = pos_state(pos)->captured != NO_PIECE;
    r->ends = replies.count == 0;
    r->dtc = c.v;
    r->order = c.order;
    r->wdl = c.v == 0 ? 0 : (c.v & 1) ? 1 : -1;
    if (ok && !r->ends) judge_played_cycle(pos, r);
    pos_unmake_move(pos);
    return ok;
}

/* How good a move is for the mover, larger better: a win converting
 * sooner, then a draw, then a loss resisting longer. A winning capture (or
 * mate) converts now, whatever the smaller table says next. A child of v = 1
 * with replies (every one a capture into a lost position) is a conversion
 * in the table but one ply later in the game, where the move limit can
 * fall first: so every win ranks at twice its v, and a conversion by this
 * move one better. Orders first: a win resting on fewer rule rounds beats
 * any v of a higher order (it never needs the opponent's cycle judged, or
 * needs fewer); a loser keeps to the highest order, whose win rests on the
 * most rule rounds and lasts until the referee judges the cycle. */
static int root_rank(const RootResult *r) {
    if (r->wdl > 0) return WIN_RANK - r->order * ORDER_RANK_SPAN - (r->capture || r->ends ? 1 : 2 * r->dtc);
    if (r->wdl == 0) return 0;
    return -WIN_RANK + r->order * ORDER_RANK_SPAN + r->dtc;
}

/* DTM is read only where one side has attacking pieces: a both-sides DTM
 * counts distances to rule losses too, not understood yet (docs/egtb.md,
 * "DTM files"). Captures only remove pieces, so the children qualify too. */
static bool one_side_attacks(const Position *pos) {
    EgtbMaterial m;
    egtb_sig_of_position(pos, &m);
    return !(egtb_sig_has_attackers(&m, RED) && egtb_sig_has_attackers(&m, BLACK));
}

/* A won root whose every child is in the DTM files, and whose whole mate
 * fits the move limit (then it keeps fitting along the kept moves: rule60
 * grows by 2 as the DTM drops by 2, or resets at a capture): keep the
 * moves to the lost child of least DTM w (ties: least DTC), scored as a
 * mate at ply w. false (moves untouched) when any of that fails or the
 * DTM files disagree with DTC (res) on who wins: then DTC ranks. */
static bool dtm_keep(const Position *root, MoveList *moves, const RootResult *res, Score *scores,
                     uint64_t *probes) {
    static Position pos; /* the driver's only */
    static int w[MAX_MOVES];
    EgtbDtm here;
    if (!egtb_dtm_count() || !one_side_attacks(root) || !egtb_probe_dtm(root, &here)) return false;
    if (!here.win || here.v == 0 || here.rule != 0) return false;
    if (Options.draw_plies > 0 && pos_state(root)->rule60 + here.v - 1 > Options.draw_plies) return false;
    memcpy(&pos, root, sizeof pos);
    pos.nnue = NULL;
    int least = 0;
    for (int i = 0; i < moves->count; i++) {
        pos_make_move(&pos, moves->moves[i]);
        MoveList replies;
        gen_legal(&pos, &replies);
        EgtbDtm c = {.v = 1, .win = false, .rule = 0}; /* no reply: lost */
        bool ok = replies.count == 0 || egtb_probe_dtm(&pos, &c);
        *probes += replies.count > 0 && ok;
        pos_unmake_move(&pos);
        bool lost = ok && !c.win && c.v > 0;
        if (!ok || c.rule != 0 || lost != (res[i].wdl > 0)) return false;
        w[i] = lost ? c.v : 0;
        if (lost && (!least || c.v < least)) least = c.v;
    }
    if (least + 1 != here.v) return false; /* the root's DTM is one more than its best child's */
    int least_dtc = 0;
    for (int i = 0; i < moves->count; i++)
        if (w[i] == least && (!least_dtc || res[i].dtc < least_dtc)) least_dtc = res[i].dtc;
    int kept = 0;
    for (int i = 0; i < moves->count; i++) {
        if (w[i] != least || res[i].dtc != least_dtc) continue;
        /* A mate at ply w; past MAX_PLY the table band, as DTC scores it. */
        scores[kept] = least < MAX_PLY ? mate_in(least) : tb_score(1, MAX_PLY, 0);
        moves->moves[kept++] = moves->moves[i];
    }
    moves->count = kept;
    return true;
}

/* Do `plies` to the conversion (or, for a value of order > 0, to the rule
 * loss, and the loser's cycle after it) fit the move limit? If not, the
 * table's win may be a draw by the limit, which the search judges. */
static bool fits_move_limit(const Position *root, int plies, int order) {
    if (Options.draw_plies <= 0) return true;
    return pos_state(root)->rule60 + plies + (order > 0 ? RULE_CYCLE_PLIES : 0) <= Options.draw_plies;
}

/* Could the table's line of an order-0 win for `winner` pass through pos,
 * `reach` plies or fewer from the conversion? Every position of that line
 * is an order-0 win for the winner (to move) or loss (the other side to
 * move), of DTC at most reach. A position the tables cannot read counts as
 * on the line. */
static bool on_winning_line(const Position *pos, Color winner, int reach) {
    EgtbDtc d;
    if (!egtb_probe_dtc(pos, &d)) return true;
    if (d.order != 0 || d.v == 0 || d.v > reach) return false;
    bool mover_wins = !(d.v & 1);
    return mover_wins == (pos->side == winner);
}

/* Does a repetition on the board (pos at its later occurrence, `first`
 * the history index of its first) leave the root's table value standing?
 * The referee judges a position's third occurrence from its first (docs/
 * matches.md), so a cycle that began before the root reads moves the
 * table never saw (docs/egtb.md, "Rule-settled values in play"):
 * - order 0, a win or loss: the winner's line falls in DTC every ply, so
 *   it passes each position once at most and can bring a third occurrence
 *   only to a position that has already occurred twice and lies on the
 *   line (an order-0 win for the same side, of DTC below the root's);
 * - order 0, a draw: the side to move can lose it only as the offender of
 *   a cycle; one that was idle for good in this cycle is never the offender
 *   of any later occurrence of the position;
 * - order k > 0, itself a verdict on a cycle: the cycle, judged from its
 *   first occurrence as the referee judges it, must already go the
 *   table's way (the loser the offender): the play-out of a rule win passes
 *   through such repetitions before the third occurrence ends it. */
static bool repetition_allows(const Position *pos, int first, const EgtbDtc *here, Color us) {
    int want = here->v == 0 ? 0 : (here->v & 1) ? -1 : 1; /* for us */
    if (here->order == 0 && want != 0) return !on_winning_line(pos, want > 0 ? us : (Color)!us, here->v - 1);
    RepJudgement j = rep_judge_cycle(pos, first);
    if (here->order == 0) return j.idle_for_good[us];
    int for_us = j.verdict == REP_WIN ? 1 : j.verdict == REP_LOSS ? -1 : 0; /* for the side to move at pos */
    if (pos->side != us) for_us = -for_us;
    return for_us == want;
}

/* Does the game so far allow the table's value here? With no position
 * repeated since the last capture the table's assumption is kept, that
 * cycles start at or after the root (a position seen once before needs
 * two more occurrences to be judged). Otherwise every repetition on the
 * board must leave the value standing (above); *repeated says whether
 * there was one. pos is the driver's copy of the root. */
static bool history_allows(Position *pos, const EgtbDtc *here, bool *repeated) {
    int window = imin(pos_state(pos)->rule60, pos->game_ply), root_ply = pos->game_ply;
    Color us = pos->side;
    *repeated = false;
    for (int e = 0; e <= window; e++) {
        if (e > 0) pos_unmake_move(pos); /* back to the next end of a cycle */
        int end = root_ply - e, first = -1;
        for (int j = end - 4; j >= root_ply - window; j -= 2)
            if (pos->history[j].key == pos->history[end].key) first = j;
        if (first < 0) continue;
        *repeated = true;
        if (!repetition_allows(pos, first, here, us)) return false;
    }
    return true;
}

bool tb_rank_root(const Position *root, MoveList *moves, Score *scores) {
    static Position pos; /* one search at a time: only the driver calls this */
    EgtbDtc here;
    uint64_t probes = 1;
    Shared.root_tbhits = 0;
    Shared.root_tb_rule = false;
    if (!Options.use_egtb || !egtb_dtc_count() || moves->count == 0) return false;
    if (!egtb_probe_dtc(root, &here)) return false;
    memcpy(&pos, root, sizeof pos);
    pos.nnue = NULL;
    bool repeated;
    if (!history_allows(&pos, &here, &repeated)) return false;
    if (here.v > 0 && !fits_move_limit(root, here.v - 1, here.order)) return false;
    memcpy(&pos, root, sizeof pos);
    pos.nnue = NULL;
    RootResult res[MAX_MOVES];
    int best = -(1 << 30);
    for (int i = 0; i < moves->count; i++) {
        if (pos_history_full(&pos) || !root_result(&pos, moves->moves[i], &res[i], &probes)) return false;
        best = imax(best, root_rank(&res[i]));
    }
    int wdl = here.v == 0 ? 0 : (here.v & 1) ? -1 : 1;
    if ((best > 0) != (wdl > 0) || (best == 0) != (wdl == 0)) return false; /* the children disagree: trust neither */
    /* The best win left may be longer than the root's v says, where the
     * played cycles took the shortest away (judge_played_cycle): it must
     * fit the move limit, and with a repetition on the board its line may
     * reach positions of DTC the root's check did not cover. */
    for (int i = 0; i < moves->count; i++)
        if (root_rank(&res[i]) == best && res[i].wdl > 0 && !res[i].capture && !res[i].ends &&
            (!fits_move_limit(root, res[i].dtc, res[i].order) ||
             (repeated && here.order == 0 && res[i].dtc > here.v - 1)))
            return false;
    /* A loss or a draw keeps the DTC ranking: resisting the conversion
     * longest gives the move limit its best chance. */
    if (wdl > 0 && dtm_keep(root, moves, res, scores, &probes)) {
        Shared.root_tbhits = probes;
        return true;
    }
    int kept = 0;
    for (int i = 0; i < moves->count; i++) {
        if (root_rank(&res[i]) != best) continue;
        int move_plies = imin(res[i].capture && res[i].wdl > 0 ? 1 : res[i].dtc, MAX_PLY);
        scores[kept] = tb_score(res[i].wdl, move_plies, -Shared.contempt);
        moves->moves[kept++] = moves->moves[i];
    }
    moves->count = kept;
    Shared.root_tbhits = probes;
    /* The search scores a rule win it sees played out as a mate; the
     * table's score is the one to show (docs/egtb.md, "Scores"). */
    Shared.root_tb_rule = here.order > 0;
    return true;
}
