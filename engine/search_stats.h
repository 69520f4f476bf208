// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * How a finished node teaches the move-ordering statistics of its thread
 * (history.h): the move that failed high gets a bonus in every table that
 * ordered it, the moves tried before it a malus, and the killers and the
 * countermove remember it.
 */
#include "thread.h"

/* Continuation histories 1, 2, 4 and 6 plies back for (p, to) played at ss
 * (only 1 and 2 back when ss is in check). */
void stats_update_continuation(SearchStack *ss, Piece p, Square to, int bonus);
/* Butterfly, low-ply and continuation histories of quiet move m at ss. */
void stats_update_quiet(SearchThread *t, SearchStack *ss, Move m, int bonus);
/* A quiet move refuted the node: killers and countermove too. */
void stats_quiet_cutoff(SearchThread *t, SearchStack *ss, Move m, int bonus);
/* The node ended with `best` (a cut-off or a PV move): reward it, punish
 * the quiets and captures tried before it, and punish the opponent's
 * previous quiet move if it was refuted among the first moves. */
void stats_update_all(SearchThread *t, SearchStack *ss, Move best, int depth, const Move *quiets, int quiet_count,
                      const Move *captures, int capture_count);
