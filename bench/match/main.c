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
#include "results.h"
#include "shard.h"
#include "stats.h"
#include "sys.h"
#include "tally.h"

/* MAX_WORDS: key=value words after -engine or -each: room for every search
 * parameter of a tuning build as option.NAME=VALUE (tuong-tune spsa show). */
enum { MAX_ENGINES = TALLY_MAX_ENGINES, MAX_WORKERS = 64, MAX_WORDS = ENGINE_OPTIONS_MAX + 16 };

static const char Usage[] =
    "usage: tuong-match -engine name=A cmd=PATH [proto=ucci|uci] [ranks=0|1] [timeunit=auto|ms|s]\n"
    "                           [dir=D] [variant=0|1] [option.NAME=VALUE ...]\n"
    "                   -engine name=B cmd=... [-engine ...] [options]\n"
    "       tuong-match merge [-pgnout FILE] RESULTS...   add up a sharded match (docs/cluster.md)\n"
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
    "  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=pentanomial|trinomial]\n"
    "                          stop when the SPRT decides (pentanomial: by game pairs)\n"
    "  -pgnout FILE            append games as PGN\n"
    "  -notation iccs|wxf|vn   move notation in the PGN (default iccs; vn: Vietnamese)\n"
    "  -log FILE               transcript of every engine's input and output\n"
    "  -timemargin MS          grace before a time forfeit (default 500)\n"
    "  -movetimeout MS         answer limit for depth/nodes searches (default 60000)\n"
    "  -handshake MS           limit for ucci/uci and isready answers (default 10000)\n"
    "  -quiet                  no per-game lines\n"
    "  -shard K/N              play only shard K (0..N-1) of the games; needs -results\n"
    "  -results FILE           machine-readable results for tuong-match merge; every game\n"
    "                          of the share is played (the merge applies the SPRT's stop)\n"
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
    char pgn_path[1024], log_path[1024], results_path[1024];
    bool sharded;
    ShardSpec shard;
    int handshake_ms;
    bool quiet;
    Notation notation;
    char tc_text[64];
} Config;

/* Shared tournament state, guarded by Lock. */
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static Config Cfg;
static MatchTally Tally; /* the score, and the settings its report prints */
static int TotalGames, FirstGame, NextGame, EndGame; /* games NextGame..EndGame-1 are left (a shard's share) */
static bool Stop;
/* The signal that asked us to wind down, 0 if none. Written by the signal
 * handler, read by the workers: a lock-free atomic is safe in both. */
static atomic_int Interrupted;
static char Fatal[512];
static FILE *PgnFile, *LogFile;
static ResultsWriter Results; /* -results */

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
        if (!strncmp(w, "model=", 6)) {
            if (!stats_model_parse(w + 6, &p->model)) die("bad SPRT setting '%s' (model=pentanomial|trinomial)", w);
            continue;
        }
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
    c->sprt = (SprtParams){0, 5, 0.05, 0.05, SPRT_PENTANOMIAL};
    c->shard = (ShardSpec){0, 1}; /* -results without -shard: the whole match */
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
        } else if ((!strcmp(a, "-pgnout") || !strcmp(a, "-log") || !strcmp(a, "-results")) && v) {
            char *dst = a[1] == 'p' ? c->pgn_path : a[1] == 'l' ? c->log_path : c->results_path;
            snprintf(dst, sizeof c->pgn_path, "%s", v);
        } else if (!strcmp(a, "-shard") && v) {
            if (!shard_parse(v, &c->shard)) die("-shard needs K/N with 0 <= K < N, not '%s'", v);
            c->sharded = true;
        } else if (!strcmp(a, "-openings") || !strcmp(a, "-order") || !strcmp(a, "-seed") || !strcmp(a, "-notation") ||
                   !strcmp(a, "-pgnout") || !strcmp(a, "-log") || !strcmp(a, "-results") || !strcmp(a, "-shard")) {
            die("%s needs a value", a);
        } else {
            fprintf(stderr, "tuong-match: error: unknown option '%s'\n%s", a, Usage);
            exit(2);
        }
        i += n;
    }
    configure_engines(c, argv, &ea);
    if (c->sharded && !c->results_path[0]) die("-shard needs -results FILE%s", "");
    if (openings) {
        if (!openings_load(&c->book, openings, err, sizeof err)) die("%s", err);
        if (!strcmp(order, "random")) openings_shuffle(&c->book, seed);
    } else {
        openings_startpos(&c->book);
    }
}

/* Record a finished game; called with Lock held. */
static void record_game(int game, int pair, bool a_is_red, const GameRecord *rec) {
    Pairing *p = &Tally.pairs[pair];
    const char *red = Cfg.engines[a_is_red ? p->a : p->b].name, *black = Cfg.engines[a_is_red ? p->b : p->a].name;
    GameOutcome outcome = {.result = rec->result, .reason = rec->reason};
    for (int c = 0; c < COLOR_NB; c++) {
        outcome.overruns[c] = rec->overruns[c];
        outcome.worst_overrun_ms[c] = rec->worst_overrun_ms[c];
    }
    /* Decided: start no more games. With -results the share is played
     * whole: the merge finds where the SPRT of the whole match decides. */
    if (tally_add(&Tally, game, &outcome) && !Results.f) Stop = true;
    PgnTags tags = {"tuong-match", red, black, Cfg.tc_text, game + 1, Cfg.notation};
    if (PgnFile) {
        pgn_write(PgnFile, rec, &tags);
        fflush(PgnFile);
    }
    if (Results.f && !results_add(&Results, game, rec, &tags)) {
        if (!Fatal[0]) snprintf(Fatal, sizeof Fatal, "writing %.400s failed", Results.tmp);
        Stop = true;
    }
    if (!Cfg.quiet) {
        printf("Game %d/%d %s vs %s: %s {%s}, %d plies; ", Tally.games_done, TotalGames, red, black,
               game_result_text(rec->result), rec->reason, rec->ply_count);
        tally_pair_line(stdout, &Tally, p);
        printf("\n");
        fflush(stdout);
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
        int game = (Stop || atomic_load(&Interrupted) || NextGame >= EndGame) ? -1 : NextGame++;
        pthread_mutex_unlock(&Lock);
        if (game < 0) break;
        int round, pair;
        bool a_is_red;
        tally_schedule(&Tally, game, &pair, &a_is_red, &round);
        const char *fen = Cfg.book.fens[round % Cfg.book.count];
        Pairing *p = &Tally.pairs[pair];
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

/* The run's fingerprint for -results: the command line without the options
 * that do not change the games (which shard, where output goes, how many
 * at once), and the opening lines in play order. */
static uint64_t run_fingerprint(int argc, char **argv) {
    static const char *const Free[] = {"-shard", "-results", "-pgnout", "-log", "-concurrency", "-quiet"};
    uint64_t h = shard_hash_str(SHARD_HASH_INIT, "tuong-match");
    for (int i = 1; i < argc; i++) {
        bool skip = false;
        for (size_t k = 0; k < sizeof Free / sizeof *Free; k++) skip = skip || !strcmp(argv[i], Free[k]);
        if (!skip) {
            h = shard_hash_str(h, argv[i]);
            continue;
        }
        while (i + 1 < argc && argv[i + 1][0] != '-') i++; /* its words */
    }
    for (int i = 0; i < Cfg.book.count; i++) h = shard_hash_str(h, Cfg.book.fens[i]);
    return h;
}

/* The report's settings and the pairings, from Cfg. */
static void tally_setup(void) {
    Tally.engine_count = Cfg.engine_count;
    for (int e = 0; e < Cfg.engine_count; e++) snprintf(Tally.names[e], sizeof Tally.names[e], "%s", Cfg.engines[e].name);
    snprintf(Tally.tc_text, sizeof Tally.tc_text, "%s", Cfg.tc_text);
    Tally.timed = Cfg.tc.depth <= 0 && Cfg.tc.nodes <= 0;
    Tally.margin_ms = Cfg.tc.margin_ms;
    Tally.sprt_on = Cfg.sprt_on;
    Tally.sprt = Cfg.sprt;
    tally_start(&Tally);
}

int main(int argc, char **argv) {
    cpu_require();
    if (argc > 1 && !strcmp(argv[1], "merge")) return results_merge_main(argc - 2, argv + 2);
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
    tally_setup();
    TotalGames = Tally.total_games = Tally.pair_count * Cfg.games_per_pair;
    EndGame = TotalGames;
    if (Cfg.sharded) {
        uint64_t first, end;
        shard_range((uint64_t)TotalGames, Cfg.shard, &first, &end);
        if (first == end) die("this shard holds no game: split %s into fewer shards", "the match");
        FirstGame = NextGame = (int)first;
        EndGame = (int)end;
    }
    if (Cfg.results_path[0] &&
        !results_open(&Results, Cfg.results_path, &Tally, run_fingerprint(argc, argv), Cfg.shard, NextGame,
                      EndGame - NextGame, err, sizeof err))
        die("%s", err);
    int workers = Cfg.concurrency < EndGame - NextGame ? Cfg.concurrency : EndGame - NextGame;
    printf("tuong-match: %d engines, %d games, %s, %d openings, concurrency %d\n", Cfg.engine_count, TotalGames,
           Cfg.tc_text, Cfg.book.count, workers);
    if (Cfg.sharded)
        printf("tuong-match: shard %d/%d: games %d..%d\n", Cfg.shard.index, Cfg.shard.count, NextGame + 1, EndGame);
    fflush(stdout);
    catch_interrupts();
    pthread_t threads[MAX_WORKERS];
    for (int i = 0; i < workers; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < workers; i++) pthread_join(threads[i], NULL);
    int sig = atomic_load(&Interrupted);
    /* The result file is renamed to its name only when its games are all
     * in it (a shard ignores the SPRT's stop). */
    bool whole = !Fatal[0] && !sig && Tally.games_done == EndGame - FirstGame;
    if (!results_close(&Results, whole) && !Fatal[0]) snprintf(Fatal, sizeof Fatal, "writing %.400s failed", Results.tmp);
    if (Fatal[0]) die("%s", Fatal);
    tally_report(stdout, &Tally, sig);
    if (PgnFile) fclose(PgnFile);
    if (LogFile) fclose(LogFile);
    openings_free(&Cfg.book);
    return sig ? 128 + sig : 0;
}
