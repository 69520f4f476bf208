// SPDX-License-Identifier: GPL-3.0-or-later
/* tuong-match: engine-vs-engine games under the Asian rules, with Elo and
 * SPRT. Usage and every option: `tuong-match --help` and docs/matches.md. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "engine.h"
#include "game.h"
#include "openings.h"
#include "pgn.h"
#include "stats.h"
#include "sys.h"

/* MAX_WORDS: key=value words after -engine or -each: room for every search
 * parameter of a tuning build as option.NAME=VALUE (tuong-tune spsa show). */
enum { MAX_ENGINES = 16, MAX_WORKERS = 64, MAX_WORDS = ENGINE_OPTIONS_MAX + 16 };

static const char Usage[] =
    "usage: tuong-match -engine name=A cmd=PATH [proto=ucci|uci] [ranks=0|1] [timeunit=auto|ms|s]\n"
    "                           [dir=D] [variant=0|1] [option.NAME=VALUE ...]\n"
    "                   -engine name=B cmd=... [-engine ...] [options]\n"
    "  -each KEY=VALUE ...     settings applied to every engine (before its own)\n"
    "  -openings FILE          EPD/FEN positions, each played twice with colours swapped\n"
    "  -order sequential|random  opening order (default sequential); -seed N for random\n"
    "  -games N                games per pairing (default 2; rounded up to an even number)\n"
    "  -tc [MOVES/]BASE[+INC]  clock in seconds, e.g. 10+0.1 or 40/60 (default 10+0.1)\n"
    "  -st SECONDS             fixed time per move\n"
    "  -depth N | -nodes N     fixed depth / node count per move\n"
    "  -concurrency N          games at once (default: number of cores)\n"
    "  -repeat N               adjudicate a repetition at its Nth occurrence (default 3)\n"
    "  -nocapture PLIES        draw after PLIES without capture (default 120, 0 = off)\n"
    "  -maxplies N             draw after N plies in all (default 0 = off)\n"
    "  -draw movenumber=N movecount=M score=S   adjudicate a draw on scores\n"
    "  -resign movecount=M score=S              adjudicate a loss on scores\n"
    "  -drawoffers             honour 'bestmove ... draw' and send 'go draw' (UCCI)\n"
    "  -banmoves               UCCI: ban moves that would repeat into a forbidden cycle\n"
    "  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]   stop when the SPRT decides\n"
    "  -pgnout FILE            append games as PGN\n"
    "  -notation iccs|wxf|vn   move notation in the PGN (default iccs; vn: Vietnamese)\n"
    "  -log FILE               transcript of every engine's input and output\n"
    "  -timemargin MS          grace before a time forfeit (default 500)\n"
    "  -movetimeout MS         answer limit for depth/nodes searches (default 60000)\n"
    "  -handshake MS           limit for ucci/uci and isready answers (default 10000)\n"
    "  -quiet                  no per-game lines\n"
    "SIGINT (Ctrl-C) or SIGTERM: start no more games, let the running ones finish,\n"
    "print the summary and exit with 128 + the signal; a second signal ends it at once.\n";

typedef struct {
    EngineConfig engines[MAX_ENGINES];
    int engine_count;
    OpeningBook book;
    int games_per_pair;
    TimeControl tc;
    AdjudicationRules rules;
    int concurrency;
    bool sprt_on;
    SprtParams sprt;
    char pgn_path[1024], log_path[1024];
    int handshake_ms;
    bool quiet;
    Notation notation;
    char tc_text[64];
} Config;

typedef struct {
    int a, b; /* engine indices; scores are from a's point of view */
    Score3 score;
} Pairing;

/* Shared tournament state, guarded by Lock. */
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static Config Cfg;
static Pairing Pairs[MAX_ENGINES * (MAX_ENGINES - 1) / 2];
static int PairCount, TotalGames, NextGame, GamesDone;
static bool Stop, SprtDecided;
/* The signal that asked us to wind down, 0 if none. Written by the signal
 * handler, read by the workers: a lock-free atomic is safe in both. */
static atomic_int Interrupted;
static Score3 SprtAt; /* the score when the SPRT decided */
static char Fatal[512];
/* Per engine: moves over the clock that the -timemargin forgave, the worst. */
static int Overruns[MAX_ENGINES];
static int64_t WorstOverrun[MAX_ENGINES];
static FILE *PgnFile, *LogFile;
static int ReasonCount;
static struct {
    char text[64];
    int n;
} Reasons[64];

static void die(const char *fmt, const char *arg) {
    fprintf(stderr, "tuong-match: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(2);
}

static bool parse_long(const char *s, long lo, long hi, long *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double lo, double hi, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* "[MOVES/]BASE[+INC]" in seconds. */
static bool parse_tc(const char *s, TimeControl *tc) {
    int moves = 0;
    double base, inc = 0;
    const char *slash = strchr(s, '/');
    if (slash) {
        char head[32];
        snprintf(head, sizeof head, "%.*s", (int)(slash - s), s);
        long m;
        if (!parse_long(head, 1, 1000, &m)) return false;
        moves = (int)m;
        s = slash + 1;
    }
    char body[64];
    snprintf(body, sizeof body, "%s", s);
    char *plus = strchr(body, '+');
    if (plus) {
        *plus = '\0';
        if (!parse_double(plus + 1, 0, 86400, &inc)) return false;
    }
    if (!parse_double(body, 0.001, 86400 * 10, &base)) return false;
    tc->moves_per_period = moves;
    tc->base_ms = (int64_t)(base * 1000 + 0.5);
    tc->inc_ms = (int64_t)(inc * 1000 + 0.5);
    return true;
}

/* Collect the key=value words after an option until the next -option. */
static int collect(int argc, char **argv, int i, char **words, int max) {
    int n = 0;
    while (i < argc && argv[i][0] != '-' && n < max) words[n++] = argv[i++];
    return n;
}

static void parse_kv_int(const char *word, const char *key, long lo, long hi, int *out, bool *matched) {
    size_t k = strlen(key);
    if (strncmp(word, key, k) || word[k] != '=') return;
    long v;
    if (!parse_long(word + k + 1, lo, hi, &v)) die("bad value in '%s'", word);
    *out = (int)v;
    *matched = true;
}

/* Options that take one whole number, and where it goes. */
typedef struct {
    const char *flag;
    long lo, hi;
    int *i32;
    int64_t *i64;
} IntOption;

static bool parse_int_option(const char *a, const char *v) {
    Config *c = &Cfg;
    const IntOption table[] = {
        {"-concurrency", 1, MAX_WORKERS, &c->concurrency, NULL},
        {"-repeat", 2, 100, &c->rules.repetitions, NULL},
        {"-nocapture", 0, 4000, &c->rules.nocapture_plies, NULL},
        {"-maxplies", 0, GAME_MAX_PLIES, &c->rules.max_plies, NULL},
        {"-timemargin", 0, 3600000, NULL, &c->tc.margin_ms},
        {"-movetimeout", 1, 3600000, NULL, &c->tc.move_timeout_ms},
        {"-handshake", 1, 3600000, &c->handshake_ms, NULL},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(a, table[i].flag)) continue;
        long k;
        char range[64];
        snprintf(range, sizeof range, "%%s needs a whole number from %ld to %ld", table[i].lo, table[i].hi);
        if (!v || !parse_long(v, table[i].lo, table[i].hi, &k)) die(range, a);
        if (table[i].i32) *table[i].i32 = (int)k;
        else *table[i].i64 = k;
        return true;
    }
    return false;
}

/* -tc, -st, -depth, -nodes: each replaces whatever limit was set before. */
static bool parse_time_option(const char *a, const char *v) {
    TimeControl *tc = &Cfg.tc;
    bool is_tc = !strcmp(a, "-tc"), is_st = !strcmp(a, "-st"), is_depth = !strcmp(a, "-depth");
    if (!is_tc && !is_st && !is_depth && strcmp(a, "-nodes")) return false;
    if (!v) die("%s needs a value", a);
    tc->movetime_ms = tc->depth = 0;
    tc->nodes = 0;
    double st;
    long k;
    if (is_tc) {
        if (!parse_tc(v, tc)) die("bad time control '%s' (want [MOVES/]BASE[+INC] in seconds)", v);
        snprintf(Cfg.tc_text, sizeof Cfg.tc_text, "%s", v);
    } else if (is_st) {
        if (!parse_double(v, 0.001, 86400, &st)) die("-st needs seconds per move, not '%s'", v);
        tc->movetime_ms = (int64_t)(st * 1000 + 0.5);
        snprintf(Cfg.tc_text, sizeof Cfg.tc_text, "%s/move", v);
    } else if (is_depth) {
        if (!parse_long(v, 1, 200, &k)) die("-depth needs 1..200, not '%s'", v);
        tc->depth = (int)k;
        snprintf(Cfg.tc_text, sizeof Cfg.tc_text, "depth %ld", k);
    } else {
        if (!parse_long(v, 1, 2000000000L, &k)) die("-nodes needs a positive count, not '%s'", v);
        tc->nodes = k;
        snprintf(Cfg.tc_text, sizeof Cfg.tc_text, "nodes %ld", k);
    }
    return true;
}

static void parse_adjudication(bool draw, char **words, int n) {
    AdjudicationRules *r = &Cfg.rules;
    for (int k = 0; k < n; k++) {
        bool m = false;
        if (draw) {
            parse_kv_int(words[k], "movenumber", 0, 10000, &r->draw_from, &m);
            parse_kv_int(words[k], "movecount", 1, 10000, &r->draw_count, &m);
            parse_kv_int(words[k], "score", 0, 100000, &r->draw_score, &m);
        } else {
            parse_kv_int(words[k], "movecount", 1, 10000, &r->resign_count, &m);
            parse_kv_int(words[k], "score", 1, 100000, &r->resign_score, &m);
        }
        if (!m) die("unknown adjudication setting '%s'", words[k]);
    }
    if (draw && !r->draw_count) die("-draw needs movecount=M%s", "");
    if (!draw && (!r->resign_count || !r->resign_score)) die("-resign needs movecount=M score=S%s", "");
}

static void parse_sprt(char **words, int n) {
    SprtParams *p = &Cfg.sprt;
    Cfg.sprt_on = true;
    for (int k = 0; k < n; k++) {
        const char *w = words[k];
        double *dst = !strncmp(w, "elo0=", 5)    ? &p->elo0
                      : !strncmp(w, "elo1=", 5)  ? &p->elo1
                      : !strncmp(w, "alpha=", 6) ? &p->alpha
                      : !strncmp(w, "beta=", 5)  ? &p->beta
                                                 : NULL;
        if (!dst || !parse_double(strchr(w, '=') + 1, -1000, 1000, dst)) die("bad SPRT setting '%s'", w);
    }
    if (p->alpha <= 0 || p->alpha >= 0.5 || p->beta <= 0 || p->beta >= 0.5)
        die("SPRT alpha and beta must lie in (0, 0.5)%s", "");
    if (p->elo1 <= p->elo0) die("SPRT needs elo1 > elo0%s", "");
}

static void set_defaults(Config *c) {
    c->games_per_pair = 2;
    parse_tc("10+0.1", &c->tc);
    snprintf(c->tc_text, sizeof c->tc_text, "10+0.1");
    c->tc.margin_ms = 500;
    c->tc.move_timeout_ms = 60000;
    c->rules.repetitions = 3;
    c->rules.nocapture_plies = 120;
    c->concurrency = sys_cpu_count() > 0 ? (int)sys_cpu_count() : 1;
    c->handshake_ms = 10000;
    c->sprt = (SprtParams){0, 5, 0.05, 0.05};
}

/* Where each -engine's words are, and the -each words (applied first). */
typedef struct {
    int start[MAX_ENGINES], words[MAX_ENGINES];
    char *each[MAX_WORDS];
    int each_count;
} EngineArgs;

static void configure_engines(Config *c, char **argv, const EngineArgs *ea) {
    char err[256];
    if (c->engine_count < 2) {
        fprintf(stderr, "tuong-match: error: give at least two -engine specifications\n%s", Usage);
        exit(2);
    }
    for (int e = 0; e < c->engine_count; e++) {
        EngineConfig *ec = &c->engines[e];
        ec->send_variant = true;
        snprintf(ec->name, sizeof ec->name, "engine%d", e + 1);
        for (int k = 0; k < ea->each_count; k++)
            if (!engine_config_set(ec, ea->each[k], err, sizeof err)) die("%s", err);
        for (int k = 0; k < ea->words[e]; k++)
            if (!engine_config_set(ec, argv[ea->start[e] + k], err, sizeof err)) die("%s", err);
        if (!ec->cmd[0]) die("engine '%s' has no cmd=", ec->name);
    }
}

static void parse_args(int argc, char **argv) {
    Config *c = &Cfg;
    char err[256];
    EngineArgs ea = {.each_count = 0};
    const char *openings = NULL, *order = "sequential";
    uint64_t seed = 1;
    set_defaults(c);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *words[MAX_WORDS];
        int n = collect(argc, argv, i + 1, words, MAX_WORDS);
        const char *v = n ? words[0] : NULL;
        long g = 0; /* clang cannot see that -games sets it before use */
        if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "-help")) {
            fputs(Usage, stdout);
            exit(0);
        } else if (!strcmp(a, "-engine")) {
            if (c->engine_count == MAX_ENGINES) die("too many engines (at most %s)", "16");
            ea.start[c->engine_count] = i + 1;
            ea.words[c->engine_count++] = n;
        } else if (!strcmp(a, "-each")) {
            for (int k = 0; k < n && ea.each_count < MAX_WORDS; k++) ea.each[ea.each_count++] = words[k];
        } else if (parse_int_option(a, v) || parse_time_option(a, v)) {
            /* done */
        } else if (!strcmp(a, "-games")) {
            if (!v || !parse_long(v, 1, 100000000, &g)) die("-games needs a positive number%s", "");
            c->games_per_pair = (int)((g + 1) / 2 * 2);
        } else if (!strcmp(a, "-openings") && v) {
            openings = v;
        } else if (!strcmp(a, "-order") && v) {
            if (strcmp(v, "sequential") && strcmp(v, "random")) die("-order is sequential or random, not '%s'", v);
            order = v;
        } else if (!strcmp(a, "-seed") && v) {
            seed = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "-draw") || !strcmp(a, "-resign")) {
            parse_adjudication(!strcmp(a, "-draw"), words, n);
        } else if (!strcmp(a, "-sprt")) {
            parse_sprt(words, n);
        } else if (!strcmp(a, "-drawoffers") || !strcmp(a, "-banmoves") || !strcmp(a, "-quiet")) {
            bool *flag = a[1] == 'd' ? &c->rules.draw_offers : a[1] == 'b' ? &c->rules.ban_moves : &c->quiet;
            *flag = true;
            n = 0; /* these take no value */
        } else if (!strcmp(a, "-notation") && v) {
            if (!notation_from_name(v, false, &c->notation)) die("-notation is iccs, wxf or vn, not '%s'", v);
        } else if ((!strcmp(a, "-pgnout") || !strcmp(a, "-log")) && v) {
            char *dst = a[1] == 'p' ? c->pgn_path : c->log_path;
            snprintf(dst, sizeof c->pgn_path, "%s", v);
        } else if (!strcmp(a, "-openings") || !strcmp(a, "-order") || !strcmp(a, "-seed") || !strcmp(a, "-notation") ||
                   !strcmp(a, "-pgnout") || !strcmp(a, "-log")) {
            die("%s needs a value", a);
        } else {
            fprintf(stderr, "tuong-match: error: unknown option '%s'\n%s", a, Usage);
            exit(2);
        }
        i += n;
    }
    configure_engines(c, argv, &ea);
    if (openings) {
        if (!openings_load(&c->book, openings, err, sizeof err)) die("%s", err);
        if (!strcmp(order, "random")) openings_shuffle(&c->book, seed);
    } else {
        openings_startpos(&c->book);
    }
}

static void tally_reason(const char *reason) {
    /* Group by the reason's wording without engine names and numbers. */
    char key[64];
    size_t n = 0;
    int depth = 0;
    for (const char *p = reason; *p && n < sizeof key - 1; p++) {
        if (*p == '(') depth++;
        else if (*p == ')') depth--;
        else if (!depth && !(*p == ' ' && n && key[n - 1] == ' ')) key[n++] = *p >= '0' && *p <= '9' ? '#' : *p;
    }
    key[n] = '\0';
    for (int i = 0; i < ReasonCount; i++)
        if (!strcmp(Reasons[i].text, key)) {
            Reasons[i].n++;
            return;
        }
    if (ReasonCount < 64) {
        snprintf(Reasons[ReasonCount].text, sizeof Reasons[0].text, "%s", key);
        Reasons[ReasonCount++].n = 1;
    }
}

static void print_pair_line(FILE *out, const Pairing *p) {
    Score3 s = p->score;
    fprintf(out, "%s vs %s: +%d =%d -%d, Elo %+.1f +/- %.1f", Cfg.engines[p->a].name, Cfg.engines[p->b].name, s.wins,
            s.draws, s.losses, stats_elo(s), stats_elo_error(s));
    if (Cfg.sprt_on && PairCount == 1)
        fprintf(out, ", LLR %.2f [%.2f, %.2f]", stats_llr(s, Cfg.sprt), stats_llr_lower(Cfg.sprt),
                stats_llr_upper(Cfg.sprt));
}

/* Record a finished game; called with Lock held. */
static void record_game(int game, int pair, bool a_is_red, const GameRecord *rec) {
    Pairing *p = &Pairs[pair];
    const char *red = Cfg.engines[a_is_red ? p->a : p->b].name, *black = Cfg.engines[a_is_red ? p->b : p->a].name;
    GameResult r = rec->result;
    if (r == RES_DRAW) p->score.draws++;
    else if ((r == RES_RED_WINS) == a_is_red) p->score.wins++;
    else p->score.losses++;
    GamesDone++;
    tally_reason(rec->reason);
    for (int c = 0; c < COLOR_NB; c++) {
        int e = (c == RED) == a_is_red ? p->a : p->b;
        Overruns[e] += rec->overruns[c];
        if (rec->worst_overrun_ms[c] > WorstOverrun[e]) WorstOverrun[e] = rec->worst_overrun_ms[c];
    }
    if (PgnFile) {
        PgnTags tags = {"tuong-match", red, black, Cfg.tc_text, game + 1, Cfg.notation};
        pgn_write(PgnFile, rec, &tags);
        fflush(PgnFile);
    }
    if (!Cfg.quiet) {
        printf("Game %d/%d %s vs %s: %s {%s}, %d plies; ", GamesDone, TotalGames, red, black,
               game_result_text(rec->result), rec->reason, rec->ply_count);
        print_pair_line(stdout, p);
        printf("\n");
        fflush(stdout);
    }
    if (Cfg.sprt_on && PairCount == 1 && !SprtDecided && stats_sprt(p->score, Cfg.sprt) != SPRT_CONTINUE) {
        /* Decided: start no more games. Games already running still count in
         * the totals, but the verdict is the one reached here. */
        SprtDecided = true;
        SprtAt = p->score;
        Stop = true;
    }
}

static void *worker(void *arg) {
    (void)arg;
    Engine *slots[MAX_ENGINES] = {0};
    GameRecord *rec = malloc(sizeof *rec);
    if (!rec) abort();
    char err[512];
    for (;;) {
        pthread_mutex_lock(&Lock);
        int game = (Stop || atomic_load(&Interrupted) || NextGame >= TotalGames) ? -1 : NextGame++;
        pthread_mutex_unlock(&Lock);
        if (game < 0) break;
        int round = game / (2 * PairCount), pair = (game % (2 * PairCount)) / 2;
        bool a_is_red = game % 2 == 0;
        const char *fen = Cfg.book.fens[round % Cfg.book.count];
        Pairing *p = &Pairs[pair];
        int idx[COLOR_NB] = {a_is_red ? p->a : p->b, a_is_red ? p->b : p->a};
        Engine *players[COLOR_NB];
        bool ok = true;
        for (int c = 0; c < COLOR_NB && ok; c++) {
            Engine **slot = &slots[idx[c]];
            if (*slot && (*slot)->dead) {
                engine_stop(*slot);
                free(*slot);
                *slot = NULL;
            }
            if (!*slot) {
                *slot = malloc(sizeof **slot);
                if (!*slot || !engine_start(*slot, &Cfg.engines[idx[c]], Cfg.handshake_ms, LogFile, err, sizeof err)) {
                    pthread_mutex_lock(&Lock);
                    if (!Fatal[0]) snprintf(Fatal, sizeof Fatal, "%s", err);
                    Stop = true;
                    pthread_mutex_unlock(&Lock);
                    free(*slot);
                    *slot = NULL;
                    ok = false;
                    break;
                }
            }
            players[c] = *slot;
            if (!engine_new_game(*slot, Cfg.handshake_ms)) (*slot)->dead = true;
        }
        if (!ok) break;
        game_play(players, fen, &Cfg.tc, &Cfg.rules, rec);
        for (int c = 0; c < COLOR_NB; c++)
            if (rec->engine_failed[c]) players[c]->dead = true; /* restart it for the next game */
        pthread_mutex_lock(&Lock);
        record_game(game, pair, a_is_red, rec);
        pthread_mutex_unlock(&Lock);
    }
    for (int i = 0; i < MAX_ENGINES; i++) {
        if (slots[i]) {
            engine_stop(slots[i]);
            free(slots[i]);
        }
    }
    free(rec);
    return NULL;
}

/* First SIGINT/SIGTERM: wind down (the games in progress still count, so
 * the summary is honest). The handler then gives the signal back its
 * default action, so a second one ends tuong-match at once. Only
 * async-signal-safe calls here: an atomic store, write() and signal(). */
static void on_interrupt(int sig) {
    static const char msg[] =
        "tuong-match: stopping after the games in progress (signal again to stop at once)\n";
    atomic_store(&Interrupted, sig);
    signal(sig, SIG_DFL);
    (void)!write(2, msg, sizeof msg - 1);
}

static void catch_interrupts(void) {
    /* A shell starts background jobs with SIGINT ignored so that Ctrl-C
     * in the terminal spares them; keep that. SIGTERM is always caught. */
    if (signal(SIGINT, on_interrupt) == SIG_IGN) signal(SIGINT, SIG_IGN);
    signal(SIGTERM, on_interrupt);
}

static void final_report(void) {
    printf("\n=== %d games, %s ===\n", GamesDone, Cfg.tc_text);
    if (atomic_load(&Interrupted))
        printf("Interrupted by signal %d after %d of %d games\n", atomic_load(&Interrupted), GamesDone, TotalGames);
    for (int i = 0; i < PairCount; i++) {
        const Pairing *p = &Pairs[i];
        Score3 s = p->score;
        printf("%s vs %s: games %d, +%d =%d -%d, score %.1f%%\n", Cfg.engines[p->a].name, Cfg.engines[p->b].name,
               stats_games(s), s.wins, s.draws, s.losses, 100 * stats_score(s));
        printf("  Elo difference %+.1f +/- %.1f (95%%), LOS %.1f%%, draw ratio %.1f%%\n", stats_elo(s),
               stats_elo_error(s), 100 * stats_los(s), 100 * stats_draw_ratio(s));
    }
    if (Cfg.engine_count > 2) {
        printf("Standings (each engine against the field):\n");
        for (int e = 0; e < Cfg.engine_count; e++) {
            Score3 t = {0, 0, 0};
            for (int i = 0; i < PairCount; i++) {
                Score3 s = Pairs[i].score;
                if (Pairs[i].a == e) t = (Score3){t.wins + s.wins, t.draws + s.draws, t.losses + s.losses};
                if (Pairs[i].b == e) t = (Score3){t.wins + s.losses, t.draws + s.draws, t.losses + s.wins};
            }
            printf("  %-16s games %d, +%d =%d -%d, %.1f points (%.1f%%), Elo %+.1f +/- %.1f\n", Cfg.engines[e].name,
                   stats_games(t), t.wins, t.draws, t.losses, t.wins + 0.5 * t.draws, 100 * stats_score(t),
                   stats_elo(t), stats_elo_error(t));
        }
    }
    if (Cfg.sprt_on && PairCount == 1) {
        Score3 s = SprtDecided ? SprtAt : Pairs[0].score;
        SprtState st = stats_sprt(s, Cfg.sprt);
        if (SprtDecided) printf("SPRT decided after %d games (+%d =%d -%d)\n", stats_games(s), s.wins, s.draws, s.losses);
        printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f [%.3f, %.3f] -> %s\n", Cfg.sprt.elo0, Cfg.sprt.elo1,
               Cfg.sprt.alpha, Cfg.sprt.beta, stats_llr(s, Cfg.sprt), stats_llr_lower(Cfg.sprt),
               stats_llr_upper(Cfg.sprt),
               st == SPRT_H1 ? "H1 accepted" : st == SPRT_H0 ? "H0 accepted" : "undecided");
    }
    if (Cfg.tc.depth <= 0 && Cfg.tc.nodes <= 0) {
        /* What a referee without a grace margin would have forfeited. */
        printf("Moves over the clock, forgiven by -timemargin %lld ms:", (long long)Cfg.tc.margin_ms);
        for (int e = 0; e < Cfg.engine_count; e++)
            printf("%s %s %d (worst %lld ms)", e ? "," : "", Cfg.engines[e].name, Overruns[e],
                   (long long)WorstOverrun[e]);
        printf("\n");
    }
    printf("Results by reason:\n");
    for (int i = 0; i < ReasonCount; i++) printf("  %4d  %s\n", Reasons[i].n, Reasons[i].text);
}

int main(int argc, char **argv) {
    cpu_require();
#ifdef SIGPIPE
    signal(SIGPIPE, SIG_IGN); /* a dead engine shows as EOF, not as the end of tuong-match */
#endif
    engine_init();
    parse_args(argc, argv);
    if (Cfg.pgn_path[0] && !(PgnFile = fopen(Cfg.pgn_path, "a"))) die("cannot write %s", Cfg.pgn_path);
    if (Cfg.log_path[0] && !(LogFile = fopen(Cfg.log_path, "w"))) die("cannot write %s", Cfg.log_path);
    if (LogFile) setvbuf(LogFile, NULL, _IOLBF, 0);

    /* Check every engine's handshake once, so a bad command fails at once and clearly. */
    char err[512];
    for (int i = 0; i < Cfg.engine_count; i++) {
        Engine *e = malloc(sizeof *e);
        if (!e) abort();
        if (!engine_start(e, &Cfg.engines[i], Cfg.handshake_ms, LogFile, err, sizeof err)) {
            free(e);
            die("%s", err);
        }
        engine_stop(e);
        free(e);
    }
    for (int a = 0; a < Cfg.engine_count; a++)
        for (int b = a + 1; b < Cfg.engine_count; b++) Pairs[PairCount++] = (Pairing){a, b, {0, 0, 0}};
    TotalGames = PairCount * Cfg.games_per_pair;
    int workers = Cfg.concurrency < TotalGames ? Cfg.concurrency : TotalGames;
    printf("tuong-match: %d engines, %d games, %s, %d openings, concurrency %d\n", Cfg.engine_count, TotalGames,
           Cfg.tc_text, Cfg.book.count, workers);
    fflush(stdout);
    catch_interrupts();
    pthread_t threads[MAX_WORKERS];
    for (int i = 0; i < workers; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < workers; i++) pthread_join(threads[i], NULL);
    if (Fatal[0]) die("%s", Fatal);
    final_report();
    if (PgnFile) fclose(PgnFile);
    if (LogFile) fclose(LogFile);
    openings_free(&Cfg.book);
    int sig = atomic_load(&Interrupted);
    return sig ? 128 + sig : 0;
}
