#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# Where each engine of a tuong-match PGN spends its clock and how deep it
# gets: from the move comments ("{+12/17 0.48s}": score/depth time), per
# engine (in name order),
#   - the median completed depth and the median time of its first `first`
#     moves of each game (default 20), the measure issue 12 compares;
#   - the mean time, mean depth and median depth per band of its own move
#     numbers (1-10, 11-20, ...), the per-move time curve over a game.
# With -v balanced=S only the moves whose own score lies within +-S count:
# a side that is mating or being mated finishes deep iterations on a tiny
# tree, so decided positions inflate an engine's depth (issue 30 compares
# depth in moves 21-40 where the game is still open).
# Moves without a depth (book moves, "{book}") are skipped.
#
#   awk -f bench/scripts/time_curve.awk [-v first=20] [-v band=10] [-v balanced=S] games.pgn
BEGIN {
    if (first == "") first = 20
    if (band == "") band = 10
    if (balanced != "" && balanced !~ /^[0-9]+$/) {
        print "time_curve: error: balanced wants a score margin, not '" balanced "'" > "/dev/stderr"
        bad = 1; exit 2
    }
}
# The move text is parsed whole at the game's end: a comment may be wrapped
# over lines (cutechess wraps them), and a move's side is its comment's rank.
/^\[Event / { finish_game(); startside = 0; ingame = 1 }
/^\[White / { w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
/^\[Black / { b = $0; sub(/^\[Black "/, "", b); sub(/"\]$/, "", b) }
/^\[FEN / { split($0, f, " "); startside = (f[3] == "b") ? 1 : 0 }
/^[^\[]/ && ingame { text = text " " $0 }
function finish_game(    line, c, side, name, k, s, d, t, bn, parts, n) {
    line = text; text = ""
    side = startside; n[0] = n[1] = 0
    while (match(line, /\{[^}]*\}/)) {
        c = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        gsub(/[ \t\r\n]+/, " ", c); sub(/^ /, "", c); sub(/ $/, "", c)
        if (c !~ /\/[0-9]+ [0-9.]+s$/ && c != "book") continue  # a result's comment is no move
        name = side == 0 ? w : b
        k = ++n[side]
        side = 1 - side
        if (c == "book") continue
        split(c, parts, " ")
        s = parts[1]; sub(/\/.*$/, "", s); s += 0
        if (balanced != "" && (s > balanced + 0 || s < -balanced)) continue
        d = parts[1]; sub(/^.*\//, "", d); d += 0
        t = parts[2]; sub(/s$/, "", t); t += 0
        names[name] = 1
        bn = int((k - 1) / band)
        if (bn > maxband) maxband = bn
        bt[name, bn] += t; bd[name, bn] += d; bc[name, bn]++
        bdl[name SUBSEP bn, bc[name, bn]] = d
        if (k <= first) { ed[name, ++ec[name]] = d; et[name, ec[name]] = t }
    }
}
function median(arr, key, cnt,    i, j, v, tmp) {
    for (i = 1; i <= cnt; i++) tmp[i] = arr[key, i]
    for (i = 2; i <= cnt; i++) {
        v = tmp[i]
        for (j = i - 1; j >= 1 && tmp[j] > v; j--) tmp[j + 1] = tmp[j]
        tmp[j + 1] = v
    }
    return cnt % 2 ? tmp[(cnt + 1) / 2] : (tmp[cnt / 2] + tmp[cnt / 2 + 1]) / 2
}
END {
    if (bad) exit 2
    finish_game()
    if (balanced != "") printf "moves with a score within +-%d only\n", balanced
    nn = 0
    for (name in names) sorted[++nn] = name
    for (i = 2; i <= nn; i++) {
        v = sorted[i]
        for (j = i - 1; j >= 1 && sorted[j] > v; j--) sorted[j + 1] = sorted[j]
        sorted[j + 1] = v
    }
    for (q = 1; q <= nn; q++) {
        name = sorted[q]
        if (ec[name])
            printf "%s: first %d moves of each game: median depth %s, median time %.2f s (%d moves)\n",
                   name, first, median(ed, name, ec[name]), median(et, name, ec[name]), ec[name]
        else
            printf "%s: no move among the first %d of a game\n", name, first
        for (i = 0; i <= maxband; i++)
            if (bc[name, i])
                printf "  moves %3d-%-3d  mean time %.2f s  mean depth %.1f  median depth %s  (%d moves)\n",
                       i * band + 1, (i + 1) * band, bt[name, i] / bc[name, i], bd[name, i] / bc[name, i],
                       median(bdl, name SUBSEP i, bc[name, i]), bc[name, i]
    }
}
