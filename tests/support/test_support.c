#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>

#include "fen.h"

void must_parse(Position *pos, const char *fen) {
    char err[200] = "";
    if (!fen_parse(pos, fen, err, sizeof err)) fail_msg("FEN rejected: %s (%s)", fen, err);
}

FILE *open_data(const char *relative) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TUONG_DATA_DIR, relative);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    return f;
}

int running_slow(void) {
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
    return 1;
#else
    return getenv("TUONG_SLOW_TESTS") != NULL;
#endif
}

void colour_mirror(const Position *src, Position *dst) {
    pos_clear(dst);
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos_piece_on(src, s);
        if (p) pos_put_piece(dst, make_piece((Color)!color_of(p), type_of(p)), make_square(file_of(s), 9 - rank_of(s)));
    }
    dst->side = (Color)!src->side;
    pos_finish_setup(dst);
}
