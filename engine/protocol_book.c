// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_book.h"

#include "book/book_pick.h"
#include "notation.h"
#include "protocol_format.h"
#include "protocol_output.h"
#include "repetition.h"
#include "sys.h"
#include "zobrist.h"

/* Searches that must not be cut short by the book: the GUI watches them,
 * they wait for ponderhit, or they ask something else than a move. */
static bool wants_book(const ProtoSettings *s, Dialect d, const GoSpec *g) {
    return options_use_book(s, d) && s->books.count && !g->infinite && !g->ponder && !g->mate && !g->searchmove_count;
}

static bool banned_move(const Move *banned, int n, Move m) {
    for (int i = 0; i < n; i++)
        if (banned[i] == m) return true;
    return false;
}

/* Would m bring back a position of this game? A book knows no history. */
static bool repeats(Position *pos, Move m) {
    pos_make_move(pos, m);
    bool again = rep_count(pos, NULL) > 1;
    pos_unmake_move(pos);
    return again;
}

static void keep_playable(BookMoves *moves, Position *pos, const Move *banned, int ban_count) {
    int n = 0;
    for (int i = 0; i < moves->count; i++) {
        Move m = moves->moves[i].move;
        if (!banned_move(banned, ban_count, m) && !repeats(pos, m)) moves->moves[n++] = moves->moves[i];
    }
    moves->count = n;
}

/* The heaviest book reply to m, the move to ponder on. */
static Move book_reply(const BookSet *set, Position *pos, Move m) {
    static BookMoves replies;
    if (pos_history_full(pos)) return MOVE_NONE;
    pos_make_move(pos, m);
    book_set_probe(set, pos, &replies);
    pos_unmake_move(pos);
    return replies.count && replies.moves[0].weight ? replies.moves[0].move : MOVE_NONE;
}

/* A different sequence of book moves in every process. */
static uint64_t *book_rng(void) {
    static uint64_t state;
    static bool seeded;
    if (!seeded) {
        state = sys_entropy_seed();
        seeded = true;
    }
    return &state;
}

static void debug_candidates(Dialect d, int rank_base, const BookMoves *moves) {
    char line[FORMAT_LINE_MAX], text[MOVE_TEXT_MAX];
    int n = snprintf(line, sizeof line, "debug: book moves");
    for (int i = 0; i < moves->count && n < (int)sizeof line - 32; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s:%u", move_to_text(moves->moves[i].move, rank_base, text),
                      moves->moves[i].weight);
    out_message(d, "%s", line);
}

static void announce(Dialect d, int rank_base, const BookMoves *moves, int chosen, Move ponder) {
    char text[MOVE_TEXT_MAX], buf[FORMAT_LINE_MAX];
    const BookMove *m = &moves->moves[chosen];
    uint64_t total = 0;
    for (int i = 0; i < moves->count; i++)
        total += moves->moves[i].weight;
    move_to_text(m->move, rank_base, text);
    out_line("info depth 0 score %s0 pv %s", d == DIALECT_UCCI ? "" : "cp ", text);
    out_message(d, "book move %s (weight %u of %llu, %d book moves)", text, m->weight, (unsigned long long)total,
                moves->count);
    out_line("%s", fmt_bestmove(buf, sizeof buf, d, rank_base, m->move, ponder, VERDICT_NONE));
}

bool protocol_book_go(const ProtoSettings *s, Dialect d, int rank_base, Position *pos, const GoSpec *g,
                      const Move *banned, int ban_count) {
    static BookMoves moves;
    if (!wants_book(s, d, g) || pos_history_full(pos) || !book_set_probe(&s->books, pos, &moves)) return false;
    keep_playable(&moves, pos, banned, ban_count);
    if (s->debug) debug_candidates(d, rank_base, &moves);
    int chosen = book_pick(&moves, (BookRandomness)s->randomness, book_rng());
    if (chosen < 0) return false;
    announce(d, rank_base, &moves, chosen, book_reply(&s->books, pos, moves.moves[chosen].move));
    return true;
}
