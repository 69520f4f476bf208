// SPDX-License-Identifier: GPL-3.0-or-later
#include "egtb_index.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Groups whose raw index space is larger than this are refused (PPPPP). */
enum { RAW_SIZE_MAX = 1 << 26 };

static bool in_palace(Color c, int f, int r) { return f >= 3 && f <= 5 && (c == RED ? r <= 2 : r >= 7); }

static bool may_stand(Piece pc, Square s) {
    Color c = color_of(pc);
    int f = file_of(s), rr = relative_rank(c, s); /* rank from the piece's own side */
    switch (type_of(pc)) {
    case KING: return in_palace(c, f, rank_of(s));
    case ADVISOR: return in_palace(c, f, rank_of(s)) && ((f == 4) == (rr == 1));
    case ELEPHANT:
        return ((rr == 0 || rr == 4) && (f == 2 || f == 6)) || (rr == 2 && (f == 0 || f == 4 || f == 8));
    case PAWN: return rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0);
    default: return true;
    }
}

int egtb_piece_squares(Piece pc, Square out[SQUARE_NB]) {
    int n = 0;
    for (Square s = 0; s < SQUARE_NB; s++)
        if (may_stand(pc, s)) out[n++] = s;
    return n;
}

/* Square -> point index of each piece (its rank among the points it may
 * stand on), -1 off them; filled by egtb_layout_init. */
static int8_t PointIndex[PIECE_NB][SQUARE_NB];

static void point_index_fill(void) {
    for (int pc = 0; pc < PIECE_NB; pc++) {
        int n = 0;
        for (Square s = 0; s < SQUARE_NB; s++)
            PointIndex[pc][s] = type_of((Piece)pc) != NO_TYPE && may_stand((Piece)pc, s) ? (int8_t)n++ : (int8_t)-1;
    }
}

static void point_index_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, point_index_fill);
}

static Square mirror_file(Square s) { return make_square(8 - file_of(s), rank_of(s)); }

/* A group's lookup tables while it is being built. */
typedef struct {
    int nsq[EGTB_GROUP_MAX];
    Square sq[EGTB_GROUP_MAX][SQUARE_NB];
    int8_t point[EGTB_GROUP_MAX][SQUARE_NB]; /* square -> point index, -1 if not allowed */
} Points;

static void raw_decode(const EgtbGroup *g, const Points *pt, uint32_t raw, Square *sq) {
    for (int i = 0; i < g->n; i++) sq[i] = pt->sq[i][(raw / g->weight[i]) % (uint32_t)pt->nsq[i]];
}

/* Raw index of a placement, or UINT32_MAX if a piece stands off its points. */
static uint32_t raw_encode(const EgtbGroup *g, const Points *pt, const Square *sq) {
    uint32_t raw = 0;
    for (int i = 0; i < g->n; i++) {
        int p = pt->point[i][sq[i]];
        if (p < 0) return UINT32_MAX;
        raw += g->weight[i] * (uint32_t)p;
    }
    return raw;
}

/* The least raw index among the placements that swap identical pieces:
 * within each run of identical pieces, the later piece (heavier weight)
 * takes the lower point, i.e. squares descending. */
static uint32_t raw_canonical(const EgtbGroup *g, const Points *pt, const Square *in) {
    Square sq[EGTB_GROUP_MAX];
    memcpy(sq, in, sizeof(Square) * (size_t)g->n);
    for (int i = 1; i < g->n; i++)
        for (int j = i; j > 0 && g->piece[j] == g->piece[j - 1] && sq[j] > sq[j - 1]; j--) {
            Square t = sq[j];
            sq[j] = sq[j - 1];
            sq[j - 1] = t;
        }
    return raw_encode(g, pt, sq);
}

static bool all_distinct(const Square *sq, int n) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (sq[i] == sq[j]) return false;
    return true;
}

static void group_free(EgtbGroup *g) {
    free(g->squares);
    free(g->mirror);
    free(g->unique);
    memset(g, 0, sizeof *g);
}

static bool group_build(EgtbGroup *g, const Piece *pieces, int n) {
    static Points pt; /* layouts are built one at a time */
    memset(g, 0, sizeof *g);
    g->n = n;
    memcpy(g->piece, pieces, (size_t)n);
    uint64_t raw_size = 1;
    for (int i = 0; i < n; i++) {
        pt.nsq[i] = egtb_piece_squares(pieces[i], pt.sq[i]);
        memset(pt.point[i], -1, sizeof pt.point[i]);
        for (int k = 0; k < pt.nsq[i]; k++) pt.point[i][pt.sq[i][k]] = (int8_t)k;
        g->weight[i] = (uint32_t)raw_size;
        raw_size *= (uint64_t)pt.nsq[i];
    }
    if (raw_size > RAW_SIZE_MAX) return false;
    g->raw_size = (uint32_t)raw_size;
    g->unique = malloc(sizeof(uint32_t) * raw_size);
    uint32_t *order = malloc(sizeof(uint32_t) * raw_size); /* canonical raws, primaries then secondaries */
    uint8_t *secondary = calloc(raw_size, 1);
    if (!g->unique || !order || !secondary) goto fail;
    memset(g->unique, 0xFF, sizeof(uint32_t) * raw_size);

    /* Pass 1: placements in raw order; secondary when the mirror came first. */
    uint32_t count = 0, primaries = 0;
    Square sq[EGTB_GROUP_MAX], msq[EGTB_GROUP_MAX];
    for (uint32_t r = 0; r < g->raw_size; r++) {
        raw_decode(g, &pt, r, sq);
        if (!all_distinct(sq, n) || raw_canonical(g, &pt, sq) != r) continue;
        for (int i = 0; i < n; i++) msq[i] = mirror_file(sq[i]);
        secondary[r] = raw_canonical(g, &pt, msq) < r;
        primaries += !secondary[r];
        count++;
    }
    g->table_size = count;
    g->compress_size = primaries;
    uint32_t next_primary = 0, next_secondary = primaries;
    for (uint32_t r = 0; r < g->raw_size; r++) {
        raw_decode(g, &pt, r, sq);
        if (!all_distinct(sq, n) || raw_canonical(g, &pt, sq) != r) continue;
        uint32_t u = secondary[r] ? next_secondary++ : next_primary++;
        order[u] = r;
        g->unique[r] = u;
    }
    /* Pass 2: every permutation of identical pieces maps to its placement. */
    for (uint32_t r = 0; r < g->raw_size; r++) {
        raw_decode(g, &pt, r, sq);
        if (all_distinct(sq, n)) g->unique[r] = g->unique[raw_canonical(g, &pt, sq)];
    }
    g->squares = malloc((size_t)count * (size_t)n);
    g->mirror = malloc(sizeof(uint32_t) * (count ? count : 1));
    if (!g->squares || !g->mirror) goto fail;
    for (uint32_t u = 0; u < count; u++) {
        raw_decode(g, &pt, order[u], sq);
        for (int i = 0; i < n; i++) {
            g->squares[(size_t)u * (size_t)n + (size_t)i] = (uint8_t)sq[i];
            msq[i] = mirror_file(sq[i]);
        }
        g->mirror[u] = g->unique[raw_encode(g, &pt, msq)];
    }
    free(order);
    free(secondary);
    return true;
fail:
    free(order);
    free(secondary);
    group_free(g);
    return false;
}

/* The pieces of class k (0 defenders, 1 chariots, 2 horses, 3 cannons,
 * 4 pawns) of colour c; returns how many. */
static int class_pieces(const EgtbMaterial *mat, Color c, int k, Piece *out) {
    static const PieceType ClassType[5] = {KING, ROOK, HORSE, CANNON, PAWN};
    int n = 0;
    if (k == 0) {
        out[n++] = make_piece(c, KING);
        for (int i = 0; i < mat->count[c][ADVISOR]; i++) out[n++] = make_piece(c, ADVISOR);
        for (int i = 0; i < mat->count[c][ELEPHANT]; i++) out[n++] = make_piece(c, ELEPHANT);
    } else {
        for (int i = 0; i < mat->count[c][ClassType[k]]; i++) out[n++] = make_piece(c, ClassType[k]);
    }
    return n;
}

void egtb_layout_free(EgtbLayout *lay) {
    for (int g = 0; g < lay->ngroups; g++) group_free(&lay->group[g]);
    lay->ngroups = 0;
}

bool egtb_layout_init(EgtbLayout *lay, const EgtbMaterial *mat) {
    memset(lay, 0, sizeof *lay);
    lay->mat = *mat;
    point_index_init();
    for (int cls = 0; cls < EGTB_CLASS_NB; cls++) {
        Piece pieces[EGTB_GROUP_MAX + 2];
        int n = class_pieces(mat, (Color)(cls / 5), cls % 5, pieces);
        if (n == 0) continue;
        if (n > EGTB_GROUP_MAX || !group_build(&lay->group[lay->ngroups], pieces, n)) {
            egtb_layout_free(lay);
            return false;
        }
        lay->cls[lay->ngroups++] = cls;
    }
    /* The compress group: least compress_size / table_size, first on ties. */
    lay->compress = 0;
    for (int g = 1; g < lay->ngroups; g++) {
        const EgtbGroup *a = &lay->group[g], *b = &lay->group[lay->compress];
        if ((double)a->compress_size / a->table_size < (double)b->compress_size / b->table_size) lay->compress = g;
    }
    uint64_t w = 1;
    for (int g = 0; g < lay->ngroups; g++) {
        lay->size[g] = g == lay->compress ? lay->group[g].compress_size : lay->group[g].table_size;
        lay->weight[g] = w;
        w *= lay->size[g];
    }
    lay->positions = w;
    return true;
}

uint64_t egtb_index_of(const EgtbLayout *lay, const Position *pos, Color *side) {
    bool mirrored;
    return egtb_index_of_mirrored(lay, pos, side, &mirrored);
}

uint64_t egtb_index_of_mirrored(const EgtbLayout *lay, const Position *pos, Color *side, bool *mirrored) {
    /* The engine probes this in its search: counts and squares from the
     * bitboards, not from a walk over the 90 points. */
    EgtbMaterial m;
    for (int c = 0; c < COLOR_NB; c++)
        for (int t = 0; t < TYPE_NB; t++)
            m.count[c][t] = t == NO_TYPE ? 0 : (uint8_t)bb_popcount(pos_pieces(pos, (Color)c, (PieceType)t));
    bool flip = egtb_sig_normalise(&m);
    if (egtb_sig_symmetric(&m) && pos->side == BLACK) flip = true;

    /* Each group's squares, filled in its piece order (K, A.., B..). */
    Square sq[EGTB_CLASS_NB][EGTB_GROUP_MAX];
    int fill[EGTB_CLASS_NB][TYPE_NB];
    int group_of_class[EGTB_CLASS_NB];
    memset(fill, 0, sizeof fill);
    for (int g = 0; g < EGTB_CLASS_NB; g++) group_of_class[g] = -1;
    for (int g = 0; g < lay->ngroups; g++) group_of_class[lay->cls[g]] = g;
    for (Bitboard occ = pos->occ; occ;) {
        Square s = bb_pop_lsb(&occ);
        Piece pc = pos->board[s];
        Color c = flip ? (Color)!color_of(pc) : color_of(pc);
        Square ts = flip ? relative_square(BLACK, s) : s;
        PieceType t = type_of(pc);
        int k = t == ROOK ? 1 : t == HORSE ? 2 : t == CANNON ? 3 : t == PAWN ? 4 : 0;
        int g = group_of_class[c * 5 + k];
        int base = t == ADVISOR ? 1 : t == ELEPHANT ? 1 + lay->mat.count[c][ADVISOR] : 0;
        sq[g][base + fill[g][t]++] = ts;
    }
    uint32_t u[EGTB_CLASS_NB] = {0}; /* all set below; the zeros quiet a false -Wmaybe-uninitialized */
    for (int g = 0; g < lay->ngroups; g++) {
        const EgtbGroup *gr = &lay->group[g];
        uint32_t raw = 0;
        for (int i = 0; i < gr->n; i++) raw += gr->weight[i] * (uint32_t)PointIndex[gr->piece[i]][sq[g][i]];
        u[g] = gr->unique[raw];
    }
    *mirrored = u[lay->compress] >= lay->group[lay->compress].compress_size;
    uint64_t index = 0;
    for (int g = 0; g < lay->ngroups; g++) index += lay->weight[g] * (*mirrored ? lay->group[g].mirror[u[g]] : u[g]);
    *side = flip ? (Color)!pos->side : pos->side;
    return index;
}

bool egtb_decode(const EgtbLayout *lay, uint64_t index, Color side, Position *pos) {
    pos_clear(pos);
    for (int g = 0; g < lay->ngroups; g++) {
        const EgtbGroup *gr = &lay->group[g];
        uint64_t u = (index / lay->weight[g]) % lay->size[g];
        const uint8_t *sq = &gr->squares[u * (uint64_t)gr->n];
        for (int i = 0; i < gr->n; i++) {
            if (pos->board[sq[i]] != NO_PIECE) return false;
            pos_put_piece(pos, gr->piece[i], sq[i]);
        }
    }
    pos->side = side;
    pos_finish_setup(pos);
    return true;
}

/* Two uncrossed pawns of one side on one file: no game reaches it (pawns
 * change files only after crossing). xiangqitb marks it illegal too. */
bool egtb_pawns_stacked(const Position *pos) {
    for (int c = 0; c < COLOR_NB; c++) {
        Bitboard pawns = pos_pieces(pos, (Color)c, PAWN);
        while (pawns) {
            Square s = bb_pop_lsb(&pawns);
            if (relative_rank((Color)c, s) == 3 && bb_test(pos_pieces(pos, (Color)c, PAWN), s + (c == RED ? 9 : -9)))
                return true;
        }
    }
    return false;
}

bool egtb_decoded_legal(const Position *pos) {
    Color them = (Color)!pos->side;
    return !pos_attacked(pos, pos->king_sq[them], pos->side, pos->occ, pos->occ_t, 0) &&
           !egtb_pawns_stacked(pos);
}
