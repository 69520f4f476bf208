// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * The board: per-piece bitboards, colour and total occupancy (rank-major and
 * transposed), a mailbox, and the game history since the root FEN.
 *
 * history[game_ply] describes the current position: its key, the move that
 * led to it, what that move captured, whether the side to move is in check,
 * and the plies since the last capture. Repetition rules read this record
 * backwards; make/unmake push and pop it.
 */
#include <stdbool.h>

#include "bitboard.h"
#include "move.h"
#include "types.h"

typedef struct {
    Key key;
    Move move;      /* the move that reached this position (MOVE_NONE at the root) */
    Piece captured; /* what that move captured */
    bool in_check;  /* the side to move here is in check */
    uint16_t rule60;  /* plies since the last capture (or since the root FEN) */
} StateInfo;

struct NnueStack;

typedef struct {
    Bitboard piece_bb[PIECE_NB];
    Bitboard color_bb[COLOR_NB];
    Bitboard occ;   /* rank-major: bit = square */
    Bitboard occ_t; /* transposed: bit = file * 10 + rank */
    Piece board[SQUARE_NB];
    Square king_sq[COLOR_NB];
    Color side;
    int game_ply;           /* index of the current record in history */
    int root_fullmove;      /* fullmove number of the root FEN, for printing */
    struct NnueStack *nnue; /* a search thread's accumulators (NULL: evaluate from scratch) */
    StateInfo history[MAX_HISTORY];
} Position;

/* Build every precomputed table; call once before anything else. */
void engine_init(void);

static inline Bitboard pos_pieces(const Position *pos, Color c, PieceType t) { return pos->piece_bb[make_piece(c, t)]; }
static inline Piece pos_piece_on(const Position *pos, Square s) { return pos->board[s]; }
static inline Key pos_key(const Position *pos) { return pos->history[pos->game_ply].key; }
static inline bool pos_in_check(const Position *pos) { return pos->history[pos->game_ply].in_check; }
static inline const StateInfo *pos_state(const Position *pos) { return &pos->history[pos->game_ply]; }

/* An empty board with Red to move (callers then place pieces and finish). */
void pos_clear(Position *pos);
/* Put a piece on an empty point, or remove the one on a point (setup only). */
void pos_put_piece(Position *pos, Piece p, Square s);
void pos_remove_piece(Position *pos, Square s);
/* Recompute key and check state after setup; the position becomes a root. */
void pos_finish_setup(Position *pos);

/* Make a legal move / take it back. Null moves only pass the turn. */
void pos_make_move(Position *pos, Move m);
void pos_unmake_move(Position *pos);
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);
/* Is there room in history for one more move? */
static inline bool pos_history_full(const Position *pos) { return pos->game_ply >= MAX_HISTORY - 1; }

/* Is square s attacked by a piece of colour `by`, with occupancy occ/occ_t,
 * ignoring enemy pieces on `ignore` (a just-captured point)? The king counts
 * as an attacker along its file (flying general). */
bool pos_attacked(const Position *pos, Square s, Color by, Bitboard occ, Bitboard occ_t, Bitboard ignore);
/* Pieces of colour `by` that attack square s in the current position. */
Bitboard pos_attackers_to(const Position *pos, Square s, Color by);
/* Pieces of colour c whose removal alone would leave c's king attacked:
 * chariot/king line pins, horse legs and cannon screens. */
Bitboard pos_pinned(const Position *pos, Color c);
/* Would the side to move's king be safe after pseudo-legal move m? */
bool pos_move_is_safe(const Position *pos, Move m);

/* Per-position filter for checking many moves at once: a non-king move
 * whose from-point is not in `from` and whose to-point is not in `to` can
 * never expose the king (when not in check). Everything else goes through
 * pos_move_is_safe_slow(). */
typedef struct {
    Bitboard from, to;
} SafetyFilter;

/* The filter for the side to move (all points when in check). */
SafetyFilter pos_safety_filter(const Position *pos);
/* The full test, without the shortcut. */
bool pos_move_is_safe_slow(const Position *pos, Move m);
/* Is the side to move in check (computed, not read from history)? */
bool pos_compute_in_check(const Position *pos);
/* Are the two kings on one file with nothing between them? */
bool pos_kings_face(const Position *pos);

/* From-scratch key; the incremental one must always equal it. */
Key pos_compute_key(const Position *pos);
/* Full consistency check of bitboards, mailbox, kings and key. */
bool pos_is_ok(const Position *pos);
