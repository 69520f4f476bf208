// SPDX-License-Identifier: GPL-3.0-or-later
#include "tally.h"

#include <string.h>

void tally_start(MatchTally *t) {
    t->pair_count = 0;
    for (int a = 0; a < t->engine_count; a++)
        for (int b = a + 1; b < t->engine_count; b++)
            t->pairs[t->pair_count++] = (Pairing){a, b, {0, 0, 0}};
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

bool tally_add(MatchTally *t, int pair, bool a_is_red, const GameOutcome *g) {
    Pairing *p = &t->pairs[pair];
    if (g->result == RES_DRAW)
        p->score.draws++;
    else if ((g->result == RES_RED_WINS) == a_is_red)
        p->score.wins++;
    else
        p->score.losses++;
    t->games_done++;
    tally_reason(t, g->reason);
    for (int c = 0; c < COLOR_NB; c++) {
        int e = (c == RED) == a_is_red ? p->a : p->b;
        t->overruns[e] += g->overruns[c];
        if (g->worst_overrun_ms[c] > t->worst_overrun[e]) t->worst_overrun[e] = g->worst_overrun_ms[c];
    }
    if (t->sprt_on && t->pair_count == 1 && !t->sprt_decided && stats_sprt(p->score, t->sprt) != SPRT_CONTINUE) {
        /* Games already running still count in the totals, but the verdict
         * is the one reached here. */
        t->sprt_decided = true;
        t->sprt_at = p->score;
        return true;
    }
    return false;
}

void tally_pair_line(FILE *out, const MatchTally *t, const Pairing *p) {
    Score3 s = p->score;
    fprintf(out, "%s vs %s: +%d =%d -%d, Elo %+.1f +/- %.1f", t->names[p->a], t->names[p->b], s.wins, s.draws, s.losses,
            stats_elo(s), stats_elo_error(s));
    if (t->sprt_on && t->pair_count == 1)
        fprintf(out, ", LLR %.2f [%.2f, %.2f]", stats_llr(s, t->sprt), stats_llr_lower(t->sprt),
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
    }
    if (t->engine_count > 2) print_standings(out, t);
    if (t->sprt_on && t->pair_count == 1) {
        Score3 s = t->sprt_decided ? t->sprt_at : t->pairs[0].score;
        SprtState st = stats_sprt(s, t->sprt);
        if (t->sprt_decided)
            fprintf(out, "SPRT decided after %d games (+%d =%d -%d)\n", stats_games(s), s.wins, s.draws, s.losses);
        fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f [%.3f, %.3f] -> %s\n", t->sprt.elo0, t->sprt.elo1,
                t->sprt.alpha, t->sprt.beta, stats_llr(s, t->sprt), stats_llr_lower(t->sprt), stats_llr_upper(t->sprt),
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
