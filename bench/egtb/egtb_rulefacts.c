// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * tuong-egtb rulefacts (egtb_rulefacts.h): egtb_rule.h's facts as text.
 */
#include "egtb_rulefacts.h"

#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_index.h"
#include "egtb/egtb_sig.h"
#include "egtb_rule.h"
#include "fen.h"
#include "movegen.h"
#include "zobrist.h"

/* Random draws allowed per position asked for: a table's share of legal
 * indices is far above 1 in this many, so running out means a bug. */
enum { RULEFACTS_DRAWS_PER_POSITION = 1000 };

static void print_point(Square s, FILE *out) { fprintf(out, "%c%d", 'a' + file_of(s), rank_of(s)); }

static void print_points(Bitboard b, FILE *out) {
    if (!b) fputc('-', out);
    for (bool first = true; b; first = false) {
        if (!first) fputc(',', out);
        print_point(bb_pop_lsb(&b), out);
    }
}

static void print_move(Move m, FILE *out) {
    print_point(move_from(m), out);
    print_point(move_to(m), out);
}

/* By from-point, then to-point: the order both printers agree on. */
static int move_order(const void *a, const void *b) {
    Move x = *(const Move *)a, y = *(const Move *)b;
    int d = move_from(x) - move_from(y);
    return d ? d : move_to(x) - move_to(y);
}

static void print_attacks(Position *pos, FILE *out) {
    MoveList list;
    egtb_rule_attacks(pos, &list);
    qsort(list.moves, (size_t)list.count, sizeof list.moves[0], move_order);
    fprintf(out, "attacks %c ", pos->side == RED ? 'r' : 'b');
    if (!list.count) fputc('-', out);
    for (int i = 0; i < list.count; i++) {
        if (i) fputc(',', out);
        print_move(list.moves[i], out);
    }
    fputc('\n', out);
}

void egtb_rulefacts_print(Position *pos, FILE *out) {
    char fen[FEN_MAX];
    fprintf(out, "fen %s\n", fen_write(pos, fen));
    print_attacks(pos, out);
    pos_make_null(pos);
    print_attacks(pos, out);
    pos_unmake_null(pos);
    bool in_check = pos_compute_in_check(pos);
    MoveList quiets;
    gen_quiets(pos, &quiets);
    qsort(quiets.moves, (size_t)quiets.count, sizeof quiets.moves[0], move_order);
    for (int i = 0; i < quiets.count; i++) {
        Move m = quiets.moves[i];
        fputs("move ", out);
        print_move(m, out);
        fputs(" escape ", out);
        print_points(egtb_rule_escape(pos, m), out);
        fprintf(out, " marking %s new ", in_check ? "-" : egtb_rule_marking_escape(pos, m) ? "1" : "0");
        print_points(egtb_rule_new_attacks(pos, m), out);
        fprintf(out, " check %d\n", egtb_rule_gives_check(pos, m) ? 1 : 0);
    }
}

bool egtb_rulefacts_random(const char *sig, uint64_t count, uint64_t seed, FILE *out, char *err, size_t errlen) {
    EgtbMaterial mat;
    if (!egtb_sig_parse(&mat, sig, err, errlen)) return false;
    EgtbLayout lay;
    if (!egtb_layout_init(&lay, &mat)) {
        snprintf(err, errlen, "%s: out of memory", sig);
        return false;
    }
    Position *pos = malloc(sizeof *pos);
    bool ok = pos != NULL;
    if (!ok) snprintf(err, errlen, "out of memory");
    uint64_t state = seed, found = 0, draws = 0;
    while (ok && found < count) {
        if (++draws > count * RULEFACTS_DRAWS_PER_POSITION) {
            snprintf(err, errlen, "%s: only %llu legal positions in %llu draws", sig, (unsigned long long)found,
                     (unsigned long long)(draws - 1));
            ok = false;
            break;
        }
        uint64_t r = prng_next(&state);
        Color side = (Color)(r & 1);
        /* The modulo bias is far below anything a diff could notice. */
        uint64_t index = (r >> 1) % lay.positions;
        if (!egtb_decode(&lay, index, side, pos) || !egtb_decoded_legal(pos)) continue;
        egtb_rulefacts_print(pos, out);
        found++;
    }
    free(pos);
    egtb_layout_free(&lay);
    return ok;
}

bool egtb_rulefacts_fens(FILE *in, FILE *out, char *err, size_t errlen) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    char line[512];
    bool ok = true;
    while (ok && fgets(line, sizeof line, in)) {
        char *fen = line + (strncmp(line, "fen ", 4) ? 0 : 4);
        fen[strcspn(fen, "\r\n")] = 0;
        if (!*fen) continue;
        if ((ok = fen_parse(pos, fen, err, errlen))) egtb_rulefacts_print(pos, out);
    }
    free(pos);
    return ok;
}
