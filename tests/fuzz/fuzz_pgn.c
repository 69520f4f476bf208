// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the PGN reader (bench/book/pgn_read.h) as `tuong-datagen from-pgn`,
 * the book maker and tuong-pgn use it. Any bytes may come in; every game
 * the reader returns without an error must start from a FEN the engine
 * takes and consist of legal moves, and each position on the way must
 * survive a data record's round trip (bench/nnue/datafile.h). */
#include "datafile.h"
#include "fen.h"
#include "fuzz_common.h"
#include "movegen.h"
#include "pgn_read.h"

enum { PGN_INPUT_MAX = 1 << 16, GAMES_MAX = 64 };

static void check_game(const PgnGame *g) {
    static Position pos, back;
    char err[300];
    FUZZ_CHECK(g->ply_count >= 0 && g->ply_count <= PGN_PLY_MAX);
    FUZZ_CHECK(fen_parse(&pos, g->fen[0] ? g->fen : START_FEN, err, sizeof err));
    for (int i = 0; i <= g->ply_count; i++) {
        DataRecord rec;
        DataEntry e;
        if (datafile_pack(&pos, 0, DATA_DRAW, i, &rec)) {
            FUZZ_CHECK(datafile_unpack(&rec, &e, err, sizeof err));
            if (datafile_to_position(&e, &back, err, sizeof err)) FUZZ_CHECK(pos_key(&back) == pos_key(&pos));
        }
        if (i == g->ply_count || pos_history_full(&pos)) break;
        FUZZ_CHECK(move_is_legal(&pos, g->moves[i]));
        pos_make_move(&pos, g->moves[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!size || size > PGN_INPUT_MAX) return 0;
    fuzz_engine_init();
    FILE *f = fmemopen((void *)data, size, "r"); /* read only: the fuzzer's bytes are not written */
    if (!f) return 0;
    static PgnGame g;
    PgnReader r;
    if (pgn_open(&r, f, "fuzz", PGN_PLY_MAX)) {
        for (int n = 0; n < GAMES_MAX && pgn_next(&r, &g); n++) {
            FUZZ_CHECK(memchr(g.error, '\0', sizeof g.error) != NULL);
            if (!g.error[0]) check_game(&g);
        }
        pgn_close(&r);
    }
    fclose(f);
    return 0;
}
