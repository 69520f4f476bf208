// SPDX-License-Identifier: GPL-3.0-or-later
/* Statistics updates of the search (search_stats.h). */
#include "search_stats.h"

#include "movepick.h"

void stats_update_continuation(SearchStack *ss, Piece p, Square to, int bonus) {
    static const int Back[] = {1, 2, 4, 6};
    for (int i = 0; i < 4; i++) {
        if (ss->in_check && Back[i] > 2) break;
        const SearchStack *prev = ss - Back[i];
        if (prev->move == MOVE_NONE || prev->move == MOVE_NULL) continue;
        history_update(&(*prev->cont_hist)[p][to], bonus);
    }
}

void stats_update_quiet(SearchThread *t, SearchStack *ss, Move m, int bonus) {
    const Position *pos = &t->pos;
    Square from = move_from(m), to = move_to(m);
    history_update(&t->history[pos->side][from][to], bonus);
    if (ss->ply < LOW_PLY) history_update(&t->low_ply[ss->ply][from][to], bonus);
    stats_update_continuation(ss, pos->board[from], to, bonus);
}

void stats_quiet_cutoff(SearchThread *t, SearchStack *ss, Move m, int bonus) {
    if (ss->killers[0] != m) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = m;
    }
    Move prev = (ss - 1)->move;
    if (prev != MOVE_NONE && prev != MOVE_NULL) t->counter[t->pos.board[move_to(prev)]][move_to(prev)] = m;
    stats_update_quiet(t, ss, m, bonus);
}

static void update_capture(SearchThread *t, Move m, int bonus) {
    const Position *pos = &t->pos;
    Piece p = pos->board[move_from(m)];
    history_update(&t->capture[p][move_to(m)][type_of(pos->board[move_to(m)])], bonus);
}

void stats_update_all(SearchThread *t, SearchStack *ss, Move best, int depth, const Move *quiets, int quiet_count,
                      const Move *captures, int capture_count) {
    const Position *pos = &t->pos;
    int bonus = history_bonus(depth + 1), malus = history_malus(depth);
    if (!move_is_capture(pos, best)) {
        stats_quiet_cutoff(t, ss, best, bonus);
        for (int i = 0; i < quiet_count; i++) stats_update_quiet(t, ss, quiets[i], -malus);
    } else {
        update_capture(t, best, bonus);
    }
    for (int i = 0; i < capture_count; i++) update_capture(t, captures[i], -malus);

    /* The opponent's quiet move, tried early, was refuted at once. */
    Move prev = (ss - 1)->move;
    if (prev != MOVE_NONE && prev != MOVE_NULL && !pos_state(pos)->captured &&
        (ss - 1)->move_count == 1 + (ss - 1)->tt_hit)
        stats_update_continuation(ss - 1, pos->board[move_to(prev)], move_to(prev), -malus);
}
