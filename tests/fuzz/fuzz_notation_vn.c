// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the Vietnamese move notation (engine/notation_vn.h). The bytes pick
 * a start position, walk the game tree, and offer move text. Checks: text
 * that parses names a legal move and is shaped like a move; the move's own
 * text parses back to it; errors always say something and never overrun a
 * short buffer; and every legal move of the walk round-trips. */
#include <stdbool.h>

#include "fen.h"
#include "fuzz_common.h"
#include "movegen.h"
#include "notation_vn.h"

static const char *const Starts[] = {
    START_FEN,
    "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w",   /* pawns on two files */
    "2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w",   /* five pawns on one file */
    "r3k4/9/9/9/r8/9/9/9/9/3K5 b",           /* two chariots on a file */
    "2bak4/4a4/9/9/2b6/9/9/2NA5/2N6/3AK4 w", /* doubled horses, advisors, elephants */
    "3k5/9/7P1/9/9/9/9/7C1/9/4K4 w",         /* a cannon and a pawn on one file */
};

static bool in_list(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m) return true;
    return false;
}

static void check_text(const Position *pos, const MoveList *legal, const char *text) {
    char err[160] = "x", back[VN_TEXT_MAX];
    if (vn_move_parse(pos, text, err, 1) == MOVE_NONE) FUZZ_CHECK(err[0] == '\0'); /* a short buffer, not overrun */
    Move m = vn_move_parse(pos, text, err, sizeof err);
    if (m == MOVE_NONE) {
        FUZZ_CHECK(err[0] != '\0');
        return;
    }
    FUZZ_CHECK(in_list(legal, m));
    FUZZ_CHECK(vn_text_shaped(text));
    FUZZ_CHECK(vn_move_parse(pos, vn_move_text(pos, m, back), err, sizeof err) == m);
}

static void check_all_moves(const Position *pos, const MoveList *legal) {
    for (int i = 0; i < legal->count; i++) {
        char text[VN_TEXT_MAX], err[160];
        vn_move_text(pos, legal->moves[i], text);
        FUZZ_CHECK(vn_move_parse(pos, text, err, sizeof err) == legal->moves[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static Position pos;
    char err[200];
    fuzz_engine_init();
    if (size < 1) return 0;
    FUZZ_CHECK(fen_parse(&pos, Starts[data[0] % (sizeof Starts / sizeof Starts[0])], err, sizeof err));
    size_t i = 1;
    while (i < size) {
        uint8_t op = data[i++];
        MoveList legal;
        gen_legal(&pos, &legal);
        if (op & 1) { /* move text, up to 31 bytes */
            char text[32];
            size_t n = (op >> 1) % 32;
            if (i + n > size) n = size - i;
            fuzz_text(data + i, n, text, sizeof text);
            check_text(&pos, &legal, text);
            i += n;
        } else if (i < size) { /* play the n-th legal move */
            check_all_moves(&pos, &legal);
            if (legal.count && !pos_history_full(&pos)) pos_make_move(&pos, legal.moves[data[i] % legal.count]);
            i++;
        }
    }
    return 0;
}
