// SPDX-License-Identifier: GPL-3.0-or-later
/* Result files of sharded matches and their merge (results.h). */
#include "results.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char Magic[] = "tuong-match-results 1";

/* ---- writing ------------------------------------------------------- */

bool results_open(ResultsWriter *w, const char *path, const MatchTally *t, uint64_t run, ShardSpec spec, int first,
                  int count, char *err, size_t errlen) {
    *w = (ResultsWriter){0};
    if (snprintf(w->path, sizeof w->path, "%s", path) >= (int)sizeof w->path)
        return shard_fail(err, errlen, "%s: name too long", path);
    snprintf(w->tmp, sizeof w->tmp, "%s.part", path);
    if (!(w->f = fopen(w->tmp, "wb"))) return shard_fail(err, errlen, "cannot write %s: %s", w->tmp, strerror(errno));
    fprintf(w->f, "%s\nrun %016" PRIx64 " shard %d/%d games %d first %d count %d\nengines %d\n", Magic, run, spec.index,
            spec.count, t->total_games, first, count, t->engine_count);
    for (int e = 0; e < t->engine_count; e++)
        fprintf(w->f, "engine %s\n", t->names[e]);
    fprintf(w->f, "tc %s\ntimed %d margin %lld\nsprt %d %.17g %.17g %.17g %.17g model %s\n", t->tc_text, t->timed,
            (long long)t->margin_ms, t->sprt_on, t->sprt.elo0, t->sprt.elo1, t->sprt.alpha, t->sprt.beta,
            stats_model_name(t->sprt.model));
    return fflush(w->f) == 0 || shard_fail(err, errlen, "cannot write %s: %s", w->tmp, strerror(errno));
}

bool results_add(ResultsWriter *w, int game, const GameRecord *rec, const PgnTags *tags) {
    FILE *pgn = tmpfile(); /* the PGN's length goes before it */
    if (!pgn) return false;
    pgn_write(pgn, rec, tags);
    long len = ftell(pgn);
    bool ok = len >= 0 && fseek(pgn, 0, SEEK_SET) == 0;
    if (ok) {
        fprintf(w->f, "game %d %d %d %d %lld %lld %ld\nreason %s\n", game, (int)rec->result, rec->overruns[RED],
                rec->overruns[BLACK], (long long)rec->worst_overrun_ms[RED], (long long)rec->worst_overrun_ms[BLACK],
                len, rec->reason);
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, pgn)) > 0)
            ok = ok && fwrite(buf, 1, n, w->f) == n;
    }
    fclose(pgn);
    w->written++;
    return ok && fflush(w->f) == 0;
}

bool results_close(ResultsWriter *w, bool whole) {
    if (!w->f) return true;
    if (whole) fprintf(w->f, "end %d\n", w->written);
    bool ok = fclose(w->f) == 0;
    w->f = NULL;
    return ok && (!whole || rename(w->tmp, w->path) == 0);
}

/* ---- reading ------------------------------------------------------- */

typedef struct {
    const char *text;
    size_t len, at;
    int line;
} Reader;

/* The next line without its newline into buf; false at the end of the
 * text or at a line that is cut short or too long. */
static bool next_line(Reader *rd, char *buf, size_t cap) {
    if (rd->at >= rd->len) return false;
    const char *start = rd->text + rd->at, *nl = memchr(start, '\n', rd->len - rd->at);
    if (!nl || (size_t)(nl - start) >= cap) return false;
    memcpy(buf, start, (size_t)(nl - start));
    buf[nl - start] = '\0';
    rd->at += (size_t)(nl - start) + 1;
    rd->line++;
    return true;
}

/* "key rest-of-line": rest into out. */
static bool keyed(const char *line, const char *key, char *out, size_t cap) {
    size_t k = strlen(key);
    if (strncmp(line, key, k) || line[k] != ' ' || strlen(line + k + 1) >= cap) return false;
    strcpy(out, line + k + 1);
    return true;
}

static bool parse_header(Reader *rd, MatchResults *r, char *err, size_t errlen) {
    char line[512];
    MatchTally *t = &r->tally;
    unsigned long long run;
    int k, n, used = 0;
    if (!next_line(rd, line, sizeof line) || strcmp(line, Magic))
        return shard_fail(err, errlen, "not a match result file (the first line is not '%s')", Magic);
    if (!next_line(rd, line, sizeof line) ||
        sscanf(line, "run %16llx shard %d/%d games %d first %d count %d%n", &run, &k, &n, &r->total_games, &r->first,
               &r->count, &used) != 6 ||
        line[used])
        return shard_fail(err, errlen, "line 2 is not 'run HEX shard K/N games T first F count C'");
    if (n < 1 || n > SHARD_COUNT_MAX || k < 0 || k >= n || r->total_games < 1)
        return shard_fail(err, errlen, "line 2: shard %d/%d of %d games is not a shard", k, n, r->total_games);
    r->run = run;
    r->spec = (ShardSpec){k, n};
    uint64_t first, end;
    shard_range((uint64_t)r->total_games, r->spec, &first, &end);
    if ((uint64_t)r->first != first || (uint64_t)r->count != end - first)
        return shard_fail(err, errlen, "shard %d/%d of %d games holds games %" PRIu64 "..%" PRIu64 ", not %d from %d",
                          k, n, r->total_games, first, end - 1, r->count, r->first);
    if (!next_line(rd, line, sizeof line) || sscanf(line, "engines %d%n", &t->engine_count, &used) != 1 || line[used] ||
        t->engine_count < 2 || t->engine_count > TALLY_MAX_ENGINES)
        return shard_fail(err, errlen, "line 3 is not 'engines E' with E from 2 to %d", TALLY_MAX_ENGINES);
    for (int e = 0; e < t->engine_count; e++)
        if (!next_line(rd, line, sizeof line) || !keyed(line, "engine", t->names[e], sizeof t->names[e]))
            return shard_fail(err, errlen, "line %d is not 'engine NAME'", rd->line);
    int timed, sprt_on;
    long long margin;
    if (!next_line(rd, line, sizeof line) || !keyed(line, "tc", t->tc_text, sizeof t->tc_text))
        return shard_fail(err, errlen, "line %d is not 'tc TEXT'", rd->line);
    if (!next_line(rd, line, sizeof line) || sscanf(line, "timed %d margin %lld%n", &timed, &margin, &used) != 2 ||
        line[used] || (timed != 0 && timed != 1))
        return shard_fail(err, errlen, "line %d is not 'timed 0|1 margin MS'", rd->line);
    SprtParams *p = &t->sprt;
    char model[16] = "";
    int model_at = 0;
    /* Files written before the pentanomial model name none: trinomial. */
    if (!next_line(rd, line, sizeof line) ||
        sscanf(line, "sprt %d %lg %lg %lg %lg%n model %15s%n", &sprt_on, &p->elo0, &p->elo1, &p->alpha, &p->beta,
               &used, model, &model_at) < 5 ||
        (model_at ? line[model_at] : line[used]) || (sprt_on != 0 && sprt_on != 1) ||
        (model_at && !stats_model_parse(model, &p->model)))
        return shard_fail(err, errlen, "line %d is not 'sprt 0|1 ELO0 ELO1 ALPHA BETA [model pentanomial|trinomial]'",
                          rd->line);
    if (!model_at) p->model = SPRT_TRINOMIAL;
    t->timed = timed;
    t->margin_ms = margin;
    t->sprt_on = sprt_on;
    t->total_games = r->total_games;
    tally_start(t);
    return true;
}

static bool parse_game(Reader *rd, const char *line, MatchResults *r, char *err, size_t errlen) {
    ResultGame g = {0};
    int result, used = 0;
    long long w0, w1;
    long pgn_len;
    if (sscanf(line, "game %d %d %d %d %lld %lld %ld%n", &g.number, &result, &g.outcome.overruns[RED],
               &g.outcome.overruns[BLACK], &w0, &w1, &pgn_len, &used) != 7 ||
        line[used])
        return shard_fail(err, errlen, "line %d is not a game line", rd->line);
    if (g.number < r->first || g.number >= r->first + r->count)
        return shard_fail(err, errlen, "game %d is not in this shard's games %d..%d", g.number, r->first,
                          r->first + r->count - 1);
    if (result < RES_RED_WINS || result > RES_DRAW || pgn_len < 0 || g.outcome.overruns[RED] < 0 ||
        g.outcome.overruns[BLACK] < 0)
        return shard_fail(err, errlen, "line %d: game %d has a bad result, count or length", rd->line, g.number);
    char reason_line[sizeof g.reason + 16];
    if (!next_line(rd, reason_line, sizeof reason_line) || !keyed(reason_line, "reason", g.reason, sizeof g.reason))
        return shard_fail(err, errlen, "truncated: game %d has no reason line", g.number);
    if ((size_t)pgn_len > rd->len - rd->at)
        return shard_fail(err, errlen, "truncated: game %d's PGN is cut short", g.number);
    g.outcome.result = (GameResult)result;
    g.outcome.worst_overrun_ms[RED] = w0;
    g.outcome.worst_overrun_ms[BLACK] = w1;
    g.pgn_at = rd->at;
    g.pgn_len = (size_t)pgn_len;
    rd->at += (size_t)pgn_len;
    for (int i = 0; i < r->count && r->games[i].number >= 0; i++)
        if (r->games[i].number == g.number) return shard_fail(err, errlen, "game %d is in the file twice", g.number);
    int slot = 0;
    while (slot < r->count && r->games[slot].number >= 0)
        slot++;
    if (slot == r->count) return shard_fail(err, errlen, "more than the shard's %d games", r->count);
    r->games[slot] = g;
    return true;
}

bool results_parse(const char *text, size_t len, MatchResults *r, char *err, size_t errlen) {
    *r = (MatchResults){0};
    Reader rd = {.text = text, .len = len};
    if (!parse_header(&rd, r, err, errlen)) return false;
    if (!(r->games = malloc(sizeof *r->games * (size_t)(r->count ? r->count : 1))))
        return shard_fail(err, errlen, "out of memory");
    for (int i = 0; i < r->count; i++)
        r->games[i].number = -1;
    char line[512];
    int seen = 0;
    for (;;) {
        if (!next_line(&rd, line, sizeof line))
            return shard_fail(err, errlen, "truncated: no end line after %d of its %d games", seen, r->count);
        if (!strncmp(line, "game ", 5)) {
            if (!parse_game(&rd, line, r, err, errlen)) return false;
            seen++;
            continue;
        }
        int end, used = 0;
        if (sscanf(line, "end %d%n", &end, &used) != 1 || line[used])
            return shard_fail(err, errlen, "line %d is neither a game nor the end line", rd.line);
        if (end != seen || seen != r->count)
            return shard_fail(err, errlen, "truncated: the end line says %d games, the file holds %d, the shard has %d",
                              end, seen, r->count);
        break;
    }
    if (rd.at != len) return shard_fail(err, errlen, "text after the end line");
    for (int i = 0; i < r->count; i++)
        r->games[i].outcome.reason = r->games[i].reason;
    return true;
}

void results_free(MatchResults *r) {
    free(r->games);
    r->games = NULL;
}

/* ---- merging ------------------------------------------------------- */

typedef struct {
    int n;
    char **names, **texts;
    MatchResults *files;
    ShardInfo *info;
    int *order;
} MergeSet;

static void merge_set_free(MergeSet *m) {
    for (int i = 0; i < m->n; i++) {
        if (m->texts) free(m->texts[i]);
        if (m->files) results_free(&m->files[i]);
    }
    free(m->texts);
    free(m->files);
    free(m->info);
    free(m->order);
}

/* Read, parse and check the set; false with one message in err. */
static bool merge_load(MergeSet *m, bool prefix, char *err, size_t errlen) {
    m->texts = calloc((size_t)m->n, sizeof *m->texts);
    m->files = calloc((size_t)m->n, sizeof *m->files);
    m->info = calloc((size_t)m->n, sizeof *m->info);
    m->order = calloc((size_t)m->n, sizeof *m->order);
    if (!m->texts || !m->files || !m->info || !m->order) return shard_fail(err, errlen, "out of memory");
    for (int i = 0; i < m->n; i++) {
        size_t len;
        char why[600];
        if (!(m->texts[i] = shard_read_file(m->names[i], &len, err, errlen))) return false;
        if (!results_parse(m->texts[i], len, &m->files[i], why, sizeof why))
            return shard_fail(err, errlen, "%s: %s", m->names[i], why);
        m->info[i] = (ShardInfo){.name = m->names[i], .spec = m->files[i].spec, .run = m->files[i].run};
    }
    return prefix ? shard_check_prefix(m->info, m->n, m->order, err, errlen)
                  : shard_check_set(m->info, m->n, m->order, err, errlen);
}

/* The games in game order, the SPRT's stop applied: tally into t, PGN to
 * pgn (or nowhere). */
static bool merge_games(MergeSet *m, MatchTally *t, FILE *pgn) {
    for (int k = 0; k < m->n; k++) {
        const MatchResults *r = &m->files[m->order[k]];
        const char *text = m->texts[m->order[k]];
        for (int g = r->first; g < r->first + r->count; g++) {
            const ResultGame *rg = NULL;
            for (int i = 0; i < r->count && !rg; i++)
                if (r->games[i].number == g) rg = &r->games[i];
            if (!rg) return false; /* results_parse saw every game once */
            bool decided = tally_add(t, g, &rg->outcome);
            if (pgn && fwrite(text + rg->pgn_at, 1, rg->pgn_len, pgn) != rg->pgn_len) return false;
            if (decided) return true; /* a -concurrency 1 run starts no more games */
        }
    }
    return true;
}

static const char MergeUsage[] = "usage: tuong-match merge [-prefix] [-pgnout FILE] RESULTS...\n"
                                 "Add up the result files of the shards 0..N-1 of one `tuong-match -shard K/N\n"
                                 "-results FILE` match; print its report, write its games to a new PGN file\n"
                                 "in game order (docs/cluster.md). -prefix: the shards 0..k-1 played so far\n"
                                 "(a match carried over sessions), reported as the match of their games.\n";

int results_merge_main(int argc, char **argv) {
    const char *pgn_path = NULL;
    bool prefix = false;
    MergeSet m = {0};
    char err[1200], tmp[1040];
    m.names = calloc((size_t)argc + 1, sizeof *m.names);
    if (!m.names) return 1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-help")) {
            fputs(MergeUsage, stdout);
            free(m.names);
            return 0;
        }
        if (!strcmp(argv[i], "-pgnout") && i + 1 < argc)
            pgn_path = argv[++i];
        else if (!strcmp(argv[i], "-prefix"))
            prefix = true;
        else
            m.names[m.n++] = argv[i];
    }
    int rc = 1;
    FILE *pgn = NULL;
    MatchTally *t = malloc(sizeof *t);
    if (!t) goto done;
    if (!m.n) {
        fprintf(stderr, "tuong-match: error: merge needs the shards' result files\n%s", MergeUsage);
        rc = 2;
        goto done;
    }
    if (!merge_load(&m, prefix, err, sizeof err)) {
        fprintf(stderr, "tuong-match: error: %s\n", err);
        goto done;
    }
    FILE *probe = pgn_path ? fopen(pgn_path, "rb") : NULL;
    if (probe) {
        fclose(probe);
        fprintf(stderr, "tuong-match: error: %s exists: merge writes a new PGN file\n", pgn_path);
        goto done;
    }
    snprintf(tmp, sizeof tmp, "%s.part", pgn_path ? pgn_path : "");
    if (pgn_path && !(pgn = fopen(tmp, "wb"))) {
        fprintf(stderr, "tuong-match: error: cannot write %s: %s\n", tmp, strerror(errno));
        goto done;
    }
    /* The settings of shard 0, whose SPRT model is the match's: a shard
     * played later by a build that writes another model holds the same
     * games (the SPRT stops only the merge). */
    *t = m.files[m.order[0]].tally;
    bool ok = merge_games(&m, t, pgn);
    if (pgn) {
        ok = fclose(pgn) == 0 && ok;
        pgn = NULL;
        ok = ok && rename(tmp, pgn_path) == 0;
    }
    if (!ok) {
        fprintf(stderr, "tuong-match: error: writing %s failed\n", pgn_path ? pgn_path : "the report");
        goto done;
    }
    tally_report(stdout, t, 0);
    if (prefix && m.n < m.files[0].spec.count) {
        const MatchResults *last = &m.files[m.order[m.n - 1]];
        printf("Prefix: shards 0-%d of %d, games 1-%d of %d; ", m.n - 1, m.files[0].spec.count,
               last->first + last->count, last->total_games);
        if (t->sprt_decided)
            printf("the SPRT has decided, no further shard is needed\n");
        else
            printf("shard %d/%d comes next\n", m.n, m.files[0].spec.count);
    }
    rc = 0;
done:
    if (pgn) fclose(pgn);
    merge_set_free(&m);
    free(m.names);
    free(t);
    return rc;
}
