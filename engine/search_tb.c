// SPDX-License-Identifier: GPL-3.0-or-later
/* The endgame tables in the search (docs/egtb.md, "In the search"): the
 * scores of table results, and the root moves ranked by DTC, or by DTM
 * when a won root and all its children are in DTM files. The WDL probe
 * inside the tree is a step of search_tree.c. */
#include <string.h>

#include "egtb/egtb_probe.h"
#include "egtb/egtb_sig.h"
#include "movegen.h"
#include "search_shared.h"

Score tb_score(int wdl, int ply, Score draw) {
    return wdl > 0 ? SCORE_TB_WIN - ply : wdl < 0 ? -SCORE_TB_WIN + ply : draw;
}

/* Has a position repeated since the last capture? Then the game's history
 * (which side started the cycle, what it checked or chased) decides what a
 * table cannot know, and the search with its repetition judge takes over. */
static bool repeated_since_capture(const Position *pos) {
    int window = imin(pos_state(pos)->rule60, pos->game_ply);
    for (int i = 0; i <= window; i++)
        for (int j = i + 2; j <= window; j += 2)
            if (pos->history[pos->game_ply - i].key == pos->history[pos->game_ply - j].key) return true;
    return false;
}

/* A root move's table result for the side making it: the child's DTC (for
 * the opponent) and whether the move captured. false when the child is not
 * in the tables or its value rests on a repetition rule. */
typedef struct {
    int wdl;     /* for the mover */
    int dtc;     /* the child's v: plies to the next conversion + 1 (0: draw) */
    bool capture;
    bool ends;   /* the opponent has no legal reply: mated or stalemated now */
} RootResult;

static bool root_result(Position *pos, Move m, RootResult *r, uint64_t *probes) {
    pos_make_move(pos, m);
    MoveList replies;
    gen_legal(pos, &replies);
    EgtbDtc c = {.v = 1, .order = 0}; /* no reply: mated or stalemated, lost in xiangqi */
    bool ok = replies.count == 0 || egtb_probe_dtc(pos, &c);
    *probes += replies.count > 0 && ok;
    r->capture = pos_state(pos)->captured != NO_PIECE;
    r->ends = replies.count == 0;
    pos_unmake_move(pos);
    if (!ok || c.order != 0) return false;
    r->dtc = c.v;
    r->wdl = c.v == 0 ? 0 : (c.v & 1) ? 1 : -1;
    return true;
}

/* How good a move is for the mover, larger better: a win converting
 * sooner, then a draw, then a loss resisting longer. A winning capture (or
 * mate) converts now, whatever the smaller table says next. A child of v = 1
 * with replies (every one a capture into a lost position) is a conversion
 * in the table but one ply later in the game, where the move limit can
 * fall first: so every win ranks at twice its v, and a conversion by this
 * move one better. */
static int root_rank(const RootResult *r) {
    if (r->wdl > 0) return 4096 - (r->capture || r->ends ? 1 : 2 * r->dtc);
    if (r->wdl == 0) return 0;
    return -4096 + r->dtc;
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

bool tb_rank_root(const Position *root, MoveList *moves, Score *scores) {
    static Position pos; /* one search at a time: only the driver calls this */
    EgtbDtc here;
    uint64_t probes = 1;
    Shared.root_tbhits = 0;
    if (!Options.use_egtb || !egtb_dtc_count() || moves->count == 0) return false;
    if (!egtb_probe_dtc(root, &here) || here.order != 0 || repeated_since_capture(root)) return false;
    /* A conversion that does not fit the move limit: the table's win may be
     * a draw by the limit, which the search judges. */
    if (here.v > 0 && Options.draw_plies > 0 && pos_state(root)->rule60 + here.v - 1 > Options.draw_plies)
        return false;
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
    /* A loss or a draw keeps the DTC ranking: resisting the conversion
     * longest gives the move limit its best chance. */
    if (wdl > 0 && dtm_keep(root, moves, res, scores, &probes)) {
        Shared.root_tbhits = probes;
        return true;
    }
    int kept = 0;
    for (int i = 0; i < moves->count; i++) {
        if (root_rank(&res[i]) != best) continue;
        int plies = imin(res[i].capture && res[i].wdl > 0 ? 1 : res[i].dtc, MAX_PLY);
        scores[kept] = tb_score(res[i].wdl, plies, -Shared.contempt);
        moves->moves[kept++] = moves->moves[i];
    }
    moves->count = kept;
    Shared.root_tbhits = probes;
    return true;
}
