#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# Where each engine of a tuong-match PGN spends its clock and how deep it
# gets: from the move comments ("{+12/17 0.48s}": score/depth time), per
# engine,
#   - the median completed depth and the median time of its first `first`
#     moves of each game (default 20), the measure issue 12 compares;
#   - the mean time and mean depth per band of its own move numbers
#     (1-10, 11-20, ...), the per-move time curve over a game.
# Moves without a depth (book moves, "{book}") are skipped.
#
#   awk -f bench/scripts/time_curve.awk [-v first=20] [-v band=10] games.pgn
BEGIN { if (first == "") first = 20; if (band == "") band = 10 }
/^\[White / { w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
/^\[Black / { b = $0; sub(/^\[Black "/, "", b); sub(/"\]$/, "", b) }
/^\[FEN / { split($0, f, " "); startside = (f[3] == "b") ? 1 : 0 }
/^\[Event / { startside = 0; ingame = 1; side = -1; n[0] = n[1] = 0 }
/^[^\[]/ && ingame {
    line = $0
    while (match(line, /\{[^}]*\}/)) {
        c = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        if (side < 0) side = startside
        name = side == 0 ? w : b
        k = ++n[side]
        side = 1 - side
        if (c !~ /\/[0-9]+ [0-9.]+s$/) continue
        split(c, parts, " ")
        d = parts[1]; sub(/^.*\//, "", d); d += 0
        t = parts[2]; sub(/s$/, "", t); t += 0
        names[name] = 1
        bn = int((k - 1) / band)
        if (bn > maxband) maxband = bn
        bt[name, bn] += t; bd[name, bn] += d; bc[name, bn]++
        if (k <= first) { ed[name, ++ec[name]] = d; et[name, ec[name]] = t }
    }
}
function median(arr, name, cnt,    i, j, v, tmp) {
    for (i = 1; i <= cnt; i++) tmp[i] = arr[name, i]
    for (i = 2; i <= cnt; i++) {
        v = tmp[i]
        for (j = i - 1; j >= 1 && tmp[j] > v; j--) tmp[j + 1] = tmp[j]
        tmp[j + 1] = v
    }
    return cnt % 2 ? tmp[(cnt + 1) / 2] : (tmp[cnt / 2] + tmp[cnt / 2 + 1]) / 2
}
END {
    for (name in names) {
        printf "%s: first %d moves of each game: median depth %s, median time %.2f s (%d moves)\n",
               name, first, median(ed, name, ec[name]), median(et, name, ec[name]), ec[name]
        for (i = 0; i <= maxband; i++)
            if (bc[name, i])
                printf "  moves %3d-%-3d  mean time %.2f s  mean depth %.1f  (%d moves)\n", i * band + 1,
                       (i + 1) * band, bt[name, i] / bc[name, i], bd[name, i] / bc[name, i], bc[name, i]
    }
}
