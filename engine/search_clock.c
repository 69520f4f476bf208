// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Node time (the `nodestime` option, as Stockfish and Pikafish have it):
 * under a clock the search measures its time in nodes, Options.nodestime
 * of them to the millisecond, and the engine keeps its own clock in nodes
 * from move to move: started from the GUI's clock at the first timed `go`
 * of a game, charged the nodes each move took and credited the increment.
 * The time manager then sees the same clock for the same moves whatever
 * the machine's load, so a game at a clock plays the same on a busy
 * machine as on an idle one, and with one thread the same every time.
 * The real clock's hard limit still stops the search (a machine slower
 * than nodestime says would otherwise lose on time); the GUI's clock is
 * read again only at a new game or a new movestogo period.
 */
#include "search_shared.h"

void node_time_reset(void) {
    Shared.node_clock = 0;
    Shared.gui_movestogo = 0;
    Shared.gui_game_ply = 0;
}

bool node_time_begin(SearchLimits *limits, int game_ply) {
    Shared.node_time = false;
    if (Options.nodestime <= 0 || limits->time_ms < 0 || limits->movetime_ms > 0 || limits->infinite) return false;
    int64_t per_ms = Options.nodestime;
    /* A game whose ply went back is a new game (not every GUI sends
     * ucinewgame), and another rate another clock: the GUI's clock again. */
    if (game_ply < Shared.gui_game_ply || per_ms != Shared.node_clock_rate) node_time_reset();
    Shared.node_clock_rate = per_ms;
    if (Shared.node_clock <= 0) {
        Shared.node_clock = (limits->time_ms > 1 ? limits->time_ms : 1) * per_ms;
    } else if (limits->movestogo > Shared.gui_movestogo && Shared.gui_movestogo > 0) {
        /* A new period of moves: the GUI added its time to what was left
         * after our last move, which took about last_move_ms of its clock. */
        int64_t added = limits->time_ms - (Shared.gui_time_ms - Shared.last_move_ms);
        if (added > 0) Shared.node_clock += added * per_ms;
    }
    Shared.gui_time_ms = limits->time_ms;
    Shared.gui_movestogo = limits->movestogo;
    Shared.gui_game_ply = game_ply;
    limits->time_ms = Shared.node_clock / per_ms > 1 ? Shared.node_clock / per_ms : 1;
    atomic_store(&Shared.nodes_at_clock, 0);
    Shared.node_time = true;
    return true;
}

void node_time_end(const SearchLimits *gui_limits, bool completed) {
    Shared.last_move_ms = now_ms() - Shared.start_ms;
    if (!Shared.node_time || !completed) return;
    uint64_t n = threads_nodes(), at = atomic_load(&Shared.nodes_at_clock);
    int64_t used = n > at ? (int64_t)(n - at) : 0;
    int64_t inc = gui_limits->inc_ms > 0 ? gui_limits->inc_ms * (int64_t)Options.nodestime : 0;
    int64_t left = Shared.node_clock - used + inc;
    /* Never 0: that would mean "start again from the GUI's clock". */
    Shared.node_clock = left > 1 ? left : 1;
}
