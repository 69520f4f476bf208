#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# Replays the clock of every game in a tuong-match PGN from its TimeControl
# tag ("BASE+INC" in seconds) and the move times in the comments ("{+5/10
# 0.04s}" or "{0.04s}"), and reports per engine: moves, the longest move,
# the least time left after a move, and how many moves overran the clock.
# For PGNs of tuong-match builds older than its own overrun count (b36d761),
# or of other tools. The PGN gives each time to 10 ms, and the rounding
# adds up over a game (about +/-25 ms after 75 moves), so only overruns
# larger than `slack` seconds (default 0.05) are counted as such.
#
#   awk -f bench/longrun/pgn_clock.awk [-v slack=0.05] games.pgn
BEGIN { if (slack == "") slack = 0.05 }
/^\[White / { w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
/^\[Black / { b = $0; sub(/^\[Black "/, "", b); sub(/"\]$/, "", b) }
/^\[FEN / { split($0, f, " "); first = (f[3] == "b") ? 1 : 0 }
/^\[TimeControl / {
    tc = $0; sub(/^\[TimeControl "/, "", tc); sub(/"\]$/, "", tc)
    split(tc, p, "+"); base = p[1] + 0; inc = p[2] + 0
}
/^\[Event / { first = 0; ingame = 1; side = -1 }
/^[^\[]/ && ingame {
    line = $0
    while (match(line, /\{[^}]*\}/)) {
        c = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        if (c !~ /[0-9]s$/) continue
        n = split(c, parts, " "); t = parts[n]; sub(/s$/, "", t); t += 0
        if (side < 0) { side = first; clock[0] = base; clock[1] = base }
        name = side == 0 ? w : b
        left = clock[side] - t
        moves[name]++
        if (!(name in maxmove) || t > maxmove[name]) maxmove[name] = t
        if (!(name in minleft) || left < minleft[name]) minleft[name] = left
        if (left < -slack) over[name]++
        if (left < 0) left = 0
        clock[side] = left + inc
        side = 1 - side
    }
}
END {
    for (name in moves)
        printf "%s: moves %d, longest move %.2f s, least time left after a move %.2f s, moves over the clock by more than %.2f s %d\n",
               name, moves[name], maxmove[name], minleft[name], slack, over[name] + 0
}
