// SPDX-License-Identifier: GPL-3.0-or-later
/* `tuong-tune selfplay`: games of the mini search against itself from the
 * shared opening book, written as PGN (ICCS moves, FEN tag) — the same
 * shape of file `pgn2fen` reads from the match runner. */
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "tune.h"

#ifndef TUONG_DEFAULT_OPENINGS
#define TUONG_DEFAULT_OPENINGS "openings/xiangqi.epd"
#endif

typedef struct {
    int games, depth, noise, random_plies, max_plies, draw_plies, adjudicate;
    uint64_t seed;
    const char *openings, *out;
} SelfplayOptions;

enum { MAX_GAME = 600 };

static char **read_lines(const char *path, int *count) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    int cap = 1024, n = 0;
    char **lines = malloc((size_t)cap * sizeof *lines), buf[256];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = 0;
        if (!buf[0] || buf[0] == '#') continue;
        if (n == cap) lines = realloc(lines, (size_t)(cap *= 2) * sizeof *lines);
        lines[n++] = strdup(buf);
    }
    fclose(f);
    *count = n;
    return lines;
}

/* Three-fold repetition of the current position since the last capture. */
static bool repeated(const Position *pos) {
    const StateInfo *now = pos_state(pos);
    int seen = 0;
    for (int i = pos->game_ply - 2; i >= 0 && i >= pos->game_ply - now->rule60; i -= 2)
        if (pos->history[i].key == now->key && ++seen >= 2) return true;
    return false;
}

/* Does the current position occur earlier since the last capture? */
static bool seen_before(const Position *pos) {
    const StateInfo *now = pos_state(pos);
    for (int i = pos->game_ply - 2; i >= 0 && i >= pos->game_ply - now->rule60; i -= 2)
        if (pos->history[i].key == now->key) return true;
    return false;
}

/* Choose a move: uniformly at random for the first plies, then the mini
 * search's best with a little noise on the root scores for variety. */
static Move choose(Position *pos, const SelfplayOptions *o, Rng *rng, int ply, Score *score) {
    MoveList list;
    gen_legal(pos, &list);
    if (ply < o->random_plies) {
        *score = 0;
        return list.moves[rng_next(rng) % (uint64_t)list.count];
    }
    Move best = list.moves[0];
    Score best_score = -SCORE_INFINITE, best_noisy = -SCORE_INFINITE;
    MiniSearch ms = {0};
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        /* A move back into a seen position scores as a draw, as in a real
         * engine: the side ahead avoids repetitions, the side behind seeks them. */
        Score s = seen_before(pos) ? SCORE_DRAW : -mini_search(pos, &ms, o->depth - 1);
        pos_unmake_move(pos);
        Score noisy = s + (o->noise ? (Score)(rng_next(rng) % (uint64_t)(o->noise + 1)) : 0);
        if (score_is_mate(s)) noisy = s;
        if (noisy > best_noisy) best_noisy = noisy, best_score = s, best = list.moves[i];
    }
    *score = best_score;
    return best;
}

static const char *play_game(Position *pos, const SelfplayOptions *o, Rng *rng, Move *moves, int *count) {
    int bad_streak[COLOR_NB] = {0, 0};
    *count = 0;
    for (int ply = 0;; ply++) {
        if (gen_count_legal(pos) == 0) return pos->side == RED ? "0-1" : "1-0";
        if (ply >= o->max_plies || pos_state(pos)->rule60 >= o->draw_plies || repeated(pos)) return "1/2-1/2";
        if (pos_history_full(pos) || *count >= MAX_GAME) return "1/2-1/2";
        Score s;
        Move m = choose(pos, o, rng, ply, &s);
        /* Resign when the mover's own score says it is lost for a while. */
        Color us = pos->side;
        bad_streak[us] = s < -o->adjudicate ? bad_streak[us] + 1 : 0;
        if (o->adjudicate && bad_streak[us] >= 4) return us == RED ? "0-1" : "1-0";
        pos_make_move(pos, m);
        moves[(*count)++] = m;
    }
}

static void write_pgn(FILE *out, int round, const char *fen, const Move *moves, int count, const char *result,
                      const SelfplayOptions *o) {
    fprintf(out, "[Event \"tuong-tune selfplay\"]\n[Site \"seed %llu depth %d\"]\n[Round \"%d\"]\n",
            (unsigned long long)o->seed, o->depth, round);
    fprintf(out, "[Red \"mini-d%d\"]\n[Black \"mini-d%d\"]\n[Result \"%s\"]\n[Variant \"xiangqi\"]\n[FEN \"%s\"]\n\n",
            o->depth, o->depth, result, fen);
    bool black_first = strstr(fen, " b ") != NULL;
    char text[MOVE_TEXT_MAX];
    int col = 0;
    for (int i = 0; i < count; i++) {
        int n = (i + black_first) / 2 + 1;
        if (i == 0 && black_first) col += fprintf(out, "%d... ", n);
        else if ((i + black_first) % 2 == 0) col += fprintf(out, "%d. ", n);
        col += fprintf(out, "%s ", move_to_text(moves[i], 0, text));
        if (col > 72) fputc('\n', out), col = 0;
    }
    fprintf(out, "%s\n\n", result);
}

int cmd_selfplay(int argc, char **argv) {
    SelfplayOptions o = {.games = 100, .depth = 2, .noise = 8, .random_plies = 2, .max_plies = 300,
                         .draw_plies = 120, .adjudicate = 800, .seed = 1, .openings = TUONG_DEFAULT_OPENINGS,
                         .out = "-"};
    for (int i = 0; i < argc; i += 2) { /* --option value pairs */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return fprintf(stderr, "selfplay: %s needs a value\n", a), 2;
        if (!strcmp(a, "--games")) o.games = atoi(v);
        else if (!strcmp(a, "--depth")) o.depth = atoi(v);
        else if (!strcmp(a, "--noise")) o.noise = atoi(v);
        else if (!strcmp(a, "--random-plies")) o.random_plies = atoi(v);
        else if (!strcmp(a, "--max-plies")) o.max_plies = atoi(v);
        else if (!strcmp(a, "--adjudicate")) o.adjudicate = atoi(v);
        else if (!strcmp(a, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--openings")) o.openings = v;
        else if (!strcmp(a, "--out")) o.out = v;
        else return fprintf(stderr, "selfplay: unknown option %s\n", a), 2;
    }
    if (o.depth < 1) o.depth = 1;
    int nopen = 0;
    char **openings = read_lines(o.openings, &nopen);
    if (!openings || !nopen) return fprintf(stderr, "selfplay: cannot read openings %s\n", o.openings), 1;
    FILE *out = strcmp(o.out, "-") ? fopen(o.out, "w") : stdout;
    if (!out) return fprintf(stderr, "selfplay: cannot write %s\n", o.out), 1;
    Rng rng;
    rng_seed(&rng, o.seed);
    static Position pos;
    static Move moves[MAX_GAME];
    int tally[3] = {0, 0, 0};
    for (int g = 0; g < o.games; g++) {
        const char *fen = openings[rng_next(&rng) % (uint64_t)nopen];
        char err[200];
        if (!fen_parse(&pos, fen, err, sizeof err)) return fprintf(stderr, "selfplay: bad opening %s: %s\n", fen, err), 1;
        int count;
        const char *result = play_game(&pos, &o, &rng, moves, &count);
        write_pgn(out, g + 1, fen, moves, count, result, &o);
        fflush(out);
        tally[result[0] == '1' && result[1] == '-' ? 0 : result[0] == '0' ? 2 : 1]++;
        if ((g + 1) % 10 == 0 || g + 1 == o.games)
            fprintf(stderr, "selfplay: %d games, red wins %d, draws %d, black wins %d\n", g + 1, tally[0], tally[1],
                    tally[2]);
    }
    if (out != stdout) fclose(out);
    for (int i = 0; i < nopen; i++) free(openings[i]);
    free(openings);
    return 0;
}
