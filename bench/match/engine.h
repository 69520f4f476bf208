// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * One engine as a child process on two pipes, spoken to in UCCI or in the
 * UCI xiangqi dialect. The runner keeps the clocks; this module only sends
 * commands, reads lines with deadlines and collects the search's answer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "child_proc.h"

typedef enum { PROTO_UCCI = 0, PROTO_UCI = 1 } Proto;

/* How `go` times are sent: AUTO = UCCI milliseconds when the engine
 * advertises usemillisec (and it is then set), seconds otherwise; UCI is
 * always milliseconds. MS/SEC force the unit (ElephantEye and Fairy-
 * Stockfish read UCCI times as milliseconds whatever is set). */
typedef enum { UNIT_AUTO = 0, UNIT_MS, UNIT_SEC } TimeUnit;

/* Room for every search parameter of a tuning build as an option (about 65,
 * engine/search_params.h) besides the usual few. */
enum { ENGINE_OPTIONS_MAX = 128, ENGINE_NAME_MAX = 64, ENGINE_TEXT_MAX = 1024 };

typedef struct {
    char name[ENGINE_NAME_MAX];
    char cmd[ENGINE_TEXT_MAX];     /* a command line: sh -c "exec CMD" (POSIX), CreateProcess (Windows) */
    char dir[ENGINE_TEXT_MAX];     /* working directory, empty = inherit */
    Proto proto;
    int rank_base;                 /* 0: ranks 0-9 (ICCS), 1: ranks 1-10 (Fairy-Stockfish UCI) */
    TimeUnit unit;
    bool send_variant;             /* UCI: setoption UCI_Variant xiangqi when advertised */
    int option_count;
    char option_name[ENGINE_OPTIONS_MAX][ENGINE_NAME_MAX];
    char option_value[ENGINE_OPTIONS_MAX][ENGINE_TEXT_MAX];
} EngineConfig;

typedef struct {
    const EngineConfig *cfg;
    ChildProc proc;           /* the process and its pipes */
    bool millis;              /* UCCI times go out in milliseconds */
    bool has_usemillisec, has_variant, has_newgame;
    char id_name[ENGINE_NAME_MAX];
    bool dead;                /* closed its output, or given up: no more waiting for lines */
    char status[128];         /* how the process ended, once it has */
    FILE *log;                /* optional transcript (may be NULL) */
} Engine;

typedef enum { GO_OK = 0, GO_TIMEOUT, GO_EOF } GoStatus;

typedef struct {
    GoStatus status;
    char move[16];            /* the bestmove text; empty for nobestmove / (none) */
    bool draw, resign;        /* bestmove ... draw / resign */
    bool has_score;
    int score;                /* side to move's view, centipawns; mates near +/-30000 */
    int depth;
    int64_t elapsed_ms;
} GoResult;

/* Start the engine and complete the handshake (ucci/uci ... ucciok/uciok,
 * options, isready/readyok) within timeout_ms. On failure the process is
 * reaped and err explains what went wrong. */
bool engine_start(Engine *e, const EngineConfig *cfg, int timeout_ms, FILE *log, char *err, size_t errlen);
/* Tell the engine a new game starts and wait for readyok. */
bool engine_new_game(Engine *e, int timeout_ms);
/* Send one line (a newline is added). */
void engine_send(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Read one line: 1 = got it, 0 = deadline passed, -1 = end of file. */
int engine_read_line(Engine *e, char *line, size_t size, int64_t deadline_ms);
/* Send `position` and `go`, wait until bestmove/nobestmove or the deadline
 * (relative, in ms). */
GoResult engine_go(Engine *e, const char *position_cmd, const char *go_cmd, int64_t timeout_ms);
/* quit, wait a little, then kill; always reaps the child. */
void engine_stop(Engine *e);
/* Parse an engine spec "name=X cmd=Y proto=ucci|uci ranks=0|1 timeunit=auto|ms|s
 * dir=D option.N=V" (arguments already split); false with a message. */
bool engine_config_set(EngineConfig *cfg, const char *arg, char *err, size_t errlen);
