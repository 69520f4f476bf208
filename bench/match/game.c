// SPDX-License-Identifier: GPL-3.0-or-later
#include "game.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "repetition.h"

static const char *const ColorName[COLOR_NB] = {"Red", "Black"};

const char *game_result_text(GameResult r) {
    switch (r) {
    case RES_RED_WINS: return "1-0";
    case RES_BLACK_WINS: return "0-1";
    case RES_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

static GameResult win_for(Color c) { return c == RED ? RES_RED_WINS : RES_BLACK_WINS; }

/* Can either side still give mate? Kings, advisors and elephants alone cannot. */
static bool has_attackers(const Position *pos, Color c) {
    return (pos_pieces(pos, c, ROOK) | pos_pieces(pos, c, HORSE) | pos_pieces(pos, c, CANNON) |
            pos_pieces(pos, c, PAWN)) != 0;
}

GameResult adjudicate_position(const Position *pos, const AdjudicationRules *rules, char *reason, size_t len) {
    Color us = pos->side, them = (Color)!us;
    if (gen_count_legal(pos) == 0) {
        snprintf(reason, len, "%s is %s", ColorName[us], pos_in_check(pos) ? "checkmated" : "stalemated (no legal move)");
        return win_for(them);
    }
    int first;
    int count = rep_count(pos, &first);
    if (rules->repetitions >= 2 && count >= rules->repetitions) {
        RepJudgement j = rep_judge_cycle(pos, first);
        if (j.verdict == REP_DRAW) {
            if (j.conduct[RED] != REP_IDLE)
                snprintf(reason, len, "repetition: both sides forbidden (Red %s, Black %s)", rep_conduct_name(j.conduct[RED]),
                         rep_conduct_name(j.conduct[BLACK]));
            else
                snprintf(reason, len, "repetition with neither side forcing it (%d times)", count);
            return RES_DRAW;
        }
        Color loser = j.verdict == REP_LOSS ? us : them;
        snprintf(reason, len, "perpetual %s by %s", rep_conduct_name(j.conduct[loser]), ColorName[loser]);
        return win_for((Color)!loser);
    }
    if (!has_attackers(pos, RED) && !has_attackers(pos, BLACK)) {
        snprintf(reason, len, "insufficient material");
        return RES_DRAW;
    }
    if (rules->nocapture_plies > 0 && pos_state(pos)->rule60 >= rules->nocapture_plies) {
        snprintf(reason, len, "no capture in %d plies", rules->nocapture_plies);
        return RES_DRAW;
    }
    if ((rules->max_plies > 0 && pos->game_ply >= rules->max_plies) || pos->game_ply >= GAME_MAX_PLIES) {
        snprintf(reason, len, "game length limit (%d plies)", pos->game_ply);
        return RES_DRAW;
    }
    return RES_NONE;
}

int game_forbidden_moves(Position *pos, Move *out) {
    MoveList list;
    gen_legal(pos, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        /* After the move the opponent is to move: REP_WIN means the mover is forbidden. */
        if (rep_judge(pos) == REP_WIN) out[n++] = list.moves[i];
        pos_unmake_move(pos);
    }
    return n == list.count ? 0 : n; /* never ban every move */
}

/* Append " m1 m2 ..." for history plies from..to in the engine's ranks. */
static void append_moves(char *buf, size_t size, const Position *pos, int from, int to, int rank_base) {
    size_t n = strlen(buf);
    if (from > to) return;
    n += (size_t)snprintf(buf + n, size - n, " moves");
    for (int i = from; i <= to && n + 8 < size; i++) {
        char t[MOVE_TEXT_MAX];
        n += (size_t)snprintf(buf + n, size - n, " %s", move_to_text(pos->history[i].move, rank_base, t));
    }
}

/* A time in the engine's unit (UCCI seconds unless milliseconds were agreed). */
static long long in_unit(const Engine *e, int64_t ms) {
    if (ms < 0) ms = 0;
    return e->millis ? (long long)ms : (long long)(ms / 1000);
}

static void build_go(char *buf, size_t size, const Engine *e, const TimeControl *tc, const int64_t clock[COLOR_NB],
                     const int moves_made[COLOR_NB], Color us, bool draw_offered) {
    bool ucci = e->cfg->proto == PROTO_UCCI;
    int n = snprintf(buf, size, "go%s", ucci && draw_offered ? " draw" : "");
    if (tc->depth > 0) {
        snprintf(buf + n, size - (size_t)n, " depth %d", tc->depth);
    } else if (tc->nodes > 0) {
        snprintf(buf + n, size - (size_t)n, " nodes %lld", (long long)tc->nodes);
    } else if (tc->movetime_ms > 0) {
        if (ucci) snprintf(buf + n, size - (size_t)n, " time %lld movestogo 1", in_unit(e, tc->movetime_ms));
        else snprintf(buf + n, size - (size_t)n, " movetime %lld", (long long)tc->movetime_ms);
    } else {
        Color them = (Color)!us;
        int mpp = tc->moves_per_period;
        int togo_us = mpp ? mpp - moves_made[us] % mpp : 0, togo_them = mpp ? mpp - moves_made[them] % mpp : 0;
        if (ucci) {
            n += snprintf(buf + n, size - (size_t)n, " time %lld", in_unit(e, clock[us]));
            if (mpp) n += snprintf(buf + n, size - (size_t)n, " movestogo %d", togo_us);
            else n += snprintf(buf + n, size - (size_t)n, " increment %lld", in_unit(e, tc->inc_ms));
            n += snprintf(buf + n, size - (size_t)n, " opptime %lld", in_unit(e, clock[them]));
            if (mpp) snprintf(buf + n, size - (size_t)n, " oppmovestogo %d", togo_them);
            else snprintf(buf + n, size - (size_t)n, " oppincrement %lld", in_unit(e, tc->inc_ms));
        } else {
            n += snprintf(buf + n, size - (size_t)n, " wtime %lld btime %lld winc %lld binc %lld",
                          (long long)clock[RED], (long long)clock[BLACK], (long long)tc->inc_ms, (long long)tc->inc_ms);
            if (mpp) snprintf(buf + n, size - (size_t)n, " movestogo %d", togo_us);
        }
    }
}

typedef struct {
    int draw_run[COLOR_NB], lose_run[COLOR_NB], win_run[COLOR_NB];
} ScoreRuns;

/* Score adjudication after side us reported score; RES_NONE to go on. */
static GameResult adjudicate_score(ScoreRuns *r, const AdjudicationRules *rules, const GoResult *g, Color us,
                                   int fullmove, char *reason, size_t len) {
    Color them = (Color)!us;
    if (!g->has_score) {
        r->draw_run[us] = r->lose_run[us] = r->win_run[us] = 0;
        return RES_NONE;
    }
    int s = g->score;
    r->draw_run[us] = fullmove >= rules->draw_from && abs(s) <= rules->draw_score ? r->draw_run[us] + 1 : 0;
    r->lose_run[us] = s <= -rules->resign_score ? r->lose_run[us] + 1 : 0;
    r->win_run[us] = s >= rules->resign_score ? r->win_run[us] + 1 : 0;
    if (rules->draw_count > 0 && r->draw_run[us] >= rules->draw_count && r->draw_run[them] >= rules->draw_count) {
        snprintf(reason, len, "adjudicated draw: both scores within %d for %d moves", rules->draw_score, rules->draw_count);
        return RES_DRAW;
    }
    if (rules->resign_count > 0 && r->lose_run[us] >= rules->resign_count && r->win_run[them] >= rules->resign_count) {
        snprintf(reason, len, "adjudicated: %s's score at or below -%d for %d moves", ColorName[us], rules->resign_score,
                 rules->resign_count);
        return win_for(them);
    }
    return RES_NONE;
}

/* Everything one game in progress keeps besides the record. */
typedef struct {
    Position *pos;
    const TimeControl *tc;
    const AdjudicationRules *rules;
    char capture_fen[FEN_MAX]; /* UCCI engines get the position after the last capture */
    int capture_ply;
    bool clocked;
    int64_t clock[COLOR_NB];
    int moves_made[COLOR_NB];
    bool offer[COLOR_NB]; /* offer[c]: c offered a draw with its last move */
    ScoreRuns runs;
    char *position_cmd;
    size_t cmd_size;
} Game;

/* The `position` command (and `banmoves`) for engine e. */
static void build_position(Game *g, const Engine *e, const char *start_fen) {
    bool ucci = e->cfg->proto == PROTO_UCCI;
    snprintf(g->position_cmd, g->cmd_size, "position fen %s", ucci ? g->capture_fen : start_fen);
    append_moves(g->position_cmd, g->cmd_size, g->pos, ucci ? g->capture_ply + 1 : 1, g->pos->game_ply,
                 e->cfg->rank_base);
    if (!ucci || !g->rules->ban_moves) return;
    Move banned[MAX_MOVES];
    int nb = game_forbidden_moves(g->pos, banned);
    size_t len = strlen(g->position_cmd);
    if (nb) len += (size_t)snprintf(g->position_cmd + len, g->cmd_size - len, "\nbanmoves");
    for (int i = 0; i < nb && len + 8 < g->cmd_size; i++) {
        char t[MOVE_TEXT_MAX];
        len += (size_t)snprintf(g->position_cmd + len, g->cmd_size - len, " %s", move_to_text(banned[i], 0, t));
    }
}

static void note_overrun(GameRecord *rec, Color us, int64_t over_ms) {
    rec->overruns[us]++;
    if (over_ms > rec->worst_overrun_ms[us]) rec->worst_overrun_ms[us] = over_ms;
}

/* Charge the mover's clock for the answer; RES_NONE unless it lost on time. */
static GameResult charge_clock(Game *g, const GoResult *a, Color us, const char *name, GameRecord *rec) {
    const TimeControl *tc = g->tc;
    Color them = (Color)!us;
    char *reason = rec->reason;
    size_t len = sizeof rec->reason;
    if (!g->clocked) {
        if (tc->movetime_ms <= 0 || a->elapsed_ms <= tc->movetime_ms) return RES_NONE;
        if (a->elapsed_ms <= tc->movetime_ms + tc->margin_ms) {
            note_overrun(rec, us, a->elapsed_ms - tc->movetime_ms);
            return RES_NONE;
        }
        snprintf(reason, len, "%s (%s) forfeits on time: %lld ms for a %lld ms move", ColorName[us], name,
                 (long long)a->elapsed_ms, (long long)tc->movetime_ms);
        return win_for(them);
    }
    g->clock[us] -= a->elapsed_ms;
    if (g->clock[us] + tc->margin_ms < 0) {
        snprintf(reason, len, "%s (%s) forfeits on time", ColorName[us], name);
        return win_for(them);
    }
    if (g->clock[us] < 0) {
        note_overrun(rec, us, -g->clock[us]);
        g->clock[us] = 0;
    }
    g->clock[us] += tc->inc_ms;
    g->moves_made[us]++;
    if (tc->moves_per_period && g->moves_made[us] % tc->moves_per_period == 0) g->clock[us] += tc->base_ms;
    return RES_NONE;
}

/* Turn the engine's answer into a legal move (*m) or a result with its reason. */
static GameResult judge_answer(Game *g, const GoResult *a, bool offered_to_us, Color us, const Engine *e, Move *m,
                               GameRecord *rec) {
    Color them = (Color)!us;
    const char *name = e->cfg->name;
    char err[200];
    if (a->status == GO_TIMEOUT) {
        rec->engine_failed[us] = true;
        snprintf(rec->reason, sizeof rec->reason, "%s (%s) forfeits on time: no move in %lld ms", ColorName[us], name,
                 (long long)a->elapsed_ms);
        return win_for(them);
    }
    if (a->status == GO_EOF) {
        rec->engine_failed[us] = true;
        snprintf(rec->reason, sizeof rec->reason, "%s (%s) crashed: %s", ColorName[us], name,
                 e->status[0] ? e->status : "the engine closed its output");
        return win_for(them);
    }
    GameResult r = charge_clock(g, a, us, name, rec);
    if (r != RES_NONE) return r;
    if (offered_to_us && a->draw) {
        snprintf(rec->reason, sizeof rec->reason, "draw by agreement");
        return RES_DRAW;
    }
    if (a->resign) {
        snprintf(rec->reason, sizeof rec->reason, "%s (%s) resigns", ColorName[us], name);
        return win_for(them);
    }
    if (!a->move[0] && rep_count(g->pos, NULL) >= 2) {
        /* ElephantEye answers nobestmove in a position that repeats: it
         * claims the repetition, so judge it now instead of at the Nth. */
        AdjudicationRules claim = *g->rules;
        claim.repetitions = 2;
        char why[300];
        r = adjudicate_position(g->pos, &claim, why, sizeof why);
        snprintf(rec->reason, sizeof rec->reason, "%s, claimed by %s (%s)", why, ColorName[us], name);
        return r;
    }
    if (!a->move[0]) {
        snprintf(rec->reason, sizeof rec->reason, "%s (%s) gave no move in a position with legal moves", ColorName[us],
                 name);
        return win_for(them);
    }
    *m = move_parse_legal(g->pos, a->move, e->cfg->rank_base, err, sizeof err);
    if (*m == MOVE_NONE) {
        snprintf(rec->reason, sizeof rec->reason, "%s (%s) played an %s", ColorName[us], name, err);
        return win_for(them);
    }
    return RES_NONE;
}

/* Record and make move m, answered with a, by side us. */
static void play_move(Game *g, Move m, const GoResult *a, Color us, GameRecord *rec) {
    char *note = rec->comments[rec->ply_count];
    if (a->has_score) snprintf(note, sizeof rec->comments[0], "%+d/%d %.2fs", a->score, a->depth, a->elapsed_ms / 1000.0);
    else snprintf(note, sizeof rec->comments[0], "%.2fs", a->elapsed_ms / 1000.0);
    rec->moves[rec->ply_count++] = m;
    pos_make_move(g->pos, m);
    if (pos_state(g->pos)->captured) {
        fen_write(g->pos, g->capture_fen);
        g->capture_ply = g->pos->game_ply;
    }
    g->offer[us] = g->rules->draw_offers && a->draw;
    g->offer[!us] = false;
}

void game_play(Engine *engines[COLOR_NB], const char *fen, const TimeControl *tc, const AdjudicationRules *rules,
               GameRecord *rec) {
    Game g = {.tc = tc, .rules = rules, .clock = {tc->base_ms, tc->base_ms}};
    g.clocked = tc->depth <= 0 && tc->nodes <= 0 && tc->movetime_ms <= 0;
    g.cmd_size = 16 + FEN_MAX + (size_t)GAME_MAX_PLIES * 7 + (size_t)MAX_MOVES * 5;
    g.pos = malloc(sizeof *g.pos);
    g.position_cmd = malloc(g.cmd_size);
    if (!g.pos || !g.position_cmd) abort();
    char err[200];
    memset(rec->engine_failed, 0, sizeof rec->engine_failed);
    memset(rec->overruns, 0, sizeof rec->overruns);
    memset(rec->worst_overrun_ms, 0, sizeof rec->worst_overrun_ms);
    rec->ply_count = 0;
    rec->result = RES_NONE;
    rec->reason[0] = '\0';
    if (!fen_parse(g.pos, fen, err, sizeof err)) {
        rec->result = RES_DRAW;
        snprintf(rec->start_fen, sizeof rec->start_fen, "%.*s", FEN_MAX - 1, fen);
        snprintf(rec->reason, sizeof rec->reason, "bad opening: %s", err);
    } else {
        fen_write(g.pos, rec->start_fen);
        snprintf(g.capture_fen, sizeof g.capture_fen, "%s", rec->start_fen);
    }
    while (rec->result == RES_NONE) {
        rec->result = adjudicate_position(g.pos, rules, rec->reason, sizeof rec->reason);
        if (rec->result != RES_NONE) break;
        Color us = g.pos->side;
        Engine *e = engines[us];
        build_position(&g, e, rec->start_fen);
        char go_cmd[256];
        bool offered_to_us = rules->draw_offers && g.offer[!us];
        build_go(go_cmd, sizeof go_cmd, e, tc, g.clock, g.moves_made, us, offered_to_us);
        int64_t timeout = g.clocked ? g.clock[us] + tc->margin_ms
                          : tc->movetime_ms > 0 ? tc->movetime_ms + tc->margin_ms
                                                : tc->move_timeout_ms;
        GoResult a = engine_go(e, g.position_cmd, go_cmd, timeout);
        Move m = MOVE_NONE;
        rec->result = judge_answer(&g, &a, offered_to_us, us, e, &m, rec);
        if (rec->result != RES_NONE) break;
        play_move(&g, m, &a, us, rec);
        rec->result = adjudicate_score(&g.runs, rules, &a, us, g.pos->game_ply / 2 + 1, rec->reason, sizeof rec->reason);
    }
    free(g.pos);
    free(g.position_cmd);
}
