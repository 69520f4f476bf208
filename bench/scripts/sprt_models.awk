# The trinomial and pentanomial SPRT models on the games of tuong-match logs
# (docs/matches.md, "The SPRT's model: game pairs").
#
#   awk -f bench/scripts/sprt_models.awk [-v elo0=0] [-v elo1=10] [-v runs=N] [-v seed=S] LOG...
#
# Reads the "Game N/T RED vs BLACK: RESULT ..." lines that tuong-match prints
# (without -quiet) for a match of two engines; the engine named first in the
# running score is "A". Games 2i-1 and 2i (1-based) are a pair: one opening,
# colours swapped. Prints, for the games read, the variance of the mean score
# and the LLR under both models. With runs=N it then plays N simulated SPRTs
# per model at Elo elo0, (elo0+elo1)/2 and elo1: game pairs are drawn from
# the log's joint pair results, tilted to each mean score, and the SPRT
# (alpha = beta = 0.05) stops at the first game or pair that decides. It
# reports the mean games to a decision and how often H1 was accepted.

function score_of_elo(e) { return 1 / (1 + 10 ^ (-e / 400)) }

# LLR of n samples with sum t and sum of squares q (0 while undefined).
function llr(n, t, q,   m, v) {
    if (n < 2) return 0
    m = t / n; v = q / n - m * m
    if (v <= 0) return 0
    return n * (S1 - S0) * (2 * m - S0 - S1) / (2 * v)
}

# Tilted pair probabilities P[k] whose mean pair score is target.
function tilt(target,   lo, hi, it, t, k, w, sw, sm) {
    lo = -40; hi = 40
    for (it = 0; it < 100; it++) {
        t = (lo + hi) / 2; sw = 0; sm = 0
        for (k = 1; k <= NC; k++) { w = BASE[k] * exp(t * PM[k]); sw += w; sm += w * PM[k] }
        if (sm / sw < target) lo = t; else hi = t
    }
    for (k = 1; k <= NC; k++) P[k] = BASE[k] * exp(t * PM[k]) / sw
}

# One simulated SPRT of each model; sets G3, H3, G5, H5.
function simulate(   n3, t3, q3, n5, t5, q5, r, k, c, x, l, i, done3, done5) {
    n3 = t3 = q3 = n5 = t5 = q5 = 0; done3 = done5 = 0
    for (i = 0; i < 50000 && !(done3 && done5); i++) {
        r = rand(); c = 0
        for (k = 1; k < NC; k++) { c += P[k]; if (r <= c) break }
        x = GA[k]; n3++; t3 += x; q3 += x * x
        if (!done3) { l = llr(n3, t3, q3); if (l >= UP || l <= -UP) { done3 = 1; G3 = n3; H3 = l > 0 } }
        x = GB[k]; n3++; t3 += x; q3 += x * x
        if (!done3) { l = llr(n3, t3, q3); if (l >= UP || l <= -UP) { done3 = 1; G3 = n3; H3 = l > 0 } }
        n5++; t5 += PM[k]; q5 += PM[k] * PM[k]
        if (!done5) { l = llr(n5, t5, q5); if (l >= UP || l <= -UP) { done5 = 1; G5 = 2 * n5; H5 = l > 0 } }
    }
    if (!done3) { G3 = n3; H3 = -1 }
    if (!done5) { G5 = 2 * n5; H5 = -1 }
}

BEGIN {
    if (elo0 == "") elo0 = 0
    if (elo1 == "") elo1 = 10
    if (runs == "") runs = 0
    if (seed == "") seed = 1
    S0 = score_of_elo(elo0); S1 = score_of_elo(elo1); UP = log(0.95 / 0.05)
}

/^Game [0-9]+\/[0-9]+ [^ ]+ vs [^ ]+: / {
    split($2, num, "/"); g = num[1] + 0
    red = $3; res = $6
    if (A == "") { if (match($0, /; [^ ]+ vs [^ ]+: \+/)) { split(substr($0, RSTART + 2), w, " "); A = w[1] } }
    s = res == "1-0" ? 1 : res == "0-1" ? 0 : res == "1/2-1/2" ? 0.5 : -1
    if (s < 0) next
    G[FILENAME, g] = red == A ? s : 1 - s
    if (!((FILENAME, g) in SEEN)) { SEEN[FILENAME, g] = 1; NAMES[++NG] = FILENAME SUBSEP g }
    if (g > MAXG[FILENAME]) MAXG[FILENAME] = g
    FILES[FILENAME] = 1
}

END {
    if (!NG) { print "sprt_models.awk: no game lines" > "/dev/stderr"; exit 1 }
    n3 = t3 = q3 = n5 = t5 = q5 = 0
    for (f in FILES) for (g = 1; g <= MAXG[f]; g++) {
        if (!((f, g) in G)) continue
        x = G[f, g]; n3++; t3 += x; q3 += x * x
        if (g % 2 == 1 && (f, g + 1) in G) {
            y = G[f, g + 1]; p = (x + y) / 2; n5++; t5 += p; q5 += p * p
            key = x " " y
            if (!(key in CELL)) { CELLS[++NC] = key; GA[NC] = x; GB[NC] = y; PM[NC] = p }
            CELL[key]++
        }
    }
    m3 = t3 / n3; v3 = (q3 / n3 - m3 * m3) / n3
    printf "%d games, mean score %.4f; %d pairs\n", n3, m3, n5
    if (n5 < 2) exit 0
    m5 = t5 / n5; v5 = (q5 / n5 - m5 * m5) / n5
    printf "variance of the mean: games %.3g, pairs %.3g, ratio %.3f\n", v3, v5, v5 / v3
    printf "LLR [%g, %g]: trinomial %.2f, pentanomial %.2f\n", elo0, elo1, llr(n3, t3, q3), llr(n5, t5, q5)
    if (runs <= 0) exit 0
    for (k = 1; k <= NC; k++) BASE[k] = CELL[CELLS[k]] / n5
    srand(seed)
    for (j = 0; j < 3; j++) {
        e = elo0 + j * (elo1 - elo0) / 2
        tilt(score_of_elo(e))
        sg3 = sh3 = sg5 = sh5 = 0
        for (r = 0; r < runs; r++) { simulate(); sg3 += G3; sh3 += H3 == 1; sg5 += G5; sh5 += H5 == 1 }
        printf "Elo %g: trinomial %.0f games, H1 %.1f%%; pentanomial %.0f games, H1 %.1f%%\n", e, sg3 / runs,
               100 * sh3 / runs, sg5 / runs, 100 * sh5 / runs
    }
}
