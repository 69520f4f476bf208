// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 1 << 16, EXIT_WAIT_MS = 200, QUIT_WAIT_MS = 1000 };

bool engine_config_set(EngineConfig *cfg, const char *arg, char *err, size_t errlen) {
    const char *eq = strchr(arg, '=');
    if (!eq) {
        snprintf(err, errlen, "engine setting '%s' is not key=value", arg);
        return false;
    }
    size_t klen = (size_t)(eq - arg);
    const char *v = eq + 1;
#define KEY(k) (klen == strlen(k) && !strncmp(arg, k, klen))
    if (KEY("name")) snprintf(cfg->name, sizeof cfg->name, "%s", v);
    else if (KEY("cmd")) snprintf(cfg->cmd, sizeof cfg->cmd, "%s", v);
    else if (KEY("dir")) snprintf(cfg->dir, sizeof cfg->dir, "%s", v);
    else if (KEY("proto")) {
        if (!strcmp(v, "ucci")) cfg->proto = PROTO_UCCI;
        else if (!strcmp(v, "uci")) cfg->proto = PROTO_UCI;
        else return snprintf(err, errlen, "proto must be ucci or uci, not '%s'", v), false;
    } else if (KEY("ranks")) {
        if (!strcmp(v, "0") || !strcmp(v, "0-9")) cfg->rank_base = 0;
        else if (!strcmp(v, "1") || !strcmp(v, "1-10")) cfg->rank_base = 1;
        else return snprintf(err, errlen, "ranks must be 0 (0-9) or 1 (1-10), not '%s'", v), false;
    } else if (KEY("timeunit")) {
        if (!strcmp(v, "auto")) cfg->unit = UNIT_AUTO;
        else if (!strcmp(v, "ms")) cfg->unit = UNIT_MS;
        else if (!strcmp(v, "s")) cfg->unit = UNIT_SEC;
        else return snprintf(err, errlen, "timeunit must be auto, ms or s, not '%s'", v), false;
    } else if (KEY("variant")) {
        cfg->send_variant = strcmp(v, "0") && strcmp(v, "false") && strcmp(v, "no");
    } else if (klen > 7 && !strncmp(arg, "option.", 7)) {
        if (cfg->option_count == ENGINE_OPTIONS_MAX) return snprintf(err, errlen, "too many engine options"), false;
        int i = cfg->option_count++;
        snprintf(cfg->option_name[i], sizeof cfg->option_name[i], "%.*s", (int)(klen - 7), arg + 7);
        snprintf(cfg->option_value[i], sizeof cfg->option_value[i], "%s", v);
    } else {
        snprintf(err, errlen, "unknown engine setting '%.*s' (name, cmd, dir, proto, ranks, timeunit, variant, option.X)",
                 (int)klen, arg);
        return false;
    }
#undef KEY
    return true;
}

void engine_send(Engine *e, const char *fmt, ...) {
    if (e->dead) return;
    char line[1 << 15];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    if (e->log) { /* one transcript line per protocol line */
        for (int a = 0, b; a < n; a = b + 1) {
            for (b = a; b < n && line[b] != '\n'; b++) continue;
            fprintf(e->log, "%s < %.*s\n", e->cfg->name, b - a, line + a);
        }
    }
    line[n++] = '\n';
    child_write(&e->proc, line, (size_t)n); /* a dead engine shows as EOF on the read side */
}

/* Once the child has been reaped, say in e->status how it ended. */
static void note_exit(Engine *e) {
    if (e->proc.reaped) child_exit_text(&e->proc, e->status, sizeof e->status);
}

int engine_read_line(Engine *e, char *line, size_t size, int64_t deadline_ms) {
    ChildRead r;
    /* A dead engine is not waited for: only lines already read come back. */
    while ((r = child_read_line(&e->proc, line, size, e->dead ? 0 : deadline_ms)) == CHILD_OVERFLOW)
        e->proc.len = 0; /* an absurd line: drop it */
    if (r == CHILD_EOF && !e->dead) {
        e->dead = true;
        /* The pipe closes as the process exits; give the kernel a moment
         * so the exit status can be reported. */
        child_wait(&e->proc, child_now_ms() + EXIT_WAIT_MS);
        note_exit(e);
        if (child_read_rest(&e->proc, line, size)) r = CHILD_LINE; /* a last line without newline */
    }
    if (r != CHILD_LINE) return e->dead ? -1 : 0;
    size_t n = strlen(line);
    if (n && line[n - 1] == '\r') line[n - 1] = '\0';
    if (e->log) fprintf(e->log, "%s > %s\n", e->cfg->name, line);
    return 1;
}

static bool starts_with(const char *s, const char *word) {
    size_t n = strlen(word);
    return !strncmp(s, word, n) && (s[n] == '\0' || s[n] == ' ');
}

/* Wait for a line equal to `want` (ignoring others); false on deadline/EOF. */
static bool wait_for(Engine *e, const char *want, int64_t deadline) {
    char line[4096];
    for (;;) {
        int r = engine_read_line(e, line, sizeof line, deadline);
        if (r <= 0) return false;
        if (starts_with(line, want)) return true;
    }
}

static void note_option(Engine *e, const char *line) {
    /* UCCI: "option usemillisec type check ..."; UCI: "option name UCI_Variant type combo ..." */
    const char *p = line + 7;
    if (!strncmp(p, "name ", 5)) p += 5;
    if (starts_with(p, "usemillisec")) e->has_usemillisec = true;
    if (starts_with(p, "UCI_Variant")) e->has_variant = true;
    if (starts_with(p, "newgame")) e->has_newgame = true;
}

static void fail_start(Engine *e, char *err, size_t errlen, const char *what, int timeout_ms) {
    if (!e->dead) {
        snprintf(err, errlen, "engine '%s' (%s): %s within %d ms", e->cfg->name, e->cfg->cmd, what, timeout_ms);
    } else {
        child_reap(&e->proc, true);
        note_exit(e);
        snprintf(err, errlen, "engine '%s' (%s): %s before %s", e->cfg->name, e->cfg->cmd,
                 e->status[0] ? e->status : "closed its output", what);
    }
    engine_stop(e);
}

bool engine_start(Engine *e, const EngineConfig *cfg, int timeout_ms, FILE *log, char *err, size_t errlen) {
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->log = log;
    if (!child_spawn_command(&e->proc, cfg->cmd, cfg->dir, LINE_MAX_BYTES, err, errlen)) return false;
    snprintf(e->id_name, sizeof e->id_name, "%s", cfg->name);

    int64_t deadline = child_now_ms() + timeout_ms;
    bool ucci = cfg->proto == PROTO_UCCI;
    engine_send(e, ucci ? "ucci" : "uci");
    const char *ok = ucci ? "ucciok" : "uciok";
    char line[4096];
    for (;;) {
        int r = engine_read_line(e, line, sizeof line, deadline);
        if (r <= 0) {
            char what[64];
            snprintf(what, sizeof what, "answering '%s' with '%s'", ucci ? "ucci" : "uci", ok);
            fail_start(e, err, errlen, what, timeout_ms);
            return false;
        }
        if (starts_with(line, ok)) break;
        if (starts_with(line, "option")) note_option(e, line);
    }
    e->millis = !ucci || cfg->unit == UNIT_MS || (cfg->unit == UNIT_AUTO && e->has_usemillisec);
    if (ucci && e->has_usemillisec && cfg->unit != UNIT_SEC) engine_send(e, "setoption usemillisec true");
    if (!ucci && e->has_variant && cfg->send_variant) engine_send(e, "setoption name UCI_Variant value xiangqi");
    for (int i = 0; i < cfg->option_count; i++) {
        if (ucci) engine_send(e, "setoption %s %s", cfg->option_name[i], cfg->option_value[i]);
        else engine_send(e, "setoption name %s value %s", cfg->option_name[i], cfg->option_value[i]);
    }
    engine_send(e, "isready");
    if (!wait_for(e, "readyok", deadline)) {
        fail_start(e, err, errlen, "answering 'isready' with 'readyok'", timeout_ms);
        return false;
    }
    return true;
}

bool engine_new_game(Engine *e, int timeout_ms) {
    if (e->cfg->proto == PROTO_UCI) engine_send(e, "ucinewgame");
    else if (e->has_newgame) engine_send(e, "setoption newgame");
    engine_send(e, "isready");
    return wait_for(e, "readyok", child_now_ms() + timeout_ms);
}

/* Read "score" from an info line in either dialect. */
static void parse_info(const char *line, GoResult *res) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%.4000s", line);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "depth")) {
            char *v = strtok_r(NULL, " ", &save);
            if (v) res->depth = atoi(v);
        } else if (!strcmp(t, "score")) {
            char *v = strtok_r(NULL, " ", &save);
            if (!v) return;
            if (!strcmp(v, "cp")) {
                v = strtok_r(NULL, " ", &save);
                if (v) res->score = atoi(v), res->has_score = true;
            } else if (!strcmp(v, "mate")) {
                v = strtok_r(NULL, " ", &save);
                if (!v) return;
                int n = atoi(v);
                res->score = n > 0 ? 30000 - (2 * n - 1) : -30000 - 2 * n;
                res->has_score = true;
            } else {
                res->score = atoi(v); /* UCCI: a plain number */
                res->has_score = true;
            }
        } else if (!strcmp(t, "pv")) {
            return;
        }
    }
}

GoResult engine_go(Engine *e, const char *position_cmd, const char *go_cmd, int64_t timeout_ms) {
    GoResult res = {0};
    engine_send(e, "%s", position_cmd);
    int64_t start = child_now_ms();
    engine_send(e, "%s", go_cmd);
    char line[1 << 15];
    for (;;) {
        int r = engine_read_line(e, line, sizeof line, start + timeout_ms);
        res.elapsed_ms = child_now_ms() - start;
        if (r == 0) {
            res.status = GO_TIMEOUT;
            return res;
        }
        if (r < 0) {
            res.status = GO_EOF;
            return res;
        }
        if (starts_with(line, "info")) {
            parse_info(line, &res);
        } else if (starts_with(line, "nobestmove")) {
            return res;
        } else if (starts_with(line, "bestmove")) {
            char copy[256];
            snprintf(copy, sizeof copy, "%.250s", line);
            char *save = NULL;
            strtok_r(copy, " ", &save);
            char *m = strtok_r(NULL, " ", &save);
            if (m && strcmp(m, "(none)") && strcmp(m, "resign")) snprintf(res.move, sizeof res.move, "%s", m);
            if (m && !strcmp(m, "resign")) res.resign = true;
            for (char *t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                if (!strcmp(t, "draw")) res.draw = true;
                if (!strcmp(t, "resign")) res.resign = true;
            }
            return res;
        }
    }
}

void engine_stop(Engine *e) {
    if (!child_reap(&e->proc, false)) {
        if (!e->dead) engine_send(e, "quit");
        child_wait(&e->proc, child_now_ms() + QUIT_WAIT_MS);
    }
    child_close(&e->proc); /* kills it if it is still there */
    note_exit(e);
    e->dead = true;
}
