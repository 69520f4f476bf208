// SPDX-License-Identifier: GPL-3.0-or-later
/* Fuzz the pure protocol parser: any line, either rank base. Whatever it
 * returns must be within the Command's bounds: counts in range, moves on the
 * board, strings terminated, and an explanation for warnings and errors. */
#include <stdbool.h>

#include "fuzz_common.h"
#include "protocol_parse.h"

enum { LINE_INPUT_MAX = 1 << 16 };

static bool move_on_board(Move m) {
    return move_from(m) < SQUARE_NB && move_to(m) < SQUARE_NB && move_from(m) != move_to(m);
}

static bool terminated(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

static void check_command(const Command *c) {
    switch (c->type) {
    case CMD_POSITION:
    case CMD_PROBE:
        FUZZ_CHECK(terminated(c->u.position.fen, sizeof c->u.position.fen));
        FUZZ_CHECK(c->u.position.move_count >= 0 && c->u.position.move_count <= PROTO_MAX_MOVES);
        for (int i = 0; i < c->u.position.move_count; i++)
            FUZZ_CHECK(move_on_board(c->u.position.moves[i]));
        break;
    case CMD_GO:
        FUZZ_CHECK(c->u.go.searchmove_count >= 0 && c->u.go.searchmove_count <= MAX_MOVES);
        for (int i = 0; i < c->u.go.searchmove_count; i++)
            FUZZ_CHECK(move_on_board(c->u.go.searchmoves[i]));
        FUZZ_CHECK(c->u.go.depth >= -1);
        break;
    case CMD_BANMOVES:
        FUZZ_CHECK(c->u.banmoves.count >= 0 && c->u.banmoves.count <= MAX_MOVES);
        for (int i = 0; i < c->u.banmoves.count; i++)
            FUZZ_CHECK(move_on_board(c->u.banmoves.moves[i]));
        break;
    case CMD_SETOPTION:
        FUZZ_CHECK(terminated(c->u.option.name, sizeof c->u.option.name));
        FUZZ_CHECK(terminated(c->u.option.value, sizeof c->u.option.value));
        break;
    case CMD_PERFT:
    case CMD_BENCH: FUZZ_CHECK(c->u.depth >= 0); break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char line[LINE_INPUT_MAX];
    static Command cmd;
    char err[256];
    if (size < 1) return 0;
    int rank_base = data[0] & 1;
    fuzz_text(data + 1, size - 1, line, sizeof line);
    memset(err, 0, sizeof err);
    ParseResult r = proto_parse(line, rank_base, &cmd, err, sizeof err);
    FUZZ_CHECK(r == PARSE_OK || r == PARSE_WARNING || r == PARSE_ERROR);
    FUZZ_CHECK(terminated(err, sizeof err));
    if (r != PARSE_OK) FUZZ_CHECK(err[0] != '\0');
    if (r != PARSE_ERROR) check_command(&cmd);
    (void)proto_parse(line, rank_base, &cmd, err, 1);
    return 0;
}
