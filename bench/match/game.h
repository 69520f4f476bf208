// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * One game between two engines under the Asian rules, with the runner
 * keeping the clocks and adjudicating (docs/matches.md lists every rule).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "fen.h"
#include "position.h"

typedef enum { RES_NONE = 0, RES_RED_WINS, RES_BLACK_WINS, RES_DRAW } GameResult;

typedef struct {
    /* Time control: clock (base_ms + inc_ms, moves_per_period > 0 adds base
     * again every that many moves), or movetime_ms per move, or depth, or nodes. */
    int64_t base_ms, inc_ms;
    int moves_per_period;
    int64_t movetime_ms;
    int depth;
    int64_t nodes;
    int64_t margin_ms;      /* grace before a clock or movetime overrun forfeits */
    int64_t move_timeout_ms; /* depth/nodes searches: answer within this or forfeit */
} TimeControl;

typedef struct {
    int repetitions;      /* adjudicate a repetition when a position occurs this often (>= 2) */
    int nocapture_plies;  /* draw after this many plies without capture, 0 = off */
    int max_plies;        /* draw after this many plies in all, 0 = off */
    bool draw_offers;     /* honour bestmove ... draw / send go draw */
    bool ban_moves;       /* UCCI: send banmoves for moves that repeat into a forbidden cycle */
    /* Score adjudication (0 counts = off): draw when both sides' |score| <=
     * draw_score for draw_count consecutive moves each, from move draw_from;
     * resign when a side's score <= -resign_score for resign_count moves
     * running while its opponent's is >= resign_score. */
    int draw_from, draw_count, draw_score;
    int resign_count, resign_score;
} AdjudicationRules;

enum { GAME_MAX_PLIES = MAX_HISTORY - 1 };

typedef struct {
    char start_fen[FEN_MAX];
    int ply_count;
    Move moves[GAME_MAX_PLIES];
    char comments[GAME_MAX_PLIES][32];
    GameResult result;
    char reason[400];
    bool engine_failed[COLOR_NB]; /* crashed, hung or forfeited on time: restart it */
    /* Moves that went over the clock (or the movetime) by less than the
     * margin, so they were forgiven, and the largest such overrun: what a
     * strict referee would have forfeited. */
    int overruns[COLOR_NB];
    int64_t worst_overrun_ms[COLOR_NB];
} GameRecord;

/* Judge the position by the rules alone: no legal move, forbidden or plain
 * repetition, no-capture limit, insufficient material, length limit.
 * Returns RES_NONE while the game goes on; otherwise reason says why. */
GameResult adjudicate_position(const Position *pos, const AdjudicationRules *rules, char *reason, size_t len);

/* Legal moves of the side to move that repeat an earlier position in a
 * cycle where the mover checks or chases perpetually (what the UCCI league
 * referee bans). pos is restored; returns the count written to out. */
int game_forbidden_moves(Position *pos, Move *out);

/* Play one game from fen; engines[RED] moves the red pieces. */
void game_play(Engine *engines[COLOR_NB], const char *fen, const TimeControl *tc, const AdjudicationRules *rules,
               GameRecord *rec);

/* Text of a result: "1-0", "0-1", "1/2-1/2", "*". */
const char *game_result_text(GameResult r);
