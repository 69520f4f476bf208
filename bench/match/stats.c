// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats.h"

#include <math.h>
#include <string.h>

/* Two-sided 95% quantile of the normal distribution. */
static const double Z95 = 1.959963984540054;
static const double EloClamp = 2000.0;

double stats_score(Score3 s) {
    int n = stats_games(s);
    return n ? (s.wins + 0.5 * s.draws) / n : 0.5;
}

double stats_elo_of_score(double score) {
    if (score <= 0.0) return -EloClamp;
    if (score >= 1.0) return EloClamp;
    double e = -400.0 * log10(1.0 / score - 1.0);
    return e < -EloClamp ? -EloClamp : e > EloClamp ? EloClamp : e;
}

double stats_score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

double stats_elo(Score3 s) {
    double e = stats_elo_of_score(stats_score(s));
    return fabs(e) < 1e-9 ? 0.0 : e; /* no "-0.0" in reports */
}

/* Variance of one game's score around the mean. */
static double per_game_variance(Score3 s) {
    int n = stats_games(s);
    if (!n) return 0.0;
    double m = stats_score(s);
    return (s.wins * (1 - m) * (1 - m) + s.draws * (0.5 - m) * (0.5 - m) + s.losses * m * m) / n;
}

/* Half the width of the 95% interval of a mean score m, in Elo, from n
 * samples of variance var. */
static double elo_margin(int n, double m, double var) {
    if (!n) return 0.0;
    double dev = sqrt(var / n);
    return (stats_elo_of_score(m + Z95 * dev) - stats_elo_of_score(m - Z95 * dev)) / 2.0;
}

/* The GSPRT's LLR for n samples of mean m and variance var (0 while the
 * variance is not yet defined). */
static double gsprt_llr(int n, double m, double var, SprtParams p) {
    if (!n || var <= 0.0) return 0.0;
    double s0 = stats_score_of_elo(p.elo0), s1 = stats_score_of_elo(p.elo1);
    return n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var);
}

double stats_elo_error(Score3 s) { return elo_margin(stats_games(s), stats_score(s), per_game_variance(s)); }

double stats_los(Score3 s) {
    if (s.wins + s.losses == 0) return 0.5;
    return 0.5 * (1.0 + erf((s.wins - s.losses) / sqrt(2.0 * (s.wins + s.losses))));
}

double stats_draw_ratio(Score3 s) {
    int n = stats_games(s);
    return n ? (double)s.draws / n : 0.0;
}

double stats_llr(Score3 s, SprtParams p) { return gsprt_llr(stats_games(s), stats_score(s), per_game_variance(s), p); }

double stats_llr_lower(SprtParams p) { return log(p.beta / (1.0 - p.alpha)); }
double stats_llr_upper(SprtParams p) { return log((1.0 - p.beta) / p.alpha); }

static SprtState sprt_state(double llr, SprtParams p) {
    if (llr >= stats_llr_upper(p)) return SPRT_H1;
    if (llr <= stats_llr_lower(p)) return SPRT_H0;
    return SPRT_CONTINUE;
}

SprtState stats_sprt(Score3 s, SprtParams p) { return sprt_state(stats_llr(s, p), p); }

int stats5_pairs(Score5 s) { return s.n[0] + s.n[1] + s.n[2] + s.n[3] + s.n[4]; }

double stats5_score(Score5 s) {
    int n = stats5_pairs(s);
    return n ? (0.25 * s.n[1] + 0.5 * s.n[2] + 0.75 * s.n[3] + s.n[4]) / n : 0.5;
}

double stats5_elo(Score5 s) {
    double e = stats_elo_of_score(stats5_score(s));
    return fabs(e) < 1e-9 ? 0.0 : e;
}

/* Variance of one pair's mean score around the mean. */
static double per_pair_variance(Score5 s) {
    int n = stats5_pairs(s);
    if (!n) return 0.0;
    double m = stats5_score(s), v = 0.0;
    for (int k = 0; k < 5; k++)
        v += s.n[k] * (0.25 * k - m) * (0.25 * k - m);
    return v / n;
}

double stats5_elo_error(Score5 s) { return elo_margin(stats5_pairs(s), stats5_score(s), per_pair_variance(s)); }

double stats5_llr(Score5 s, SprtParams p) { return gsprt_llr(stats5_pairs(s), stats5_score(s), per_pair_variance(s), p); }

SprtState stats5_sprt(Score5 s, SprtParams p) { return sprt_state(stats5_llr(s, p), p); }

const char *stats_model_name(SprtModel m) { return m == SPRT_PENTANOMIAL ? "pentanomial" : "trinomial"; }

bool stats_model_parse(const char *word, SprtModel *m) {
    if (!strcmp(word, "pentanomial")) return *m = SPRT_PENTANOMIAL, true;
    if (!strcmp(word, "trinomial")) return *m = SPRT_TRINOMIAL, true;
    return false;
}
