// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the FEN parser. Any text may come in; when fen_parse() accepts it,
 * the position must be consistent, its FEN must round-trip to the same
 * position, and every legal move must make and unmake cleanly. */
#include <stdbool.h>

#include "fen.h"
#include "fuzz_common.h"
#include "movegen.h"

enum { FEN_INPUT_MAX = 512 };

/* Same pieces, side and key. */
static bool same_position(const Position *a, const Position *b) {
    return !memcmp(a->board, b->board, sizeof a->board) && a->side == b->side && pos_key(a) == pos_key(b);
}

/* Every legal move keeps the position consistent and is undone exactly. */
static void check_moves(Position *pos) {
    MoveList list;
    gen_legal(pos, &list);
    FUZZ_CHECK(list.count == gen_count_legal(pos));
    Key key = pos_key(pos);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        FUZZ_CHECK(move_is_legal(pos, m));
        pos_make_move(pos, m);
        FUZZ_CHECK(pos_is_ok(pos));
        FUZZ_CHECK(pos_compute_in_check(pos) == pos_in_check(pos));
        FUZZ_CHECK(!pos_kings_face(pos));
        pos_unmake_move(pos);
        FUZZ_CHECK(pos_key(pos) == key);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Position pos, again;
    char text[FEN_INPUT_MAX], err[200], out[FEN_MAX];
    fuzz_engine_init();
    fuzz_text(data, size, text, sizeof text);
    for (size_t errlen = 1; errlen <= 16; errlen *= 4) /* short error buffers are never overrun */
        (void)fen_parse(&pos, text, err, errlen);
    if (!fen_parse(&pos, text, err, sizeof err)) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
        return 0;
    }
    FUZZ_CHECK(pos_is_ok(&pos));
    FUZZ_CHECK(pos_compute_in_check(&pos) == pos_in_check(&pos));
    FUZZ_CHECK(pos_compute_key(&pos) == pos_key(&pos));
    fen_write(&pos, out);
    FUZZ_CHECK(strlen(out) < FEN_MAX);
    FUZZ_CHECK(fen_parse(&again, out, err, sizeof err));
    FUZZ_CHECK(same_position(&pos, &again));
    check_moves(&pos);
    return 0;
}
