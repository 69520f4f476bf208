// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The pure protocol parser: one input line in, one Command out. It knows
 * nothing of the engine's state: the caller passes the rank base of the
 * move notation (0 for ICCS "h2e2", 1 for the Fairy-Stockfish "h3e3") and
 * applies the command itself. Keywords are case-insensitive; any run of
 * spaces, tabs or CR separates tokens. Both dialects (UCCI and UCI) share
 * one grammar: each accepts the other's spelling of setoption and go.
 *
 * Times are kept as the GUI wrote them: UCCI `time`/`increment`/`opptime`/
 * `oppincrement` in the GUI's unit (seconds unless usemillisec), UCI
 * `wtime`/`btime`/`winc`/`binc`/`movetime` in milliseconds.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "move.h"
#include "types.h"

typedef enum { DIALECT_NONE = 0, DIALECT_UCCI, DIALECT_UCI } Dialect;

typedef enum {
    CMD_EMPTY = 0, /* blank line */
    CMD_UNKNOWN,   /* not a command we know */
    CMD_UCCI,
    CMD_UCI,
    CMD_ISREADY,
    CMD_SETOPTION,
    CMD_POSITION,
    CMD_BANMOVES,
    CMD_GO,
    CMD_PERFT, /* go perft N, or perft N */
    CMD_PONDERHIT,
    CMD_STOP,
    CMD_PROBE,
    CMD_QUIT,
    CMD_NEWGAME, /* ucinewgame */
    CMD_DISPLAY, /* d */
    CMD_EVAL,
    CMD_BENCH,
    CMD_HELP,
} CommandType;

/* Room for the moves of one `position` command: the history of a Position
 * less the deepest search line. */
enum { PROTO_MAX_MOVES = MAX_HISTORY - MAX_PLY - 8, PROTO_FEN_MAX = 256, PROTO_NAME_MAX = 64, PROTO_VALUE_MAX = 1024 };

typedef struct {
    bool startpos;
    char fen[PROTO_FEN_MAX];
    int move_count;
    Move moves[PROTO_MAX_MOVES];
} PositionSpec;

typedef struct {
    bool ponder, draw, infinite;
    int depth;                   /* -1 = not given */
    uint64_t nodes;              /* 0 = not given */
    int mate;                    /* 0 = not given */
    int movestogo, oppmovestogo; /* 0 = not given */
    /* UCCI, in the GUI's unit; < 0 = not given (a negative value given is stored as 0) */
    double time, increment, opptime, oppincrement;
    /* UCI, milliseconds; < 0 = not given (likewise) */
    int64_t wtime, btime, winc, binc, movetime;
    int searchmove_count;
    Move searchmoves[MAX_MOVES];
} GoSpec;

typedef struct {
    CommandType type;
    union {
        PositionSpec position; /* CMD_POSITION, CMD_PROBE */
        GoSpec go;             /* CMD_GO */
        struct {
            char name[PROTO_NAME_MAX]; /* words joined by one space */
            char value[PROTO_VALUE_MAX];
            bool has_value;
        } option; /* CMD_SETOPTION */
        struct {
            int count;
            Move moves[MAX_MOVES];
        } banmoves;          /* CMD_BANMOVES */
        bool draw;           /* CMD_PONDERHIT: ponderhit draw */
        bool eval_classical; /* CMD_EVAL: eval classical (the hand-crafted terms) */
        int depth;           /* CMD_PERFT, CMD_BENCH (0 = default) */
    } u;
} Command;

typedef enum {
    PARSE_OK = 0,
    PARSE_WARNING, /* usable, but err explains what was ignored */
    PARSE_ERROR,   /* reject the line; err says why */
} ParseResult;

/* Parse one line (without its newline; it may hold a CR). rank_base is 0 or
 * 1. On PARSE_WARNING or PARSE_ERROR, err holds a one-line reason. */
ParseResult proto_parse(const char *line, int rank_base, Command *cmd, char *err, size_t errlen);
