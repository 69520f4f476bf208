#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# The UCI_Elo of every level from all the measured pairings at once: reads
# the Markdown rows that bench/scripts/levels_ladder.sh prints
# ("| 8 vs 10 | 200 | +22 =13 −165 | 312 ± 66 | L10 1295 |"), from any
# number of ladders (steps of one level, of two, ...), and solves the
# weighted least squares
#     minimise  sum over pairings ((x_hi - x_lo - step) / sigma)^2,
# sigma = the 95 % half-width / 1.96, with one level held at the anchor.
# Prints "level elo ± 95 % half-width (relative to the anchor)" per level;
# every level from the lowest to the highest must be linked to the anchor.
#
#   awk -f bench/scripts/levels_fit.awk [-v anchor=10] [-v elo=2207] ladder.md [more.md ...]
BEGIN {
    if (anchor == "") anchor = 10
    if (elo == "") elo = 2207
    lo = 1000; hi = -1
}
/^\| *[0-9]+ vs [0-9]+ \|/ {
    n = split($0, f, "|")
    split(f[2], p, " vs ")
    split(f[5], e, "±")
    i = p[1] + 0; j = p[2] + 0
    if (e[2] + 0 <= 0) next
    np++
    from[np] = i; to[np] = j; step[np] = e[1] + 0; w[np] = 1 / ((e[2] / 1.96) ^ 2)
    if (i < lo) lo = i
    if (j > hi) hi = j
}
END {
    if (!np) { print "levels_fit: error: no pairing rows read" > "/dev/stderr"; exit 2 }
    if (anchor < lo || anchor > hi) { print "levels_fit: error: the anchor level " anchor " is in no pairing" > "/dev/stderr"; exit 2 }
    # Unknowns: the levels lo..hi but the anchor, numbered 1..m.
    m = 0
    for (k = lo; k <= hi; k++) if (k != anchor) idx[k] = ++m
    for (r = 1; r <= m; r++) for (c = 1; c <= 2 * m + 1; c++) M[r, c] = 0
    for (q = 1; q <= np; q++) {
        # residual = x_to - x_from - step; the anchor's term is a constant
        cst = -step[q]; nt = 0
        if (to[q] == anchor) cst += elo; else { nt++; tv[nt] = idx[to[q]]; tc[nt] = 1 }
        if (from[q] == anchor) cst -= elo; else { nt++; tv[nt] = idx[from[q]]; tc[nt] = -1 }
        for (a = 1; a <= nt; a++) {
            M[tv[a], m + 1] -= w[q] * tc[a] * cst
            for (b = 1; b <= nt; b++) M[tv[a], tv[b]] += w[q] * tc[a] * tc[b]
        }
    }
    for (r = 1; r <= m; r++) M[r, m + 1 + r] = 1
    # Gauss-Jordan on [A | b | I]: the solution, and the inverse for the errors.
    for (c = 1; c <= m; c++) {
        piv = c
        for (r = c + 1; r <= m; r++) if (abs(M[r, c]) > abs(M[piv, c])) piv = r
        if (abs(M[piv, c]) < 1e-12) { print "levels_fit: error: level " level_of(c) " is not linked to the anchor" > "/dev/stderr"; exit 2 }
        if (piv != c) for (k = 1; k <= 2 * m + 1; k++) { t = M[c, k]; M[c, k] = M[piv, k]; M[piv, k] = t }
        d = M[c, c]
        for (k = 1; k <= 2 * m + 1; k++) M[c, k] /= d
        for (r = 1; r <= m; r++) if (r != c && M[r, c] != 0) {
            g = M[r, c]
            for (k = 1; k <= 2 * m + 1; k++) M[r, k] -= g * M[c, k]
        }
    }
    for (k = lo; k <= hi; k++) {
        if (k == anchor) { printf "%d %d ± 0 (anchor)\n", k, elo; continue }
        r = idx[k]
        printf "%d %d ± %d\n", k, round(M[r, m + 1]), round(1.96 * sqrt(M[r, m + 1 + r]))
    }
}
function abs(x) { return x < 0 ? -x : x }
function round(x) { return x < 0 ? -int(-x + 0.5) : int(x + 0.5) }
function level_of(c,   k) { for (k in idx) if (idx[k] == c) return k }
