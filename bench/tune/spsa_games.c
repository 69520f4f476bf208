// SPDX-License-Identifier: GPL-3.0-or-later
/* Game pairs theta+ vs theta- for the SPSA runner (spsa_games.h). */
#include "spsa_games.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "pgn.h"
#include "zobrist.h"

enum { PLUS = 0, MINUS = 1 };

struct SpsaGames {
    SpsaGamesConfig cfg;
    EngineConfig side[2]; /* theta+ and theta-: the same engine under two names */
    int workers, count;
    char names[SPSA_MAX_PARAMS][SPSA_NAME_MAX];
    Engine *engines[SPSA_MAX_WORKERS][2];
    GameRecord *recs[SPSA_MAX_WORKERS];
    pthread_mutex_t lock; /* failures and the PGN file */
    int failures;
};

static void stop_engine(Engine **slot) {
    if (!*slot) return;
    engine_stop(*slot);
    free(*slot);
    *slot = NULL;
}

static bool start_engine(SpsaGames *g, Engine **slot, int side, char *err, size_t errlen) {
    *slot = malloc(sizeof **slot);
    if (!*slot) return snprintf(err, errlen, "out of memory"), false;
    if (engine_start(*slot, &g->side[side], g->cfg.handshake_ms, g->cfg.log, err, errlen)) return true;
    free(*slot);
    *slot = NULL;
    return false;
}

SpsaGames *spsa_games_new(const SpsaGamesConfig *cfg, const SpsaState *s, int workers, char *err, size_t errlen) {
    SpsaGames *g = calloc(1, sizeof *g);
    if (!g) return snprintf(err, errlen, "out of memory"), NULL;
    g->cfg = *cfg;
    g->workers = workers < 1 ? 1 : workers > SPSA_MAX_WORKERS ? SPSA_MAX_WORKERS : workers;
    g->count = s->count;
    for (int i = 0; i < s->count; i++)
        snprintf(g->names[i], SPSA_NAME_MAX, "%s", s->params[i].name);
    for (int side = 0; side < 2; side++) {
        g->side[side] = cfg->engine;
        snprintf(g->side[side].name, sizeof g->side[side].name, "%s", side == PLUS ? "plus" : "minus");
    }
    pthread_mutex_init(&g->lock, NULL);
    for (int w = 0; w < g->workers; w++) {
        g->recs[w] = malloc(sizeof *g->recs[w]);
        if (!g->recs[w]) {
            spsa_games_free(g);
            return snprintf(err, errlen, "out of memory"), NULL;
        }
    }
    /* Start the first worker's engines now, so a bad command fails at once. */
    for (int side = 0; side < 2; side++) {
        if (!start_engine(g, &g->engines[0][side], side, err, errlen)) {
            spsa_games_free(g);
            return NULL;
        }
    }
    return g;
}

void spsa_games_free(SpsaGames *g) {
    if (!g) return;
    for (int w = 0; w < SPSA_MAX_WORKERS; w++) {
        stop_engine(&g->engines[w][PLUS]);
        stop_engine(&g->engines[w][MINUS]);
        free(g->recs[w]);
    }
    openings_free(&g->cfg.book);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

int spsa_games_failures(SpsaGames *g) {
    pthread_mutex_lock(&g->lock);
    int n = g->failures;
    pthread_mutex_unlock(&g->lock);
    return n;
}

/* Make worker w's engine of `side` ready for a game with these values:
 * restarted if it died, every value sent, a new game announced. */
static bool prepare(SpsaGames *g, int w, int side, const int *values, char *err, size_t errlen) {
    Engine **slot = &g->engines[w][side];
    if (*slot && (*slot)->dead) stop_engine(slot);
    if (!*slot && !start_engine(g, slot, side, err, errlen)) return false;
    Engine *e = *slot;
    bool ucci = e->cfg->proto == PROTO_UCCI;
    for (int i = 0; i < g->count; i++) {
        if (ucci)
            engine_send(e, "setoption %s %d", g->names[i], values[i]);
        else
            engine_send(e, "setoption name %s value %d", g->names[i], values[i]);
    }
    if (!engine_new_game(e, g->cfg.handshake_ms)) e->dead = true; /* it loses this game, then restarts */
    return true;
}

/* theta+'s score in a finished game. */
static void tally(Score3 *score, GameResult r, bool plus_red) {
    if (r == RES_DRAW || r == RES_NONE)
        score->draws++;
    else if ((r == RES_RED_WINS) == plus_red)
        score->wins++;
    else
        score->losses++;
}

static void note_game(SpsaGames *g, const SpsaMatch *m, const GameRecord *rec, bool plus_red) {
    bool failed = rec->engine_failed[RED] || rec->engine_failed[BLACK] || strstr(rec->reason, "forfeits") ||
                  strstr(rec->reason, "crashed");
    pthread_mutex_lock(&g->lock);
    g->failures += failed;
    if (g->cfg.pgn) {
        char event[64], tc[32];
        snprintf(event, sizeof event, "SPSA iteration %d", m->iteration + 1);
        snprintf(tc, sizeof tc, "%s", g->cfg.tc.nodes ? "nodes" : g->cfg.tc.depth ? "depth" : "clock");
        PgnTags tags = {event, plus_red ? "plus" : "minus", plus_red ? "minus" : "plus", tc, m->iteration + 1, false};
        pgn_write(g->cfg.pgn, rec, &tags);
        fflush(g->cfg.pgn);
    }
    pthread_mutex_unlock(&g->lock);
}

bool spsa_games_play(void *ctx, const SpsaMatch *m, Score3 *result, char *err, size_t errlen) {
    SpsaGames *g = ctx;
    int w = m->worker;
    *result = (Score3){0, 0, 0};
    for (int pair = 0; pair < m->pairs; pair++) {
        uint64_t st = m->seed + (uint64_t)pair * 0x9E3779B97F4A7C15ULL;
        const char *fen = g->cfg.book.fens[prng_next(&st) % (uint64_t)g->cfg.book.count];
        for (int game = 0; game < 2; game++) {
            bool plus_red = game == 0;
            if (!prepare(g, w, PLUS, m->plus, err, errlen) || !prepare(g, w, MINUS, m->minus, err, errlen))
                return false;
            Engine *players[COLOR_NB];
            players[RED] = g->engines[w][plus_red ? PLUS : MINUS];
            players[BLACK] = g->engines[w][plus_red ? MINUS : PLUS];
            GameRecord *rec = g->recs[w];
            game_play(players, fen, &g->cfg.tc, &g->cfg.rules, rec);
            for (int c = 0; c < COLOR_NB; c++)
                if (rec->engine_failed[c]) players[c]->dead = true; /* restarted before the next game */
            tally(result, rec->result, plus_red);
            note_game(g, m, rec, plus_red);
        }
    }
    return true;
}

/* --- probing the engine before a run --- */

void spsa_shell_quote(const char *path, char *out, size_t size) {
    size_t n = 0;
    if (size < 3) return;
    out[n++] = '\'';
    for (const char *p = path; *p && n + 6 < size; p++) {
        if (*p == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = *p;
        }
    }
    out[n++] = '\'';
    out[n] = '\0';
}

/* Everything `command` prints, if it exits with status 0. */
static char *run_capture(const char *command, const char *what, char *err, size_t errlen) {
    FILE *f = popen(command, "r");
    if (!f) return snprintf(err, errlen, "cannot run %s", what), NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    int status = pclose(f);
    if (!buf) return snprintf(err, errlen, "out of memory"), NULL;
    buf[n] = '\0';
    if (status != 0) {
        free(buf);
        snprintf(err, errlen, "%s failed (%s %d)", what, WIFEXITED(status) ? "exit status" : "wait status",
                 WIFEXITED(status) ? WEXITSTATUS(status) : status);
        return NULL;
    }
    return buf;
}

char *spsa_engine_listing(const char *path, char *err, size_t errlen) {
    char quoted[2200], cmd[2400], what[2200];
    spsa_shell_quote(path, quoted, sizeof quoted);
    snprintf(cmd, sizeof cmd, "%s params 2>/dev/null", quoted);
    snprintf(what, sizeof what, "'%s params'", path);
    return run_capture(cmd, what, err, errlen);
}

bool spsa_engine_check_options(const char *path, const SpsaState *s, char *err, size_t errlen) {
    char quoted[2200], cmd[2400], what[2200];
    spsa_shell_quote(path, quoted, sizeof quoted);
    snprintf(cmd, sizeof cmd, "printf 'ucci\\nquit\\n' | %s 2>/dev/null", quoted);
    snprintf(what, sizeof what, "%s (ucci handshake)", path);
    char *out = run_capture(cmd, what, err, errlen);
    if (!out) return false;
    bool ok = true;
    for (int i = 0; ok && i < s->count; i++) {
        char want[SPSA_NAME_MAX + 32];
        snprintf(want, sizeof want, "\noption %s type spin ", s->params[i].name);
        if (!strstr(out, want)) {
            snprintf(err, errlen,
                     "%s is not a tuning build: it has no option %s (build it with cmake -DTUONG_TUNING=ON, "
                     "docs/tuning.md)",
                     path, s->params[i].name);
            ok = false;
        }
    }
    free(out);
    return ok;
}
