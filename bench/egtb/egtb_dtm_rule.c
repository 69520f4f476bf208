// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Both-sides DTM (egtb_dtm_rule.h): the first entries, the rule losses,
 * the plain steps and the driver. The rule marks are egtb_dtm_marks.c,
 * the final raising steps egtb_dtm_raise.c. Each pass follows the one of
 * xiangqitb's DTM_Generator named in its comment (docs/egtb.md,
 * "Both-sides DTM").
 */
#include "egtb_dtm_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egtb/egtb_sig.h"
#include "egtb_dtm_marks.h"
#include "egtb_dtm_rule_state.h"
#include "egtb_solve.h"
#include "egtb_sym.h"

void dtm_fail(DtmRule *D, const char *why, uint64_t i, int c) {
    if (D->failed) return;
    D->failed = true;
    snprintf(D->err, sizeof D->err, "%s: DTM, %s to move, index %llu: %s", D->t->name, c == RED ? "red" : "black",
             (unsigned long long)i, why);
}

void dtm_bits_clear(const DtmRule *D, uint64_t *b) { memset(b, 0, D->words * sizeof *b); }

void dtm_kids(const DtmRule *D, const Position *pos, Kids *k) {
    egtb_reindex_set(D->lay, pos, &k->r);
    MoveList all;
    gen_legal(pos, &all);
    k->quiets.count = 0;
    for (int i = 0; i < all.count; i++) {
        Move m = all.moves[i];
        if (pos->board[move_to(m)] != NO_PIECE) continue;
        bool mirrored;
        k->child[k->quiets.count] =
            egtb_reindex_move(D->lay, &k->r, pos->board[move_from(m)], move_from(m), move_to(m), &mirrored);
        k->quiets.moves[k->quiets.count++] = m;
    }
}

void dtm_decode(DtmRule *D, uint64_t i, int c, Kids *k) {
    egtb_decode(D->lay, i, (Color)c, D->pos);
    dtm_kids(D, D->pos, k);
}

typedef struct {
    uint64_t n;
    void (*fn)(void *ctx, uint64_t parent);
    void *ctx;
} ParentRelay;

static void relay(void *ctx, uint64_t node) {
    ParentRelay *r = ctx;
    r->fn(r->ctx, node % r->n);
}

void dtm_parents(DtmRule *D, uint64_t i, int c, void (*fn)(void *ctx, uint64_t parent), void *ctx) {
    ParentRelay r = {D->n, fn, ctx};
    egtb_parents(D->lay, (uint64_t)c * D->n + i, &D->scratch, relay, &r);
}

/* Capture m's child in its smaller table, for the side then to move:
 * *v its DTM value (0: a draw, also where no table is needed) and whether
 * it is a win or a loss. A table where both sides attack holds the win
 * flag (its wins may be odd); the others hold the sign in the parity. */
static void capture_child(const DtmRule *D, Position *pos, Move m, unsigned *v, bool *win, bool *lose) {
    const EgtbTable *sub = D->caps.sub[pos->board[move_to(m)]];
    uint16_t e = egtb_capture_value(&D->caps, pos, m);
    if (sub && sub->dtm_flagged) {
        *v = e & E_SCORE;
        *win = (e & E_WIN) != 0;
        *lose = !*win && *v != 0;
    } else {
        *v = e;
        *win = egtb_is_win(e);
        *lose = egtb_is_loss(e);
    }
}

/* xiangqitb's ceil_to_even and ceil_to_odd: a capture into a loss (win) of
 * DTM w scores the even (odd) number w or w + 1; w + 1 whenever the
 * smaller table keeps the parity. */
static unsigned ceil_even(unsigned w) { return w + (w & 1); }
static unsigned ceil_odd(unsigned w) { return w | 1; }

unsigned dtm_cap_win_score(DtmRule *D, Position *pos) {
    MoveList all;
    gen_legal(pos, &all);
    unsigned best = E_SCORE_MAX;
    for (int k = 0; k < all.count; k++) {
        Move m = all.moves[k];
        if (pos->board[move_to(m)] == NO_PIECE) continue;
        unsigned w;
        bool win, lose;
        capture_child(D, pos, m, &w, &win, &lose);
        if (lose && ceil_even(w) < best) best = ceil_even(w);
    }
    return best;
}

/* ---- The first entries (init_entries, make_initial_entry) ------------- */

/* The plain steps' bound per winning side starts at a mate in one (a win
 * of 2) and grows to the largest first entry. */
enum { PLAIN_STEPS_MIN = 2 };

static void init_entries(DtmRule *D) {
    /* per winning side: at least a mate in one, as xiangqitb starts it */
    unsigned top[COLOR_NB] = {PLAIN_STEPS_MIN, PLAIN_STEPS_MIN};
    for (uint64_t i = 0; i < D->n; i++)
        for (int c = 0; c < COLOR_NB; c++) {
            Wdl w = dtm_wdl(D, c, i);
            if (w == WDL_ILLEGAL) {
                D->e[c][i] = E_ILLEGAL;
                continue;
            }
            if (w == WDL_DRAW) {
                D->e[c][i] = 0;
                continue;
            }
            egtb_decode(D->lay, i, (Color)c, D->pos);
            Position *pos = D->pos;
            MoveList all;
            gen_legal(pos, &all);
            int winner = w == WDL_WIN ? c : !c;
            if (w == WDL_LOSE && all.count == 0) { /* mated or stalemated */
                D->e[c][i] = 1;                    /* below the bound's start: no update */
                continue;
            }
            unsigned sub = w == WDL_LOSE ? 0 : E_SCORE_MAX;
            int quiet = 0;
            for (int k = 0; k < all.count; k++) {
                Move m = all.moves[k];
                if (pos->board[move_to(m)] == NO_PIECE) {
                    quiet++;
                    continue;
                }
                unsigned v;
                bool win, lose;
                capture_child(D, pos, m, &v, &win, &lose);
                if (w == WDL_LOSE && win && ceil_odd(v) > sub) sub = ceil_odd(v);
                if (w == WDL_WIN && lose && ceil_even(v) < sub) sub = ceil_even(v);
            }
            uint16_t e = 0; /* open, no capture score */
            if (w == WDL_LOSE && sub != 0) {
                if (quiet == 0) {
                    D->e[c][i] = (uint16_t)sub; /* settled: no quiet move, its longest capture */
                    if (top[winner] < sub) top[winner] = sub;
                    continue;
                }
                e = (uint16_t)(E_WIN | sub);
            } else if (w == WDL_WIN && sub != E_SCORE_MAX) {
                e = (uint16_t)(E_WIN | sub);
            }
            D->e[c][i] = e;
            bit_set(D->unknown[c], i);
            if (top[winner] < e_score(e)) top[winner] = e_score(e);
        }
    for (int c = 0; c < COLOR_NB; c++)
        D->max_build[c] = top[c];
}

/* ---- Rule losses (gen_rule_lose) ------------------------------------- */

/* find_rule_lose: an open WDL loss of `me` marked as a perpetual checker or
 * chaser (not both) whose every quiet move goes on with its mark into a
 * position the opponent wins. Its children go into opp_bits. */
static void find_rule_lose(DtmRule *D, int me, uint64_t *me_bits, uint64_t *opp_bits) {
    int opp = !me;
    Kids k;
    dtm_bits_clear(D, me_bits);
    dtm_bits_clear(D, opp_bits);
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(D->unknown[me], i)) continue;
        uint16_t e = D->e[me][i];
        if (!e_ban_lose(e)) continue;
        if (e_has(e, CHECK_LOSE) && e_has(e, CHASE_LOSE)) continue;
        if (dtm_wdl(D, me, i) != WDL_LOSE) continue;
        dtm_decode(D, i, me, &k);
        bool rule_lose = true;
        for (int j = 0; j < k.quiets.count && rule_lose; j++) {
            uint16_t e2 = D->e[opp][k.child[j]];
            if (!e_legal(e2)) continue;
            bool goes_on =
                (e_has(e, CHECK_LOSE) && e_has(e2, CHECK_WIN)) || (e_has(e, CHASE_LOSE) && e_has(e2, CHASE_WIN));
            if (!goes_on || dtm_wdl(D, opp, k.child[j]) != WDL_WIN) rule_lose = false;
        }
        if (!rule_lose) continue;
        bit_set(me_bits, i);
        for (int j = 0; j < k.quiets.count; j++)
            bit_set(opp_bits, k.child[j]);
    }
}

/* remove_rule_lose: prune `bits` (side `side` to move) against `dst`: the
 * winner's positions stay only with a child in dst, the loser's only with
 * every child in dst. Returns whether one went. */
static bool remove_rule_lose(DtmRule *D, int loser, int side, uint64_t *bits, const uint64_t *dst) {
    int opp = !side;
    Kids k;
    bool any = false;
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(bits, i)) continue;
        dtm_decode(D, i, side, &k);
        bool find = false;
        for (int j = 0; j < k.quiets.count && !find; j++) {
            uint64_t x = k.child[j];
            if (!e_legal(D->e[opp][x])) continue;
            find = loser == side ? !bit_test(dst, x) : bit_test(dst, x);
        }
        if (loser == side ? find : !find) {
            bit_clear(bits, i);
            any = true;
        }
    }
    return any;
}

static void rule_losses(DtmRule *D, uint64_t *me_bits, uint64_t *opp_bits) {
    for (int me = 0; me < COLOR_NB; me++) {
        find_rule_lose(D, me, me_bits, opp_bits);
        while (remove_rule_lose(D, me, !me, opp_bits, me_bits) && remove_rule_lose(D, me, me, me_bits, opp_bits)) {
        }
        /* save_rule_lose: scored as mated, or by the longest capture */
        for (uint64_t i = 0; i < D->n; i++) {
            if (!bit_test(me_bits, i)) continue;
            uint16_t e = D->e[me][i];
            D->e[me][i] = e_lose(e, (e & E_WIN) ? e_score(e) : 1);
            bit_clear(D->unknown[me], i);
        }
    }
}

/* ---- The plain steps (build_steps) ----------------------------------- */

typedef struct {
    DtmRule *D;
    int side; /* the parents' side to move */
    bool any;
} PreCtx;

static void pre_parent(void *ctx, uint64_t p) {
    PreCtx *x = ctx;
    if (bit_test(x->D->unknown[x->side], p)) {
        bit_set(x->D->pre, p);
        x->any = true;
    }
}

/* gen_pre_bits (egtb_dtm_rule_state.h) */
bool dtm_gen_pre(DtmRule *D, int me, unsigned n, bool plain) {
    dtm_bits_clear(D, D->pre);
    PreCtx x = {D, !me, false};
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(D->gen, i)) continue;
        if (plain) {
            uint16_t e = D->e[me][i];
            if (!bit_test(D->unknown[me], i)) {
                if (!e_legal(e) || e_score(e) != n) continue;
            } else {
                if (!e_cap_win(e) || e_score(e) != n) continue;
                D->e[me][i] = e_win(e, n); /* a win by capture */
                bit_set(D->win, i);
                bit_clear(D->unknown[me], i);
            }
        }
        dtm_parents(D, i, me, pre_parent, &x);
    }
    return x.any;
}

/* save_win: every position in pre wins in v. */
static bool save_win(DtmRule *D, int me, unsigned v) {
    bool any = false;
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(D->pre, i)) continue;
        D->e[me][i] = e_win(D->e[me][i], v);
        bit_clear(D->unknown[me], i);
        bit_set(D->gen, i);
        bit_set(D->win, i);
        any = true;
    }
    return any;
}

/* prove_lose: a WDL loss in pre whose quiet moves all reach wins found in
 * these steps, a move going on with its perpetual mark not counted, loses
 * in v (or by its longer capture). */
static bool prove_lose(DtmRule *D, int me, unsigned v) {
    int opp = !me;
    Kids k;
    bool any = false;
    for (uint64_t i = 0; i < D->n; i++) {
        if (!bit_test(D->pre, i)) continue;
        if (dtm_wdl(D, me, i) != WDL_LOSE) continue;
        uint16_t e = D->e[me][i];
        if (bit_test(D->unknown[me], i) && e_cap_win(e)) continue;
        dtm_decode(D, i, me, &k);
        bool lose = true;
        for (int j = 0; j < k.quiets.count && lose; j++) {
            uint64_t x = k.child[j];
            if (e_ban_lose(e)) {
                uint16_t e2 = D->e[opp][x];
                if (e_ban_win(e2) &&
                    ((e_has(e, CHECK_LOSE) && e_has(e2, CHECK_WIN)) || (e_has(e, CHASE_LOSE) && e_has(e2, CHASE_WIN))))
                    continue;
            }
            if (!bit_test(D->win, x)) lose = false;
        }
        if (!lose) continue;
        unsigned steps = e_cap_lose(e) && e_score(e) > v ? e_score(e) : v;
        D->e[me][i] = e_lose(e, steps);
        bit_clear(D->unknown[me], i);
        bit_set(D->gen, i);
        any = true;
    }
    return any;
}

static void build_steps(DtmRule *D, int root) {
    int loser = !root;
    /* load_direct: root's open capture wins and the loser's settled losses */
    dtm_bits_clear(D, D->win);
    dtm_bits_clear(D, D->gen);
    for (uint64_t i = 0; i < D->n; i++) {
        if (bit_test(D->unknown[root], i) && e_cap_win(D->e[root][i]))
            bit_set(D->gen, i);
        else if (!bit_test(D->unknown[loser], i) && e_is_lose(D->e[loser][i]))
            bit_set(D->gen, i);
    }
    int me = root, opp = loser;
    for (unsigned n = 1;; n++) {
        bool more = dtm_gen_pre(D, opp, n, true) && (me == root ? save_win(D, me, n + 1) : prove_lose(D, me, n + 1));
        if (n >= D->max_build[root] && !more) break;
        if (n >= E_SCORE_MAX) {
            dtm_fail(D, "plain steps past the largest DTM", 0, root);
            break;
        }
        int t = me;
        me = opp;
        opp = t;
    }
}

/* ---- The driver ------------------------------------------------------ */

/* The signatures whose DTM compared equal to xiangqitb's at every legal
 * position (docs/egtb.md, "Cross-check"). Some of the generator's steps
 * (the double-chase and chariot-on-leg tests of the raising steps) act
 * in none of them, so a signature not compared may rest on steps never
 * checked against xiangqitb: build refuses it until it is compared and
 * added here. */
static const char *const Compared[] = {
    "KRKN",  "KRKC",  "KRKP",  "KCKN",  "KCKP",  "KNKP",  "KRKR",  "KNKN",  "KCKC",  "KPKP",  "KRKAN",
    "KNKAP", "KARKR", "KRKBN", "KCKAN", "KCKAP", "KNKBP", "KRNKR", "KRPKR", "KNPKN", "KRKNP",
};

bool egtb_dtm_rule_supported(const EgtbMaterial *mat, char *why, size_t whylen) {
    if (!egtb_sig_has_attackers(mat, RED) || !egtb_sig_has_attackers(mat, BLACK)) {
        snprintf(why, whylen, "one side attacks: the plain DTM solve applies");
        return false;
    }
    for (size_t k = 0; k < sizeof Compared / sizeof Compared[0]; k++) {
        EgtbMaterial c;
        char err[64];
        if (egtb_sig_parse(&c, Compared[k], err, sizeof err) && !memcmp(&c, mat, sizeof c)) return true;
    }
    snprintf(why, whylen, "not yet compared with xiangqitb's DTM (docs/egtb.md, \"Both-sides DTM\"): refused");
    return false;
}

/* check_dtm_egtb: every legal entry's sign as the WDL's; the rule marks
 * dropped (xiangqitb keeps them only with SaveRuleBits). */
static void finish(DtmRule *D) {
    for (int c = 0; c < COLOR_NB && !D->failed; c++)
        for (uint64_t i = 0; i < D->n; i++) {
            uint16_t e = D->e[c][i];
            if (e == E_ILLEGAL) {
                D->e[c][i] = EGTB_ILLEGAL;
                continue;
            }
            e &= (uint16_t)~RULE_MASK;
            Wdl w = dtm_wdl(D, c, i);
            bool ok = e_score(e) == 0 ? w == WDL_DRAW : (e & E_WIN) ? w == WDL_WIN : w == WDL_LOSE;
            if (!ok) {
                dtm_fail(D, "DTM and WDL disagree", i, c);
                return;
            }
            D->e[c][i] = e;
        }
}

bool egtb_solve_dtm_rule(EgtbTable *t, EgtbSet *subs, char *err, size_t errlen) {
    char why[200];
    if (!egtb_dtm_rule_supported(&t->lay.mat, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", t->name, why);
        return false;
    }
    DtmRule D = {.t = t, .lay = &t->lay, .n = t->lay.positions};
    D.words = (D.n + 63) / 64;
    if (!egtb_captures_init(&D.caps, subs, &t->lay.mat, true, err, errlen)) return false;
    uint64_t *extra[2] = {NULL, NULL};
    bool ok = true;
    for (int c = 0; c < COLOR_NB; c++) {
        D.e[c] = malloc(D.n * sizeof *D.e[c] + 2);
        D.unknown[c] = calloc(D.words + 1, sizeof(uint64_t));
        extra[c] = calloc(D.words + 1, sizeof(uint64_t));
        ok &= D.e[c] && D.unknown[c] && extra[c];
    }
    D.pre = calloc(D.words + 1, sizeof(uint64_t));
    D.gen = calloc(D.words + 1, sizeof(uint64_t));
    D.win = calloc(D.words + 1, sizeof(uint64_t));
    D.pos = malloc(sizeof *D.pos);
    D.scratch.pos = malloc(sizeof *D.scratch.pos);
    D.scratch.mirror = malloc(sizeof *D.scratch.mirror);
    ok &= D.pre && D.gen && D.win && D.pos && D.scratch.pos && D.scratch.mirror;
    if (!ok) {
        snprintf(D.err, sizeof D.err, "%s: out of memory for DTM", t->name);
        D.failed = true;
    }
    if (!D.failed) {
        init_entries(&D);
        dtm_marks(&D, extra);
    }
    if (!D.failed) rule_losses(&D, extra[RED], extra[BLACK]);
    if (!D.failed) {
        build_steps(&D, RED);
        build_steps(&D, BLACK);
    }
    if (!D.failed) dtm_raise(&D);
    if (!D.failed) finish(&D);
    for (int c = 0; c < COLOR_NB; c++) {
        free(D.unknown[c]);
        free(extra[c]);
    }
    free(D.pre);
    free(D.gen);
    free(D.win);
    free(D.pos);
    free(D.scratch.pos);
    free(D.scratch.mirror);
    if (D.failed) {
        snprintf(err, errlen, "%s", D.err);
        free(D.e[RED]);
        free(D.e[BLACK]);
        return false;
    }
    for (int c = 0; c < COLOR_NB; c++) {
        free(t->dtm[c]);
        t->dtm[c] = D.e[c];
    }
    t->dtm_flagged = true;
    /* A symmetric signature's file keeps Red to move; Black is what a
     * reader turns from it, and so what the larger tables must read. */
    if (egtb_sig_symmetric(&t->lay.mat) && !egtb_sym_fill_black_dtm(t, err, errlen)) {
        for (int c = 0; c < COLOR_NB; c++) {
            free(t->dtm[c]);
            t->dtm[c] = NULL;
        }
        return false;
    }
    return true;
}
