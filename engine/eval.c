// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Hand-crafted evaluation: every term is a named midgame/endgame weight
 * (eval_terms.h), summed per side, tapered by the game phase and scaled
 * toward a draw when the stronger side lacks mating material (endgame.c),
 * with a bonus for material that wins by endgame theory (endgame.c too).
 * docs/eval.md describes each term.
 */
#include "eval.h"

#include <string.h>

#include "attacks.h"
#include "endgame.h"
#include "eval_terms.h"
#include "nnue/nnue.h"

const EvalTermInfo EvalTerms[] = {
#define EVAL_ARRAY_INFO(name, n, what) {#name, what, (int)(offsetof(EvalWeights, name) / sizeof(Weight)), n, true},
    EVAL_ARRAY_TERMS(EVAL_ARRAY_INFO)
#undef EVAL_ARRAY_INFO
#define EVAL_SCALAR_INFO(name, what) {#name, what, (int)(offsetof(EvalWeights, name) / sizeof(Weight)), 1, false},
        EVAL_SCALAR_TERMS(EVAL_SCALAR_INFO)
#undef EVAL_SCALAR_INFO
};
const int EvalTermCount = (int)(sizeof EvalTerms / sizeof EvalTerms[0]);

_Static_assert(sizeof(EvalWeights) == EVAL_WEIGHT_COUNT * sizeof(Weight), "EvalWeights must be a flat array");

enum { EVAL_LIMIT = 9000 };

/* Phase contribution of each piece type (chariot 6, horse and cannon 3). */
static const int PhaseWeight[TYPE_NB] = {0, 0, 0, 0, 3, 6, 3, 0};

static const Weight *const PsqtOf[TYPE_NB] = {NULL,          EvalW.PsqtKing,    EvalW.PsqtAdvisor, EvalW.PsqtElephant,
                                              EvalW.PsqtHorse, EvalW.PsqtChariot, EvalW.PsqtCannon,  EvalW.PsqtPawn};

typedef struct {
    const Position *pos;
    EvalTrace *trace;
    int mg[COLOR_NB], eg[COLOR_NB];
    /* What each side's pieces hit in the enemy palace (king safety). */
    int palace_attackers[COLOR_NB];
    bool king_safety; /* false below KNOWLEDGE_LARGE */
} EvalState;

static EvalKnowledge Knowledge = KNOWLEDGE_LARGE;

static inline void add(EvalState *st, Color c, const Weight *w, int n) {
    st->mg[c] += w->mg * n;
    st->eg[c] += w->eg * n;
    if (st->trace) st->trace->coef[c][eval_weight_index(w)] += n;
}

static inline int psqt_index(Color c, Square s) {
    int f = file_of(s);
    return relative_rank(c, s) * 5 + (f < 4 ? f : 8 - f);
}

/* Cannon control along one line (built at start-up): for a cannon at line
 * position i with line occupancy occ, the points beyond the first piece
 * (the screen) up to and including the next piece. */
static uint16_t RankControl[FILE_NB][512], FileControl[RANK_NB][1024];
/* Material plus placement of each piece on each point: the fast path of
 * eval_material_psqt(); the traced path adds the same weights one by one. */
static Weight PieceSquare[PIECE_NB][SQUARE_NB];

static uint16_t control_line(int at, unsigned occ, int len) {
    uint16_t mask = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int i = at + dir;
        while (i >= 0 && i < len && !(occ & (1u << i))) i += dir;
        for (i += dir; i >= 0 && i < len; i += dir) {
            mask |= (uint16_t)(1u << i);
            if (occ & (1u << i)) break;
        }
    }
    return mask;
}

__attribute__((constructor)) static void eval_init(void) {
    for (int f = 0; f < FILE_NB; f++)
        for (unsigned occ = 0; occ < 512; occ++) RankControl[f][occ] = control_line(f, occ, FILE_NB);
    for (int r = 0; r < RANK_NB; r++)
        for (unsigned occ = 0; occ < 1024; occ++) FileControl[r][occ] = control_line(r, occ, RANK_NB);
    for (Color c = RED; c <= BLACK; c++)
        for (PieceType t = KING; t <= PAWN; t++)
            for (Square s = 0; s < SQUARE_NB; s++) {
                const Weight *m = &EvalW.Material[t], *p = &PsqtOf[t][psqt_index(c, s)];
                PieceSquare[make_piece(c, t)][s] = (Weight){m->mg + p->mg, m->eg + p->eg};
            }
}

/* Points a cannon on s controls over a screen: beyond the first piece in
 * each direction, up to and including the next piece. */
static inline Bitboard cannon_control(Square s, Bitboard occ, Bitboard occ_t) {
    int f = file_of(s), r = rank_of(s);
    return ((Bitboard)RankControl[f][bb_rank_bits(occ, r)] << (r * 9)) |
           (FileSpread[FileControl[r][bb_file_bits(occ_t, f)]] << f);
}

static inline Bitboard file_bb(int file) { return FileSpread[0x3FF] << file; }
static inline Bitboard rank_bb(int rank) { return (Bitboard)0x1FF << (rank * 9); }

/* The palace attack of one piece: its hits on the enemy palace, counted
 * per point, plus one attacker for the KingAttackers table. */
static inline void palace_attack(EvalState *st, Color c, int kind, Bitboard attacks) {
    if (!st->king_safety) return;
    int n = bb_popcount(attacks & PalaceBB[!c]);
    if (!n) return;
    add(st, c, &EvalW.PalaceAttack[kind], n);
    st->palace_attackers[c]++;
}

static void eval_material_psqt(EvalState *st, Color c) {
    if (!st->trace) {
        for (Bitboard b = st->pos->color_bb[c]; b;) {
            Square s = bb_pop_lsb(&b);
            const Weight *w = &PieceSquare[st->pos->board[s]][s];
            st->mg[c] += w->mg;
            st->eg[c] += w->eg;
        }
        return;
    }
    for (PieceType t = KING; t <= PAWN; t++) {
        Bitboard b = pos_pieces(st->pos, c, t);
        if (t != KING) add(st, c, &EvalW.Material[t], bb_popcount(b));
        while (b) add(st, c, &PsqtOf[t][psqt_index(c, bb_pop_lsb(&b))], 1);
    }
}

/* Material alone (knowledge none). */
static void eval_material(EvalState *st, Color c) {
    for (PieceType t = ADVISOR; t <= PAWN; t++) add(st, c, &EvalW.Material[t], bb_popcount(pos_pieces(st->pos, c, t)));
}

static void eval_chariots(EvalState *st, Color c) {
    const Position *pos = st->pos;
    Bitboard own = pos->color_bb[c];
    Bitboard own_pawns = pos_pieces(pos, c, PAWN), all_pawns = own_pawns | pos_pieces(pos, !c, PAWN);
    Bitboard back = rank_bb(c == RED ? 9 : 0) | rank_bb(c == RED ? 8 : 1);
    for (Bitboard b = pos_pieces(pos, c, ROOK); b;) {
        Square s = bb_pop_lsb(&b);
        Bitboard att = rook_attacks(s, pos->occ, pos->occ_t);
        add(st, c, &EvalW.ChariotMobility[bb_popcount(att & ~own)], 1);
        Bitboard file = file_bb(file_of(s));
        if (!(file & all_pawns))
            add(st, c, &EvalW.ChariotOpenFile, 1);
        else if (!(file & own_pawns))
            add(st, c, &EvalW.ChariotHalfOpenFile, 1);
        if (bb_test(back, s)) add(st, c, &EvalW.ChariotEnemyBackRanks, 1);
        palace_attack(st, c, ATT_CHARIOT, att);
    }
}

static void eval_horses(EvalState *st, Color c) {
    const Position *pos = st->pos;
    Bitboard own = pos->color_bb[c];
    for (Bitboard b = pos_pieces(pos, c, HORSE); b;) {
        Square s = bb_pop_lsb(&b);
        Bitboard legs = 0, att = 0;
        for (int i = 0; i < HorseCount[s]; i++) {
            Step st_ = HorseSteps[s][i];
            if (bb_test(pos->occ, st_.block))
                legs |= square_bb(st_.block);
            else
                att |= square_bb(st_.to);
        }
        add(st, c, &EvalW.HorseMobility[bb_popcount(att & ~own)], 1);
        add(st, c, &EvalW.HorseLegBlocked, bb_popcount(legs));
        int f = file_of(s); /* files c-g of the enemy's last four ranks */
        if (relative_rank(c, s) >= 6 && f >= 2 && f <= 6) add(st, c, &EvalW.HorseNearPalace, 1);
        palace_attack(st, c, ATT_HORSE, att);
    }
}

static void eval_cannons(EvalState *st, Color c) {
    const Position *pos = st->pos;
    Square ksq = pos->king_sq[!c];
    Bitboard enemy = pos->color_bb[!c];
    for (Bitboard b = pos_pieces(pos, c, CANNON); b;) {
        Square s = bb_pop_lsb(&b);
        Bitboard near = rook_attacks(s, pos->occ, pos->occ_t);
        add(st, c, &EvalW.CannonMobility[bb_popcount(near & ~pos->occ)], 1);
        Bitboard control = cannon_control(s, pos->occ, pos->occ_t);
        add(st, c, &EvalW.CannonCaptureTargets, bb_popcount(control & enemy));
        add(st, c, &EvalW.CannonPalaceControl, bb_popcount(control & PalaceBB[!c]));
        if (file_of(s) == file_of(ksq) && bb_test(near, ksq)) add(st, c, &EvalW.CannonEmptyHead, 1);
        if (relative_rank(c, s) == 9) add(st, c, &EvalW.CannonBottom, 1);
        palace_attack(st, c, ATT_CANNON, control);
    }
}

static void eval_pawns(EvalState *st, Color c) {
    const Position *pos = st->pos;
    Bitboard crossed = pos_pieces(pos, c, PAWN) & OwnHalfBB[!c];
    Bitboard near_palace = PalaceBB[!c];
    Bitboard pairs = crossed & (crossed >> 1) & ~file_bb(8);
    add(st, c, &EvalW.PawnCrossed, bb_popcount(crossed));
    add(st, c, &EvalW.PawnConnected, bb_popcount(pairs));
    add(st, c, &EvalW.PawnLastRank, bb_popcount(crossed & rank_bb(c == RED ? 9 : 0)));
    for (Bitboard b = crossed; b;) {
        Square s = bb_pop_lsb(&b);
        Bitboard att = PawnSteps[c][s];
        if ((att | square_bb(s)) & near_palace) add(st, c, &EvalW.PawnNearPalace, 1);
        palace_attack(st, c, ATT_PAWN, att);
    }
}

/* Missing advisors and elephants weighed against the enemy pieces that
 * have crossed into our half; the king off its home point. */
static void eval_king_safety(EvalState *st, Color c) {
    const Position *pos = st->pos;
    Color them = !c;
    int missing_a = 2 - bb_popcount(pos_pieces(pos, c, ADVISOR));
    int missing_e = 2 - bb_popcount(pos_pieces(pos, c, ELEPHANT));
    if (missing_a < 0) missing_a = 0;
    if (missing_e < 0) missing_e = 0;
    static const PieceType Kinds[ATTACKER_KIND_NB] = {ROOK, HORSE, CANNON, PAWN};
    for (int k = 0; k < ATTACKER_KIND_NB; k++) {
        int n = bb_popcount(pos_pieces(pos, them, Kinds[k]) & OwnHalfBB[c]);
        if (!n) continue;
        if (missing_a) add(st, c, &EvalW.AdvisorMissingVsAttacker[k], missing_a * n);
        if (missing_e) add(st, c, &EvalW.ElephantMissingVsAttacker[k], missing_e * n);
    }
    if (pos->king_sq[c] != relative_square(c, make_square(4, 0))) add(st, c, &EvalW.KingOffHome, 1);
}

static int game_phase(const Position *pos) {
    int phase = 0;
    for (PieceType t = HORSE; t <= CANNON; t++)
        phase += PhaseWeight[t] * bb_popcount(pos_pieces(pos, RED, t) | pos_pieces(pos, BLACK, t));
    return phase < PHASE_MAX ? phase : PHASE_MAX;
}

/* The evaluation with the terms of knowledge grade k (eval.h). */
static Score evaluate_impl(const Position *pos, EvalTrace *trace, EvalKnowledge k) {
    EvalState st = {.pos = pos, .trace = trace, .king_safety = k >= KNOWLEDGE_LARGE};
    const bool pieces = k >= KNOWLEDGE_MEDIUM;
    for (Color c = RED; c <= BLACK; c++) {
        if (k == KNOWLEDGE_NONE)
            eval_material(&st, c);
        else
            eval_material_psqt(&st, c);
        if (pieces) {
            eval_chariots(&st, c);
            eval_horses(&st, c);
            eval_cannons(&st, c);
            eval_pawns(&st, c);
        }
        if (st.king_safety) eval_king_safety(&st, c);
    }
    for (Color c = RED; c <= BLACK && st.king_safety; c++) {
        int n = st.palace_attackers[c];
        add(&st, c, &EvalW.KingAttackers[n < KING_ATTACKERS_NB ? n : KING_ATTACKERS_NB - 1], 1);
    }
    Color winner = pieces ? eg_known_win(pos) : COLOR_NB;
    if (winner != COLOR_NB) add(&st, winner, &EvalW.KnownWin, 1);
    if (k >= KNOWLEDGE_SMALL) add(&st, pos->side, &EvalW.Tempo, 1);

    int phase = game_phase(pos);
    int mg = st.mg[RED] - st.mg[BLACK], eg = st.eg[RED] - st.eg[BLACK];
    int tapered = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    int scale = !pieces ? SCALE_NORMAL : tapered > 0 ? eg_scale(pos, RED) : tapered < 0 ? eg_scale(pos, BLACK) : SCALE_NORMAL;
    int red = tapered * scale / SCALE_NORMAL;
    if (red > EVAL_LIMIT) red = EVAL_LIMIT;
    if (red < -EVAL_LIMIT) red = -EVAL_LIMIT;
    if (trace) {
        trace->phase = phase;
        trace->scale[RED] = eg_scale(pos, RED);
        trace->scale[BLACK] = eg_scale(pos, BLACK);
        trace->mg = mg;
        trace->eg = eg;
        trace->tapered = tapered;
        trace->red = red;
    }
    return pos->side == RED ? red : -red;
}

Score eval_classical(const Position *pos) { return evaluate_impl(pos, NULL, KNOWLEDGE_LARGE); }

Score evaluate(const Position *pos) {
    if (Knowledge != KNOWLEDGE_LARGE) return evaluate_impl(pos, NULL, Knowledge);
    return nnue_active() ? nnue_evaluate(pos) : evaluate_impl(pos, NULL, KNOWLEDGE_LARGE);
}

void eval_set_knowledge(EvalKnowledge k) {
    Knowledge = k < KNOWLEDGE_NONE ? KNOWLEDGE_NONE : k > KNOWLEDGE_LARGE ? KNOWLEDGE_LARGE : k;
}

EvalKnowledge eval_knowledge(void) { return Knowledge; }

Score eval_traced(const Position *pos, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return evaluate_impl(pos, trace, KNOWLEDGE_LARGE);
}

double eval_from_trace(const EvalTrace *trace, const Weight *w) {
    double mg = 0, eg = 0;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
        int n = trace->coef[RED][i] - trace->coef[BLACK][i];
        if (!n) continue;
        mg += (double)n * w[i].mg;
        eg += (double)n * w[i].eg;
    }
    double tapered = (mg * trace->phase + eg * (PHASE_MAX - trace->phase)) / PHASE_MAX;
    int scale = tapered > 0 ? trace->scale[RED] : tapered < 0 ? trace->scale[BLACK] : SCALE_NORMAL;
    return tapered * scale / SCALE_NORMAL;
}

/* Sum of one term's weights for one side, from the trace counts. */
static void term_sum(const EvalTrace *tr, const EvalTermInfo *t, Color c, int *mg, int *eg) {
    const Weight *w = (const Weight *)&EvalW;
    *mg = *eg = 0;
    for (int i = t->offset; i < t->offset + t->length; i++) {
        *mg += tr->coef[c][i] * w[i].mg;
        *eg += tr->coef[c][i] * w[i].eg;
    }
}

void eval_trace(const Position *pos, const char *prefix, FILE *out) {
    EvalTrace tr;
    Score stm = eval_traced(pos, &tr);
    int phase = tr.phase;
    fprintf(out, "%s%-26s %13s %13s %8s\n", prefix, "term", "red mg/eg", "black mg/eg", "red-black");
    for (int i = 0; i < EvalTermCount; i++) {
        const EvalTermInfo *t = &EvalTerms[i];
        int rm, re, bm, be;
        term_sum(&tr, t, RED, &rm, &re);
        term_sum(&tr, t, BLACK, &bm, &be);
        int diff = ((rm - bm) * phase + (re - be) * (PHASE_MAX - phase)) / PHASE_MAX;
        fprintf(out, "%s%-26s %6d %6d %6d %6d %8d\n", prefix, t->name, rm, re, bm, be, diff);
    }
    fprintf(out, "%sphase %d/%d (%d = all pieces on, 0 = none)\n", prefix, phase, PHASE_MAX, PHASE_MAX);
    fprintf(out, "%stotal mg %d eg %d tapered %d (red view)\n", prefix, tr.mg, tr.eg, tr.tapered);
    fprintf(out, "%sdraw scale %d/%d if red is stronger, %d/%d if black is\n", prefix, tr.scale[RED], SCALE_NORMAL,
            tr.scale[BLACK], SCALE_NORMAL);
    fprintf(out, "%sfinal %d (red view), %d (side to move, %s)\n", prefix, tr.red, stm,
            pos->side == RED ? "red" : "black");
}
