// SPDX-License-Identifier: GPL-3.0-or-later
#include "tally.h"

#include <string.h>

void tally_start(MatchTally *t) {
    t->pair_count = 0;
    for (int a = 0; a < t->engine_count; a++)
        for (int b = a + 1; b < t->engine_count; b++)
            t->pairs[t->pair_count++] = (Pairing){a, b, {0, 0, 0}, {{0}}};
    t->open_count = 0;
}

void tally_schedule(const MatchTally *t, int game, int *pair, bool *a_is_red, int *round) {
    *round = game / (2 * t->pair_count);
    *pair = (game % (2 * t->pair_count)) / 2;
    *a_is_red = game % 2 == 0;
}

static void tally_reason(MatchTally *t, const char *reason) {
    /* Group by the reason's wording without engine names and numbers. */
    char key[64];
    size_t n = 0;
    int depth = 0;
    for (const char *p = reason; *p && n < sizeof key - 1; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (!depth && !(*p == ' ' && n && key[n - 1] == ' '))
            key[n++] = *p >= '0' && *p <= '9' ? '#' : *p;
    }
    key[n] = '\0';
    for (int i = 0; i < t->reason_count; i++)
        if (!strcmp(t->reasons[i].text, key)) {
            t->reasons[i].n++;
            return;
        }
    if (t->reason_count < TALLY_MAX_REASONS) {
        snprintf(t->reasons[t->reason_count].text, sizeof t->reasons[0].text, "%s", key);
        t->reasons[t->reason_count++].n = 1;
    }
}

/* Pair up game `game`, worth `half_points` to a: true when it completes its
 * pair, which is then counted in p->pairs. */
static bool pair_up(MatchTally *t, Pairing *p, int game, int half_points) {
    int id = game / 2;
    for (int i = 0; i < t->open_count; i++)
        if (t->open[i].pair_game == id) {
            p->pairs.n[half_points + t->open[i].half_points]++;
            t->open[i] = t->open[--t->open_count];
            return true;
        }
    if (t->open_count < TALLY_MAX_OPEN_PAIRS) { /* full: cannot happen, the pair is left out */
        t->open[t->open_count].pair_game = id;
        t->open[t->open_count++].half_points = half_points;
    }
    return false;
}

/* The match's SPRT model on a pairing's games (s) and pairs (s5). */
static double model_llr(const MatchTally *t, Score3 s, Score5 s5) {
    return t->sprt.model == SPRT_PENTANOMIAL ? stats5_llr(s5, t->sprt) : stats_llr(s, t->sprt);
}

static SprtState model_sprt(const MatchTally *t, Score3 s, Score5 s5) {
    return t->sprt.model == SPRT_PENTANOMIAL ? stats5_sprt(s5, t->sprt) : stats_sprt(s, t->sprt);
}

bool tally_add(MatchTally *t, int game, const GameOutcome *g) {
    int pair, round;
    bool a_is_red;
    tally_schedule(t, game, &pair, &a_is_red, &round);
    Pairing *p = &t->pairs[pair];
    int half_points;
    if (g->result == RES_DRAW)
        p->score.draws++, half_points = 1;
    else if ((g->result == RES_RED_WINS) == a_is_red)
        p->score.wins++, half_points = 2;
    else
        p->score.losses++, half_points = 0;
    bool paired = pair_up(t, p, game, half_points);
    t->games_done++;
    tally_reason(t, g->reason);
    for (int c = 0; c < COLOR_NB; c++) {
        int e = (c == RED) == a_is_red ? p->a : p->b;
        t->overruns[e] += g->overruns[c];
        if (g->worst_overrun_ms[c] > t->worst_overrun[e]) t->worst_overrun[e] = g->worst_overrun_ms[c];
    }
    if (!t->sprt_on || t->pair_count != 1 || t->sprt_decided) return false;
    /* Pairs change only when a game completes one. */
    if (t->sprt.model == SPRT_PENTANOMIAL && !paired) return false;
    if (model_sprt(t, p->score, p->pairs) == SPRT_CONTINUE) return false;
    /* Games already running still count in the totals, but the verdict is
     * the one reached here. */
    t->sprt_decided = true;
    t->sprt_at = p->score;
    t->sprt_at5 = p->pairs;
    return true;
}

void tally_pair_line(FILE *out, const MatchTally *t, const Pairing *p) {
    Score3 s = p->score;
    fprintf(out, "%s vs %s: +%d =%d -%d, Elo %+.1f +/- %.1f", t->names[p->a], t->names[p->b], s.wins, s.draws, s.losses,
            stats_elo(s), stats_elo_error(s));
    if (t->sprt_on && t->pair_count == 1)
        fprintf(out, ", LLR %.2f [%.2f, %.2f]", model_llr(t, s, p->pairs), stats_llr_lower(t->sprt),
                stats_llr_upper(t->sprt));
}

static void print_standings(FILE *out, const MatchTally *t) {
    fprintf(out, "Standings (each engine against the field):\n");
    for (int e = 0; e < t->engine_count; e++) {
        Score3 sum = {0, 0, 0};
        for (int i = 0; i < t->pair_count; i++) {
            Score3 s = t->pairs[i].score;
            if (t->pairs[i].a == e) sum = (Score3){sum.wins + s.wins, sum.draws + s.draws, sum.losses + s.losses};
            if (t->pairs[i].b == e) sum = (Score3){sum.wins + s.losses, sum.draws + s.draws, sum.losses + s.wins};
        }
        fprintf(out, "  %-16s games %d, +%d =%d -%d, %.1f points (%.1f%%), Elo %+.1f +/- %.1f\n", t->names[e],
                stats_games(sum), sum.wins, sum.draws, sum.losses, sum.wins + 0.5 * sum.draws, 100 * stats_score(sum),
                stats_elo(sum), stats_elo_error(sum));
    }
}

void tally_report(FILE *out, const MatchTally *t, int signal) {
    fprintf(out, "\n=== %d games, %s ===\n", t->games_done, t->tc_text);
    if (signal) fprintf(out, "Interrupted by signal %d after %d of %d games\n", signal, t->games_done, t->total_games);
    for (int i = 0; i < t->pair_count; i++) {
        const Pairing *p = &t->pairs[i];
        Score3 s = p->score;
        fprintf(out, "%s vs %s: games %d, +%d =%d -%d, score %.1f%%\n", t->names[p->a], t->names[p->b], stats_games(s),
                s.wins, s.draws, s.losses, 100 * stats_score(s));
        fprintf(out, "  Elo difference %+.1f +/- %.1f (95%%), LOS %.1f%%, draw ratio %.1f%%\n", stats_elo(s),
                stats_elo_error(s), 100 * stats_los(s), 100 * stats_draw_ratio(s));
        Score5 q = p->pairs;
        if (stats5_pairs(q))
            fprintf(out, "  Game pairs by %s's points 0, 1/2, 1, 3/2, 2: %d, %d, %d, %d, %d; Elo %+.1f +/- %.1f\n",
                    t->names[p->a], q.n[0], q.n[1], q.n[2], q.n[3], q.n[4], stats5_elo(q), stats5_elo_error(q));
    }
    if (t->engine_count > 2) print_standings(out, t);
    if (t->sprt_on && t->pair_count == 1) {
        Score3 s = t->sprt_decided ? t->sprt_at : t->pairs[0].score;
        Score5 s5 = t->sprt_decided ? t->sprt_at5 : t->pairs[0].pairs;
        SprtState st = model_sprt(t, s, s5);
        if (t->sprt_decided)
            fprintf(out, "SPRT decided after %d games (+%d =%d -%d)\n", stats_games(s), s.wins, s.draws, s.losses);
        fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g, %s: LLR %.3f [%.3f, %.3f] -> %s\n", t->sprt.elo0,
                t->sprt.elo1, t->sprt.alpha, t->sprt.beta, stats_model_name(t->sprt.model), model_llr(t, s, s5),
                stats_llr_lower(t->sprt), stats_llr_upper(t->sprt),
                st == SPRT_H1   ? "H1 accepted"
                : st == SPRT_H0 ? "H0 accepted"
                                : "undecided");
    }
    if (t->timed) {
        /* What a referee without a grace margin would have forfeited. */
        fprintf(out, "Moves over the clock, forgiven by -timemargin %lld ms:", (long long)t->margin_ms);
        for (int e = 0; e < t->engine_count; e++)
            fprintf(out, "%s %s %d (worst %lld ms)", e ? "," : "", t->names[e], t->overruns[e],
                    (long long)t->worst_overrun[e]);
        fprintf(out, "\n");
    }
    fprintf(out, "Results by reason:\n");
    for (int i = 0; i < t->reason_count; i++)
        fprintf(out, "  %4d  %s\n", t->reasons[i].n, t->reasons[i].text);
}
