// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Match statistics from one engine's point of view: Elo difference with a
 * 95% error margin, likelihood of superiority, and a sequential probability
 * ratio test on the logistic Elo scale (the GSPRT approximation used by
 * fishtest: LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var)).
 *
 * Two models of the same games. Trinomial: N games, each scoring 0, 1/2
 * or 1, taken as independent. Pentanomial: N game pairs (one opening
 * played twice with colours swapped), each pair's mean score 0, 1/4, 1/2,
 * 3/4 or 1. The two games of a pair are not independent (an opening that
 * favours Red gives each engine a win), so the trinomial variance
 * overstates the noise and the test needs more games than it should: on
 * this project's SPRTs the variance of the mean is 0.74-0.93 of the
 * trinomial's (docs/matches.md, "The SPRT's model: game pairs").
 */
#include <stdbool.h>

typedef struct {
    int wins, draws, losses;
} Score3;

/* Game pairs by A's points in the pair: n[k] pairs scored k/2 of 2. */
typedef struct {
    int n[5];
} Score5;

typedef enum { SPRT_TRINOMIAL = 0, SPRT_PENTANOMIAL = 1 } SprtModel;

typedef struct {
    double elo0, elo1, alpha, beta;
    SprtModel model; /* zero: trinomial, the model of result files that name none */
} SprtParams;

typedef enum { SPRT_CONTINUE = 0, SPRT_H0 = 1, SPRT_H1 = 2 } SprtState;

static inline int stats_games(Score3 s) { return s.wins + s.draws + s.losses; }
/* Mean score per game (0..1); 0.5 with no games. */
double stats_score(Score3 s);
/* Logistic Elo for a mean score; clamped to +/-2000 at the ends. */
double stats_elo_of_score(double score);
/* Expected score for an Elo difference. */
double stats_score_of_elo(double elo);
/* Elo difference and the half-width of its 95% confidence interval. */
double stats_elo(Score3 s);
double stats_elo_error(Score3 s);
/* Likelihood of superiority: P(true Elo > 0), from wins and losses. */
double stats_los(Score3 s);
double stats_draw_ratio(Score3 s);
/* Log-likelihood ratio of H1 (elo1) against H0 (elo0); 0 while undefined. */
double stats_llr(Score3 s, SprtParams p);
/* The stopping bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double stats_llr_lower(SprtParams p);
double stats_llr_upper(SprtParams p);
SprtState stats_sprt(Score3 s, SprtParams p);

/* The pentanomial model: pairs, mean score per game, Elo, its 95% margin,
 * the LLR (0 while undefined) and the SPRT's state. */
int stats5_pairs(Score5 s);
double stats5_score(Score5 s);
double stats5_elo(Score5 s);
double stats5_elo_error(Score5 s);
double stats5_llr(Score5 s, SprtParams p);
SprtState stats5_sprt(Score5 s, SprtParams p);
/* "trinomial" or "pentanomial"; parse: false for another word. */
const char *stats_model_name(SprtModel m);
bool stats_model_parse(const char *word, SprtModel *m);
