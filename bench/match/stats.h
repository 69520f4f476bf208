// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/*
 * Match statistics from one engine's point of view: Elo difference with a
 * 95% error margin, likelihood of superiority, and a sequential probability
 * ratio test on the logistic Elo scale (the trinomial GSPRT approximation
 * used by fishtest: LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var)).
 */
#include <stdbool.h>

typedef struct {
    int wins, draws, losses;
} Score3;

typedef struct {
    double elo0, elo1, alpha, beta;
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
