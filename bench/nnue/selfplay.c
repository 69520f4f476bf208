// SPDX-License-Identifier: GPL-3.0-or-later
/* Self-play games of the engine's search for training data (selfplay.h). */
#include "selfplay.h"

#include <stdlib.h>

#include "fen.h"
#include "game.h"
#include "movegen.h"
#include "search.h"

/* Rules of the game, as the match runner applies them (docs/matches.md). */
enum {
    REPETITION_COUNT = 3,  /* a repetition is judged at its third occurrence */
    NOCAPTURE_PLIES = 120, /* the 60-move rule */
    START_ATTEMPTS = 64,   /* random openings tried before giving up the random plies */
};

uint64_t selfplay_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t rng_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ull;
    return selfplay_mix(*state);
}

static uint64_t rng_below(uint64_t *state, uint64_t n) { return rng_next(state) % n; }

void selfplay_init(const SelfplaySettings *s) {
    Options.threads = 1;
    Options.multipv = 1;
    Options.hash_mb = s->hash_mb;
    Options.draw_plies = NOCAPTURE_PLIES;
    search_init();
}

/* ---------------------------------------------------------------------- */
/* The search with a soft and a hard node limit                            */

typedef struct {
    uint64_t soft_nodes;
    uint64_t nodes; /* at the soft stop; 0 when the hard limit ended the search */
    Move best;
    Score score;
} Think;

/* After each completed iteration (an exact main-line report; the bound
 * reports of a failed aspiration window come by the clock, so they must not
 * count): stop once the soft budget is spent. The search then answers with
 * that iteration's move. */
static void on_info(void *ctx, const SearchInfo *info) {
    Think *t = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->nodes >= t->soft_nodes && !t->nodes) {
        t->nodes = info->nodes;
        search_stop();
    }
}

static void on_bestmove(void *ctx, Move best, Move ponder, Score score, int depth) {
    (void)ponder;
    (void)depth;
    Think *t = ctx;
    t->best = best;
    t->score = score;
}

static Think think(const Position *pos, const SelfplaySettings *s) {
    Think t = {.soft_nodes = s->nodes, .best = MOVE_NONE, .score = SCORE_DRAW};
    SearchLimits limits = {.nodes = s->hard_nodes, .time_ms = -1, .opp_time_ms = -1};
    SearchCallbacks cb = {.info = on_info, .bestmove = on_bestmove, .ctx = &t};
    search_start(pos, &limits, &cb);
    search_wait();
    if (!t.nodes) t.nodes = s->hard_nodes; /* or fewer, when a mate ended it early */
    return t;
}

uint64_t selfplay_search(const Position *pos, const SelfplaySettings *s, Move *best, Score *score) {
    Think t = think(pos, s);
    *best = t.best;
    *score = t.score;
    return t.nodes;
}

/* ---------------------------------------------------------------------- */
/* The game                                                                */

/* Plies from the game's start to the root of pos (its FEN's counters). */
static int root_ply(const Position *pos) {
    Color root_side = (Color)(pos->side ^ (pos->game_ply & 1));
    return (pos->root_fullmove - 1) * 2 + (root_side == BLACK);
}

/* A book line plus random plies, redrawn while the side to move is left
 * without a legal move. */
static void random_start(Position *pos, const OpeningBook *book, int plies, uint64_t *rng) {
    char err[200];
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
        fen_parse(pos, book->fens[rng_below(rng, (uint64_t)book->count)], err, sizeof err);
        MoveList list;
        gen_legal(pos, &list);
        int i = 0;
        while (i < plies && list.count > 0) {
            pos_make_move(pos, list.moves[rng_below(rng, (uint64_t)list.count)]);
            gen_legal(pos, &list);
            i++;
        }
        if (i == plies && list.count > 0) return;
    }
    fen_parse(pos, book->fens[rng_below(rng, (uint64_t)book->count)], err, sizeof err);
}

/* The side that makes the last random move hands its opponent the first
 * search, and that opponent punishes whatever the random move spoilt: with
 * the book's lines (all Black to move) 4 random plies gave Black 39 % of the
 * wins and Red 28 %, 3 plies the mirror image. One more ply in every
 * odd-numbered game gives each side the last random move in half the games. */
int selfplay_random_plies(const SelfplaySettings *s, uint64_t g) { return s->random_plies + (int)(g & 1); }

bool selfplay_recordable(const Position *pos, const SelfplaySettings *s, Move best, Score score) {
    return !pos_in_check(pos) && best != MOVE_NONE && pos_piece_on(pos, move_to(best)) == NO_PIECE &&
           !score_is_mate(score) && abs(score) < s->score_cap && pos->game_ply >= s->skip_plies;
}

static DataResult red_result_of(GameResult r) {
    return r == RES_RED_WINS ? DATA_WIN : r == RES_BLACK_WINS ? DATA_LOSS : DATA_DRAW;
}

/* Score adjudication state: `lead` counts plies in a row on which the
 * mover's score says Red (> 0) or Black (< 0) leads by resign_score;
 * `level` counts plies in a row with |score| <= draw_score. */
typedef struct {
    int lead, level;
} Adjudicator;

/* Update with the score of the side to move; RES_NONE while play goes on. */
static GameResult adjudicate_score(Adjudicator *a, const SelfplaySettings *s, Color side, Score score, int ply) {
    int red = side == RED ? score : -score;
    if (red >= s->resign_score)
        a->lead = a->lead > 0 ? a->lead + 1 : 1;
    else if (red <= -s->resign_score)
        a->lead = a->lead < 0 ? a->lead - 1 : -1;
    else
        a->lead = 0;
    a->level = ply >= s->draw_from && abs(score) <= s->draw_score ? a->level + 1 : 0;
    if (s->resign_moves > 0 && abs(a->lead) >= 2 * s->resign_moves) return a->lead > 0 ? RES_RED_WINS : RES_BLACK_WINS;
    if (s->draw_plies > 0 && a->level >= s->draw_plies) return RES_DRAW;
    return RES_NONE;
}

/* Play to the end; returns the result, or RES_NONE when stopped. */
static GameResult play_out(Position *pos, const SelfplaySettings *s, int start_ply, SelfplayGame *out, Color *sides,
                           const atomic_int *stop) {
    AdjudicationRules rules = {
        .repetitions = REPETITION_COUNT, .nocapture_plies = NOCAPTURE_PLIES, .max_plies = s->max_plies};
    Adjudicator adj = {0, 0};
    char reason[400];
    for (;;) {
        if (atomic_load(stop)) return RES_NONE;
        GameResult r = adjudicate_position(pos, &rules, reason, sizeof reason);
        if (r != RES_NONE) {
            out->end = END_RULES;
            return r;
        }
        Think t = think(pos, s);
        out->nodes += t.nodes;
        out->searches++;
        int ply = start_ply + pos->game_ply;
        if (selfplay_recordable(pos, s, t.best, t.score) &&
            datafile_pack(pos, t.score, DATA_DRAW, ply, &out->records[out->count]))
            sides[out->count++] = pos->side;
        r = adjudicate_score(&adj, s, pos->side, t.score, ply);
        if (r == RES_NONE && t.best == MOVE_NONE) r = RES_DRAW; /* cannot happen: the referee saw a legal move */
        if (r != RES_NONE) {
            out->end = r == RES_DRAW ? END_DRAW_SCORE : END_RESIGN;
            return r;
        }
        pos_make_move(pos, t.best);
        out->plies = pos->game_ply;
    }
}

bool selfplay_game(const OpeningBook *book, const SelfplaySettings *s, uint64_t seed, uint64_t g, SelfplayGame *out,
                   const atomic_int *stop) {
    static Position pos;
    static Color sides[MAX_HISTORY];
    uint64_t rng = selfplay_mix(seed) ^ selfplay_mix(~g);
    random_start(&pos, book, selfplay_random_plies(s, g), &rng);
    out->start_side = pos.side;
    search_clear();
    out->count = 0;
    out->nodes = 0;
    out->searches = 0;
    out->plies = pos.game_ply;
    GameResult r = play_out(&pos, s, root_ply(&pos), out, sides, stop);
    if (r == RES_NONE) return false;
    out->red_result = red_result_of(r);
    for (int i = 0; i < out->count; i++)
        datafile_set_result(&out->records[i],
                            sides[i] == RED ? out->red_result : (DataResult)(DATA_WIN - out->red_result));
    return true;
}
