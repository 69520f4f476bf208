// SPDX-License-Identifier: GPL-3.0-or-later
/* The endgame tables in the search (docs/egtb.md, "In the search"): the
 * scores of table results, and the root moves ranked by DTC, or by DTM
 * when a won root and all its children are in DTM files. Values the
 * repetition rules settled (DTC order > 0) rank by order first and stand
 * only where the repetitions already played agree and a bound on the
 * loser's cycles fits the move limit; plain (order-0) values
 * stand where no later occurrence of a repeated position can turn them
 * (docs/egtb.md, "Rule-settled values in play"). The WDL probe inside
 * the tree is a step of search_tree.c. */
#include <string.h>

#include "egtb/egtb_probe.h"
#include "egtb/egtb_sig.h"
#include "movegen.h"
#include "repetition.h"
#include "search_shared.h"

/* The positions a rule-settled win's bound may enumerate (tb_rule_win_plies):
 * past this many the bound is not computed and the root is left to the
 * search. The KRKN worked example needs 7 (0.02 ms once its blocks are
 * decoded, about 3 us a position); a few thousand stay far below a
 * second at the root, once per go. REGION_MAX_MEN caps the
 * men (kings included) of a position stored for it, beyond any table's;
 * REGION_SLOTS (a power of two, twice the cap) sizes its visited set. */
enum { RULE_REGION_CAP = 4096, REGION_MAX_MEN = 12, REGION_SLOTS = 2 * RULE_REGION_CAP };
_Static_assert((REGION_SLOTS & (REGION_SLOTS - 1)) == 0 && RULE_REGION_CAP < 65535,
               "a region slot holds an entry's number");

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
 * mate at ply w. Children that repeat a position of the game count only
 * as res says. false (moves untouched) when any of that fails or the DTM
 * files call a child won by DTC (res) not lost: then DTC ranks. */
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
        if (!ok || c.rule != 0 || (!lost && res[i].wdl > 0)) return false;
        /* A table loss for the opponent that the game's repetitions make a
         * draw or a loss for us (root_result judged the cycle as played)
         * is no move to keep; the rest still rank by DTM when one of them
         * is one ply shorter than the root. */
        if (lost && res[i].wdl <= 0) lost = false;
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

/* Do `plies` more, counted to the position the game ends at (or to the
 * conversion's v = 1, for an order-0 value), fit the move limit? If not,
 * the table's win may be a draw by the limit, which the search judges. */
static bool fits_move_limit(const Position *root, int plies) {
    return Options.draw_plies <= 0 || pos_state(root)->rule60 + plies <= Options.draw_plies;
}

/* A position of a rule-settled win's region, as men on points: enough to
 * set it up again and probe it (the tables ignore the history). */
typedef struct {
    uint8_t men;
    uint8_t side;
    Piece piece[REGION_MAX_MEN];
    uint8_t point[REGION_MAX_MEN];
} RegionEntry;

/* The region of a rule-settled win (tb_rule_win_plies): the positions found,
 * in the order found (also the queue of the breadth-first walk), their
 * keys, and the set of them (open addressing on the key, each slot the
 * entry's number + 1, 0 a free slot). */
typedef struct {
    RegionEntry entry[RULE_REGION_CAP];
    Key key[RULE_REGION_CAP];
    uint16_t slot[REGION_SLOTS];
    int count;
    int cap;          /* at most RULE_REGION_CAP: the tests set less to reach the overflow */
    int longest_exit; /* the largest v of an order-0 position one move out */
} Region;

static bool region_store(const Position *pos, RegionEntry *e) {
    e->men = 0;
    e->side = (uint8_t)pos->side;
    for (Square s = 0; s < SQUARE_NB; s++) {
        if (pos->board[s] == NO_PIECE) continue;
        if (e->men == REGION_MAX_MEN) return false;
        e->piece[e->men] = pos->board[s];
        e->point[e->men++] = (uint8_t)s;
    }
    return true;
}

static void region_setup(const RegionEntry *e, Position *pos) {
    pos_clear(pos);
    for (int i = 0; i < e->men; i++)
        pos_put_piece(pos, e->piece[i], e->point[i]);
    pos->side = (Color)e->side;
    pos_finish_setup(pos);
}

/* Add pos to the region unless already there; false when the region is
 * full or pos cannot be stored (then no bound). */
static bool region_add(Region *r, const Position *pos) {
    Key key = pos_key(pos);
    unsigned i = (unsigned)(key >> 32) & (REGION_SLOTS - 1);
    for (; r->slot[i]; i = (i + 1) & (REGION_SLOTS - 1))
        if (r->key[r->slot[i] - 1] == key) return true;
    if (r->count == r->cap || !region_store(pos, &r->entry[r->count])) return false;
    r->key[r->count++] = key;
    r->slot[i] = (uint16_t)r->count;
    return true;
}

/* Follow move m from pos (a position of the region) with the child's
 * table result r: a capture or a mate ends the game (a capture restarts
 * the no-capture count), an order-0 child is a way out whose conversion
 * takes at most its v plies more, and a rule-settled child joins the
 * region. */
static bool region_follow(Region *reg, Position *pos, Move m, const RootResult *r) {
    if (r->capture || r->ends) return true;
    if (r->order == 0) {
        reg->longest_exit = imax(reg->longest_exit, r->dtc);
        return true;
    }
    pos_make_move(pos, m);
    bool ok = region_add(reg, pos);
    pos_unmake_move(pos);
    return ok;
}

/* Expand one position of the region: the winner (to move) keeps to the
 * moves the root ranking would keep, the loser may play any move. false
 * when a child is not in the tables, the loser has a move that does not
 * lose, or the region overflows. */
static bool region_expand(Region *reg, Position *pos) {
    RootResult res[MAX_MOVES];
    uint64_t probes = 0; /* the bound's probes are not the root's tbhits */
    MoveList moves;
    gen_legal(pos, &moves);
    int best = -(1 << 30);
    for (int i = 0; i < moves.count; i++) {
        if (!root_result(pos, moves.moves[i], &res[i], &probes)) return false;
        best = imax(best, root_rank(&res[i]));
    }
    bool winner = best > 0;
    for (int i = 0; i < moves.count; i++) {
        if (!winner && res[i].wdl >= 0) return false;
        if ((!winner || root_rank(&res[i]) == best) && !region_follow(reg, pos, moves.moves[i], &res[i])) return false;
    }
    return true;
}

/* The plies, at most, from pos (a rule-settled win or loss) to where the
 * game ends: the loser's last cycle judged at a position's third
 * occurrence, a mate, or a capture (after which the count starts again).
 * The winner keeps to the table's line (the moves the root ranking keeps),
 * which never leaves the rule-settled region (an order-k win has no move
 * to a loss of lower order); the loser may play anything, and every move
 * it has leads to a win of order k or below. The region is every
 * position so reachable with a value of order above 0. Along the game no
 * position occurs a third time before the end, so the game spends at most
 * 2 x |region| positions in it, the last move out of it ending the game
 * or reaching an order-0 win, whose DTC strictly falls from then on (no
 * repetition is possible): v plies at most to the capture. Hence
 * 2 x |region| + the largest such v. Orders never rise along the game, so
 * the region holds every cycle the loser can go round. The repetitions of
 * the game before pos only bring the third occurrence sooner. false (no
 * bound) past RULE_REGION_CAP positions or where a table cannot be read. */
bool tb_rule_win_plies(const Position *pos, int *plies) {
    return tb_rule_win_plies_within(pos, RULE_REGION_CAP, plies);
}

bool tb_rule_win_plies_within(const Position *pos, int cap, int *plies) {
    static Region reg; /* the driver's only, as the root ranking */
    static Position walk;
    memset(reg.slot, 0, sizeof reg.slot);
    reg.count = 0;
    reg.cap = imax(1, imin(cap, RULE_REGION_CAP));
    reg.longest_exit = 0;
    if (!region_add(&reg, pos)) return false;
    for (int head = 0; head < reg.count; head++) {
        region_setup(&reg.entry[head], &walk);
        if (!region_expand(&reg, &walk)) return false;
    }
    *plies = 2 * reg.count + reg.longest_exit;
    return true;
}

/* Does a win or loss fit the move limit from pos, `before` plies after
 * the root? An order-0 value takes v - 1 plies to its conversion; a
 * rule-settled one what tb_rule_win_plies bounds, or is not trusted. */
static bool value_fits_move_limit(const Position *root, const Position *pos, const EgtbDtc *d, int before) {
    if (Options.draw_plies <= 0) return true;
    int plies = d->v - 1;
    if (d->order > 0 && !tb_rule_win_plies(pos, &plies)) return false;
    return fits_move_limit(root, before + plies);
}

/* The same for the child a root move m leads to, of table result r, at a
 * root of value here. A child on the table's line (the order and v the
 * root's own value stands on) is inside the game the root's bound covers,
 * which needs no second look; any other rule-settled child (a longer win
 * kept where the played cycles took the shortest away) gets its own. */
static bool child_fits_move_limit(const Position *root, Position *pos, Move m, const RootResult *r,
                                  const EgtbDtc *here) {
    if (r->order == 0) return fits_move_limit(root, r->dtc);
    if (r->order == here->order && r->dtc + 1 == here->v) return true;
    pos_make_move(pos, m);
    EgtbDtc d = {.v = (uint16_t)r->dtc, .order = (uint8_t)r->order};
    bool fits = value_fits_move_limit(root, pos, &d, 1);
    pos_unmake_move(pos);
    return fits;
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
    memcpy(&pos, root, sizeof pos); /* history_allows walked it back */
    pos.nnue = NULL;
    if (here.v > 0 && !value_fits_move_limit(root, &pos, &here, 0)) return false;
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
            (!child_fits_move_limit(root, &pos, moves->moves[i], &res[i], &here) ||
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
