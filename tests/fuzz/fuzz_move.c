// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz move text and move legality. The bytes drive a walk through the
 * game tree from one of a few start positions; on the way they offer raw
 * 16-bit moves (as a hash table would) and move text (as a GUI would).
 * Differential checks: move_is_legal() and move_is_pseudo_legal() agree with
 * the generated lists, parsed text names a generated move, and text
 * round-trips. */
#include <stdbool.h>

#include "fen.h"
#include "fuzz_common.h"
#include "movegen.h"
#include "notation.h"

static const char *const Starts[] = {
    START_FEN,
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w",
    "3k5/4P4/9/9/9/9/9/9/9/4K4 b",         /* Black in check from a pawn */
    "4k4/9/9/9/4c4/9/4R4/9/9/3K5 w",       /* cannon and chariot on the e-file */
    "2bak4/4a4/4b4/9/9/9/9/4C4/4p4/3K5 w", /* cannon screens */
    "3ak4/4a4/9/9/2n6/9/9/9/4A4/4KA3 w",   /* horse near the palace */
};

static bool in_list(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m) return true;
    return false;
}

static void check_raw_move(const Position *pos, const MoveList *legal, Move m) {
    MoveList pseudo = {.count = 0};
    gen_pseudo_captures(pos, &pseudo);
    gen_pseudo_quiets(pos, &pseudo);
    bool legal_ok = move_is_legal(pos, m) == in_list(legal, m);
    bool pseudo_ok = move_is_pseudo_legal(pos, m) == in_list(&pseudo, m);
    if (!legal_ok || !pseudo_ok) {
        char fen[FEN_MAX], text[MOVE_TEXT_MAX];
        fprintf(stderr, "move %s (0x%04x) in %s: move_is_legal %d, generated %d; pseudo %d, generated %d\n",
                move_to_text(m, 0, text), m, fen_write(pos, fen), move_is_legal(pos, m), in_list(legal, m),
                move_is_pseudo_legal(pos, m), in_list(&pseudo, m));
        abort();
    }
}

static void check_text(const Position *pos, const MoveList *legal, const char *text, int rank_base) {
    char err[120], back[MOVE_TEXT_MAX];
    Move syntax = move_from_text(text, rank_base);
    (void)move_parse_legal(pos, text, rank_base, err, 1); /* a short buffer is never overrun */
    Move m = move_parse_legal(pos, text, rank_base, err, sizeof err);
    if (syntax != MOVE_NONE) FUZZ_CHECK(move_from_text(move_to_text(syntax, rank_base, back), rank_base) == syntax);
    if (m == MOVE_NONE) {
        FUZZ_CHECK(err[0] != '\0');
        return;
    }
    FUZZ_CHECK(m == syntax);
    FUZZ_CHECK(in_list(legal, m));
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
        switch (op & 3) {
        case 0: /* a raw move, any 16 bits */
            if (i + 2 > size) return 0;
            check_raw_move(&pos, &legal, (Move)(data[i] | data[i + 1] << 8));
            i += 2;
            break;
        case 1: /* play the n-th legal move */
            if (i >= size) return 0;
            if (legal.count && !pos_history_full(&pos)) pos_make_move(&pos, legal.moves[data[i] % legal.count]);
            i++;
            break;
        case 2: { /* move text, up to 7 bytes */
            char text[8];
            size_t n = (op >> 3) % 8;
            if (i + n > size) n = size - i;
            memcpy(text, data + i, n);
            text[n] = '\0';
            check_text(&pos, &legal, text, (op >> 2) & 1);
            i += n;
            break;
        }
        default: /* take a move back */
            if (pos.game_ply > 0) pos_unmake_move(&pos);
            break;
        }
        FUZZ_CHECK(pos_is_ok(&pos));
    }
    return 0;
}
