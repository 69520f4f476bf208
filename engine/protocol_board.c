// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol_board.h"

#include <inttypes.h>

#include "fen.h"

static const char Letters[] = " KABNRCP";

void board_print(const Position *pos, int rank_base, FILE *out) {
    fputs("\n   +---+---+---+---+---+---+---+---+---+\n", out);
    for (int r = RANK_NB - 1; r >= 0; r--) {
        fprintf(out, "%2d |", r + rank_base);
        for (int f = 0; f < FILE_NB; f++) {
            Piece p = pos_piece_on(pos, make_square(f, r));
            char c = p ? Letters[type_of(p)] : ' ';
            if (p && color_of(p) == BLACK) c = (char)(c - 'A' + 'a');
            fprintf(out, " %c |", c);
        }
        fputs(r == 5 ? "\n   +~~~+~~~+~~ river ~~+~~~+~~~+~~~+~~~+\n" : "\n   +---+---+---+---+---+---+---+---+---+\n",
              out);
    }
    fputs("     a   b   c   d   e   f   g   h   i\n\n", out);
    char fen[FEN_MAX];
    fprintf(out, "Fen: %s\n", fen_write(pos, fen));
    fprintf(out, "Key: %016" PRIX64 "\n", (uint64_t)pos_key(pos));
    fputs("Checkers:", out);
    Bitboard b = pos_attackers_to(pos, pos->king_sq[pos->side], (Color)!pos->side);
    while (b) {
        Square s = bb_pop_lsb(&b);
        fprintf(out, " %c%d", 'a' + file_of(s), rank_of(s) + rank_base);
    }
    fputs("\n", out);
}
