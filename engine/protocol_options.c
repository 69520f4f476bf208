// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "egtb/egtb_probe.h"
#include "eval.h"
#include "nnue/nnue.h"
#include "protocol_output.h"
#include "search.h"
#include "search_params.h"
#include "sys.h"

typedef enum { T_CHECK, T_SPIN, T_COMBO, T_BUTTON, T_STRING } OptionType;

typedef enum {
    O_USEMILLISEC,
    O_BATCH,
    O_DEBUG,
    O_PONDER,
    O_USEBOOK,
    O_USEEGTB,
    O_BOOKFILES,
    O_EGTBPATHS,
    O_EVALAPI,
    O_HASH,
    O_THREADS,
    O_DRAWMOVES,
    O_IDLE,
    O_PRUNING,
    O_KNOWLEDGE,
    O_RANDOMNESS,
    O_STYLE,
    O_PROMOTION,
    O_DRAWOFFER,
    O_RESIGN,
    O_NEWGAME,
    O_CLEARHASH,
    O_REPETITION,
    O_MULTIPV,
    O_OVERHEAD,
    O_NODESTIME,
    O_VARIANT,
    O_NOTATION,
    O_EVALFILE,
    O_USENNUE,
    O_LEVEL,
    O_LIMIT_STRENGTH,
    O_ELO,
} OptionId;

enum { ONLY_UCCI = 1, ONLY_UCI = 2, BOTH = 3, HIDDEN = 0 };

typedef struct {
    OptionId id;
    const char *ucci_name, *uci_name;
    int shown; /* in which dialect's option list */
    OptionType type;
    int min, max;
    const char *def;
    const char *vars; /* combo values, space separated */
} OptionDef;

enum { HASH_MAX_MB = 32768, THREADS_MAX = 256, MULTIPV_MAX = 64, NODESTIME_MAX = 100000 };

static const char Levels[] = "none small medium large";
/* EvalFile's value for the net linked into the binary. */
#define EVALFILE_EMBEDDED "<embedded>"

static const OptionDef Defs[] = {
    {O_USEMILLISEC, "usemillisec", "usemillisec", ONLY_UCCI, T_CHECK, 0, 0, "false", NULL},
    {O_BATCH, "batch", "batch", ONLY_UCCI, T_CHECK, 0, 0, "false", NULL},
    {O_DEBUG, "debug", "debug", ONLY_UCCI, T_CHECK, 0, 0, "false", NULL},
    {O_PONDER, "ponder", "Ponder", BOTH, T_CHECK, 0, 0, "false", NULL},
    {O_USEBOOK, "usebook", "OwnBook", BOTH, T_CHECK, 0, 0, "true", NULL}, /* UCI default: false */
    {O_USEEGTB, "useegtb", "UseEGTB", BOTH, T_CHECK, 0, 0, "true", NULL},
    {O_BOOKFILES, "bookfiles", "BookFile", BOTH, T_STRING, 0, 0, "<empty>", NULL},
    {O_EGTBPATHS, "egtbpaths", "EGTBPath", BOTH, T_STRING, 0, 0, "<empty>", NULL},
    {O_EVALAPI, "evalapi", "evalapi", ONLY_UCCI, T_STRING, 0, 0, "<empty>", NULL},
    {O_HASH, "hashsize", "Hash", BOTH, T_SPIN, 0, HASH_MAX_MB, "64", NULL},
    {O_THREADS, "threads", "Threads", BOTH, T_SPIN, 0, THREADS_MAX, "1", NULL},
    {O_MULTIPV, "multipv", "MultiPV", ONLY_UCI, T_SPIN, 1, MULTIPV_MAX, "1", NULL},
    {O_NEWGAME, "newgame", "newgame", ONLY_UCCI, T_BUTTON, 0, 0, NULL, NULL},
    {O_CLEARHASH, "Clear Hash", "Clear Hash", ONLY_UCI, T_BUTTON, 0, 0, NULL, NULL},
    {O_OVERHEAD, "moveoverhead", "Move Overhead", BOTH, T_SPIN, 0, 5000, "30", NULL},
    /* Node time (engine/search_clock.c): a clock counted in nodes per ms. */
    {O_NODESTIME, "nodestime", "nodestime", BOTH, T_SPIN, 0, NODESTIME_MAX, "0", NULL},
    {O_VARIANT, "UCI_Variant", "UCI_Variant", ONLY_UCI, T_COMBO, 0, 0, "xiangqi", "xiangqi"},
    {O_NOTATION, "notation", "Notation", ONLY_UCI, T_COMBO, 0, 0, "iccs", "iccs fairy"},
    {O_EVALFILE, "evalfile", "EvalFile", BOTH, T_STRING, 0, 0, EVALFILE_EMBEDDED, NULL},
    {O_USENNUE, "usennue", "UseNNUE", BOTH, T_CHECK, 0, 0, "true", NULL},
    {O_DRAWMOVES, "drawmoves", "DrawPlies", BOTH, T_SPIN, 0, 1000, "120", NULL},
    /* Strength and play (docs/levels.md); the numbers are in skill/skill.h
     * (the defaults: test_skill checks that they agree). */
    {O_LEVEL, "level", "Skill Level", BOTH, T_SPIN, 0, SKILL_LEVEL_MAX, "20", NULL},
    {O_LIMIT_STRENGTH, "UCI_LimitStrength", "UCI_LimitStrength", ONLY_UCI, T_CHECK, 0, 0, "false", NULL},
    {O_ELO, "UCI_Elo", "UCI_Elo", ONLY_UCI, T_SPIN, SKILL_ELO_MIN, SKILL_ELO_MAX, "1800", NULL},
    {O_RANDOMNESS, "randomness", "Randomness", BOTH, T_COMBO, 0, 0, "none", Levels},
    {O_KNOWLEDGE, "knowledge", "knowledge", ONLY_UCCI, T_COMBO, 0, 0, "large", Levels},
    {O_PRUNING, "pruning", "pruning", ONLY_UCCI, T_COMBO, 0, 0, "large", Levels},
    {O_STYLE, "style", "style", ONLY_UCCI, T_COMBO, 0, 0, "normal", "solid normal risky"},
    {O_IDLE, "idle", "idle", ONLY_UCCI, T_COMBO, 0, 0, "none", Levels},
    {O_PROMOTION, "promotion", "promotion", ONLY_UCCI, T_CHECK, 0, 0, "false", NULL},
    {O_DRAWOFFER, "drawoffer", "drawoffer", ONLY_UCCI, T_CHECK, 0, 0, "true", NULL},
    {O_RESIGN, "resign", "resign", ONLY_UCCI, T_CHECK, 0, 0, "false", NULL},
    {O_REPETITION, "repetition", "repetition", HIDDEN, T_STRING, 0, 0, "", NULL},
};

static const char *const TypeNames[] = {"check", "spin", "combo", "button", "string"};

void options_defaults(ProtoSettings *s) {
    memset(s, 0, sizeof *s);
    s->verdict.offer_draw = true;
    s->verdict.resign = false;
    s->useegtb = true; /* the tables are used as soon as egtbpaths names some */
    s->notation = NOTATION_ICCS;
}

void options_print(Dialect d) {
    for (size_t i = 0; i < sizeof Defs / sizeof Defs[0]; i++) {
        const OptionDef *o = &Defs[i];
        if (!(o->shown & (d == DIALECT_UCCI ? ONLY_UCCI : ONLY_UCI))) continue;
        char line[256];
        int n = d == DIALECT_UCCI
                    ? snprintf(line, sizeof line, "option %s type %s", o->ucci_name, TypeNames[o->type])
                    : snprintf(line, sizeof line, "option name %s type %s", o->uci_name, TypeNames[o->type]);
        int min = o->min;
        if (o->id == O_HASH || o->id == O_THREADS) min = d == DIALECT_UCCI ? 0 : 1;
        if (o->type == T_SPIN) n += snprintf(line + n, sizeof line - (size_t)n, " min %d max %d", min, o->max);
        if (o->vars) {
            char vars[128];
            strcpy(vars, o->vars);
            char *save = NULL;
            for (char *v = strtok_r(vars, " ", &save); v; v = strtok_r(NULL, " ", &save))
                n += snprintf(line + n, sizeof line - (size_t)n, " var %s", v);
        }
        const char *def = o->id == O_USEBOOK && d != DIALECT_UCCI ? "false" : o->def;
        if (def) snprintf(line + n, sizeof line - (size_t)n, " default %s", def);
        out_line("%s", line);
    }
    /* A tuning build exposes every search parameter (search_params.h). */
    for (int i = 0; params_tunable() && i < SearchParamCount; i++) {
        const SearchParam *p = &SearchParams[i];
        out_line(d == DIALECT_UCCI ? "option %s type spin min %d max %d default %d"
                                   : "option name %s type spin min %d max %d default %d",
                 p->name, p->min, p->max, *p->value);
    }
}

static const OptionDef *find_option(const char *name) {
    for (size_t i = 0; i < sizeof Defs / sizeof Defs[0]; i++)
        if (!strcasecmp(name, Defs[i].ucci_name) || !strcasecmp(name, Defs[i].uci_name)) return &Defs[i];
    return NULL;
}

static bool parse_bool(const char *v, bool *out) {
    if (!strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0"))
        *out = false;
    else
        return false;
    return true;
}

/* Parse a spin value in [lo, hi]; anything else is refused with a message. */
static bool parse_spin(Dialect d, const char *name, const char *v, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end) {
        out_error(d, "option %s: '%.40s' is not a whole number; unchanged", name, v);
        return false;
    }
    if (errno || x < lo || x > hi) {
        out_error(d, "option %s: %.40s is out of range %ld..%ld; unchanged", name, v, lo, hi);
        return false;
    }
    *out = (long)x;
    return true;
}

/* Position of v among the combo values (case-insensitive), or -1. */
static int combo_index(const char *vars, const char *v) {
    char buf[128];
    strcpy(buf, vars);
    char *save = NULL;
    int i = 0;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (!strcasecmp(w, v)) return i;
        i++;
    }
    return -1;
}

static bool combo_has(const char *vars, const char *v) { return combo_index(vars, v) >= 0; }

/* Half the machine's memory, in MB: a bigger table would only swap. */
static long memory_cap_mb(void) {
    unsigned long long bytes = sys_memory_bytes();
    if (!bytes) return HASH_MAX_MB;
    unsigned long long mb = bytes / 2 / (1024 * 1024);
    return mb < 1 ? 1 : mb > HASH_MAX_MB ? HASH_MAX_MB : (long)mb;
}

/* No more search threads than processors: extra ones only take time slices
 * from the thread that watches the clock (256 threads on 2 cores turned a
 * 200 ms movetime into 10 s). */
static void set_threads(Dialect d, long n) {
    long cpus = sys_cpu_count();
    if (n < 1) n = 1; /* UCCI: 0 lets the engine decide */
    if (cpus >= 1 && n > cpus) {
        out_message(d, "threads %ld is more than this machine's %ld processors; using %ld", n, cpus, cpus);
        n = cpus;
    }
    Options.threads = (int)n;
}

static void set_hash(Dialect d, long mb) {
    if (mb == 0) mb = 64; /* UCCI: 0 lets the engine decide */
    long cap = memory_cap_mb();
    if (mb > cap) {
        out_message(d, "hash %ld MB is more than half this machine's memory; using %ld MB", mb, cap);
        mb = cap;
    }
    int old = Options.hash_mb;
    Options.hash_mb = (int)mb;
    if (!search_resize_hash((int)mb)) {
        Options.hash_mb = old;
        out_error(d, "could not allocate %ld MB for the hash table; keeping %d MB", mb, old);
    }
}

/* What evaluates now, for messages. */
static void describe_eval(char *out, size_t size) {
    const NnueNet *net = nnue_loaded();
    char desc[160];
    if (!net) {
        snprintf(out, size, "the hand-crafted evaluation (no network loaded)");
        return;
    }
    nnue_net_describe(net, desc, sizeof desc);
    if (nnue_enabled())
        snprintf(out, size, "network %s from %s", desc, nnue_source());
    else
        snprintf(out, size, "the hand-crafted evaluation (UseNNUE is off; network %s from %s loaded)", desc,
                 nnue_source());
}

/* EvalFile / evalfile: another net, or the embedded one back. Cached
 * static evaluations of the old net go with the hash table. */
static void set_evalfile(Dialect d, const char *value) {
    char err[400], now[300];
    bool embedded = !*value || !strcmp(value, EVALFILE_EMBEDDED);
    uint32_t hash;
    if (embedded && !nnue_embedded_hash(&hash)) {
        if (nnue_loaded()) out_message(d, "this build has no embedded network; keeping the loaded one");
        return;
    }
    if (embedded && nnue_loaded() && !strcmp(nnue_source(), "embedded")) return;
    bool ok = embedded ? nnue_load_embedded(err, sizeof err) : nnue_load_file(value, err, sizeof err);
    describe_eval(now, sizeof now);
    if (!ok) {
        out_error(d, "option EvalFile: %s; keeping %s", err, now);
        return;
    }
    search_clear();
    out_message(d, "loaded %s", now);
}

/* knowledge: cached static evaluations go with the hash table. */
static void set_knowledge(EvalKnowledge k) {
    if (k == eval_knowledge()) return;
    eval_set_knowledge(k);
    search_clear();
}

static void set_usennue(Dialect d, bool on) {
    char now[300];
    if (on == nnue_enabled()) return;
    nnue_set_enabled(on);
    search_clear();
    describe_eval(now, sizeof now);
    out_message(d, "evaluating with %s", now);
}

/* bookfiles / BookFile: one line per file, loaded or not. */
static void book_report(void *ctx, bool error, const char *text) {
    Dialect d = *(const Dialect *)ctx;
    if (error)
        out_error(d, "book: %s; playing without this book", text);
    else
        out_message(d, "%s", text);
}

/* egtbpaths / EGTBPath: one line per refused file or directory, then how
 * many tables were found. */
static void egtb_report(void *ctx, bool error, const char *text) {
    Dialect d = *(const Dialect *)ctx;
    if (error)
        out_error(d, "egtb: %s", text);
    else
        out_message(d, "%s", text);
}

/* Load the tables of `paths` (between searches: the search reads them);
 * the hash forgets the scores of the tables it had. */
static void set_egtb_paths(Dialect d, const char *paths) {
    search_wait();
    egtb_load(paths, egtb_report, &d);
    if (!*paths) out_message(d, "no endgame tables (the path is empty)");
    search_clear();
}

OptionAction options_set(ProtoSettings *s, Dialect d, const char *name, const char *value, bool has_value) {
    const OptionDef *o = find_option(name);
    const SearchParam *param = params_tunable() ? params_find(name) : NULL;
    if (!o && param) {
        long n = 0;
        if (parse_spin(d, name, value, param->min, param->max, &n)) params_set(name, (int)n);
        return OPTION_DONE;
    }
    if (!o) {
        if (d != DIALECT_UCCI) out_message(d, "unknown option '%.40s' ignored", name);
        return OPTION_DONE;
    }
    if (!strcmp(value, "<empty>")) value = "";
    bool b = false;
    long n = 0;
    if (o->type == T_CHECK && !parse_bool(value, &b)) {
        out_error(d, "option %s needs true or false, not '%.40s'", name, value);
        return OPTION_DONE;
    }
    if (o->type == T_SPIN) {
        int min = o->min;
        if (o->id == O_THREADS || o->id == O_HASH) min = 0;
        if (!parse_spin(d, name, value, min, o->max, &n)) return OPTION_DONE;
    }
    if (o->type == T_COMBO && !combo_has(o->vars, value)) {
        out_error(d, "option %s: '%.40s' is not one of: %s", name, value, o->vars);
        return OPTION_DONE;
    }
    (void)has_value;
    switch (o->id) {
    case O_USEMILLISEC: s->usemillisec = b; break;
    case O_BATCH: s->batch = b; break;
    case O_DEBUG: s->debug = b; break;
    case O_PONDER: s->ponder = b, Options.ponder_enabled = b; break;
    case O_USEBOOK:
        s->usebook = b;
        s->usebook_set = true;
        break;
    case O_USEEGTB: s->useegtb = Options.use_egtb = b; break;
    case O_EVALAPI:
        if (*value) out_message(d, "Tuong has no external evaluation; evalapi ignored");
        break;
    case O_BOOKFILES: book_set_load(&s->books, value, book_report, &d); break;
    case O_EGTBPATHS: set_egtb_paths(d, value); break;
    case O_REPETITION: break;
    case O_HASH: set_hash(d, n); break;
    case O_THREADS: set_threads(d, n); break;
    case O_MULTIPV: Options.multipv = (int)n; break;
    case O_OVERHEAD: Options.move_overhead_ms = (int)n; break;
    case O_NODESTIME: Options.nodestime = (int)n; break;
    case O_DRAWMOVES: Options.draw_plies = (int)n; break;
    case O_LEVEL: Options.skill.level = (int)n; break;
    case O_LIMIT_STRENGTH: Options.skill.limit_strength = b; break;
    case O_ELO: Options.skill.elo = (int)n; break;
    case O_RANDOMNESS: s->randomness = Options.skill.randomness = combo_index(o->vars, value); break;
    case O_KNOWLEDGE: set_knowledge((EvalKnowledge)combo_index(o->vars, value)); break;
    case O_PRUNING: Options.pruning = combo_index(o->vars, value); break;
    case O_STYLE: Options.style = combo_index(o->vars, value); break; /* solid normal risky: Style's order */
    case O_IDLE: Options.idle = combo_index(o->vars, value); break;
    case O_PROMOTION: s->promotion = b; break;
    case O_DRAWOFFER: s->verdict.offer_draw = b; break;
    case O_RESIGN: s->verdict.resign = b; break;
    case O_VARIANT: break; /* xiangqi is the only value */
    case O_NOTATION: s->notation = !strcasecmp(value, "fairy") ? NOTATION_FAIRY : NOTATION_ICCS; break;
    case O_NEWGAME: return OPTION_NEWGAME;
    case O_CLEARHASH: search_clear(); break;
    case O_EVALFILE: set_evalfile(d, value); break;
    case O_USENNUE: set_usennue(d, b); break;
    }
    return OPTION_DONE;
}

int options_rank_base(const ProtoSettings *s, Dialect d) {
    return d != DIALECT_UCCI && s->notation == NOTATION_FAIRY ? 1 : 0;
}

bool options_use_book(const ProtoSettings *s, Dialect d) { return s->usebook_set ? s->usebook : d == DIALECT_UCCI; }
