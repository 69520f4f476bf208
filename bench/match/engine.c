#define _GNU_SOURCE /* pipe2 */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
    for (int off = 0; off < n;) {
        ssize_t w = write(e->in_fd, line + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* a dead engine shows as EOF on the read side */
        off += (int)w;
    }
}

/* Record how the child ended (non-blocking unless wait is set). */
static void reap(Engine *e, bool wait) {
    if (e->pid <= 0) return;
    int st;
    pid_t r = waitpid(e->pid, &st, wait ? 0 : WNOHANG);
    if (r != e->pid) return;
    e->pid = 0;
    if (WIFEXITED(st)) snprintf(e->status, sizeof e->status, "exited with status %d%s", WEXITSTATUS(st),
                                WEXITSTATUS(st) == 127 ? " (command not found?)" : "");
    else if (WIFSIGNALED(st)) snprintf(e->status, sizeof e->status, "killed by signal %d (%s)", WTERMSIG(st),
                                       strsignal(WTERMSIG(st)));
}

int engine_read_line(Engine *e, char *line, size_t size, int64_t deadline_ms) {
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t copy = n < size - 1 ? n : size - 1;
            memcpy(line, e->buf, copy);
            line[copy] = '\0';
            if (copy && line[copy - 1] == '\r') line[copy - 1] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            if (e->log) fprintf(e->log, "%s > %s\n", e->cfg->name, line);
            return 1;
        }
        if (e->len == sizeof e->buf) e->len = 0; /* an absurd line: drop it */
        if (e->dead) return -1;
        int64_t left = deadline_ms - now_ms();
        if (left <= 0) return 0;
        struct pollfd p = {e->out_fd, POLLIN, 0};
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        ssize_t got = read(e->out_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            e->dead = true;
            if (e->len) { /* a last line without newline */
                e->buf[e->len++] = '\n';
                continue;
            }
            /* The pipe closes as the process exits; give the kernel a moment
             * so the exit status can be reported. */
            for (int i = 0; i < 100 && e->pid > 0; i++) {
                reap(e, false);
                if (e->pid > 0) usleep(2000);
            }
            return -1;
        }
        e->len += (size_t)got;
    }
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
        reap(e, true);
        snprintf(err, errlen, "engine '%s' (%s): the process %s before %s", e->cfg->name, e->cfg->cmd,
                 e->status[0] ? e->status : "closed its output", what);
    }
    engine_stop(e);
}

bool engine_start(Engine *e, const EngineConfig *cfg, int timeout_ms, FILE *log, char *err, size_t errlen) {
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->log = log;
    e->in_fd = e->out_fd = -1;
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) || pipe2(from_child, O_CLOEXEC)) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        if (cfg->dir[0] && chdir(cfg->dir)) {
            fprintf(stderr, "tuong-match: cannot enter %s: %s\n", cfg->dir, strerror(errno));
            _exit(126);
        }
        char cmd[ENGINE_TEXT_MAX + 8];
        snprintf(cmd, sizeof cmd, "exec %s", cfg->cmd);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    e->pid = pid;
    e->in_fd = to_child[1];
    e->out_fd = from_child[0];
    snprintf(e->id_name, sizeof e->id_name, "%s", cfg->name);

    int64_t deadline = now_ms() + timeout_ms;
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
    return wait_for(e, "readyok", now_ms() + timeout_ms);
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
    int64_t start = now_ms();
    engine_send(e, "%s", go_cmd);
    char line[1 << 15];
    for (;;) {
        int r = engine_read_line(e, line, sizeof line, start + timeout_ms);
        res.elapsed_ms = now_ms() - start;
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
    if (e->pid > 0) {
        if (!e->dead) engine_send(e, "quit");
        int64_t deadline = now_ms() + 1000;
        while (e->pid > 0 && now_ms() < deadline) {
            reap(e, false);
            if (e->pid > 0) usleep(5000);
        }
        if (e->pid > 0) {
            kill(e->pid, SIGKILL);
            reap(e, true);
        }
    }
    if (e->in_fd >= 0) close(e->in_fd);
    if (e->out_fd >= 0) close(e->out_fd);
    e->in_fd = e->out_fd = -1;
    e->dead = true;
}
