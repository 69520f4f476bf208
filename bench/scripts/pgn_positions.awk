#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# Positions from the games of a tuong-match PGN (ICCS moves, "[FEN ...]"
# tags), as "FEN|move move ..." lines that bench/scripts/depth_at.sh reads:
# the game's start position and its first `ply` moves (default 40), for
# every game that has at least ply + 2 moves (so the position is still
# being played), at most `count` of them (default all). With -v from=F, every
# position after F, F + 1, ..., ply moves of each game instead, in order
# (a game's successive positions, for depth_at.sh -w).
#
#   awk -f bench/scripts/pgn_positions.awk [-v from=F] [-v ply=40] [-v count=N] games.pgn
BEGIN {
    if (ply == "") ply = 40
    if (ply !~ /^[0-9]+$/ || (count != "" && count !~ /^[0-9]+$/) || (from != "" && from !~ /^[0-9]+$/)) {
        print "pgn_positions: error: from, ply and count want whole numbers" > "/dev/stderr"
        bad = 1; exit 2
    }
    if (from == "") first = ply
    else if (from + 0 > ply + 0) {
        print "pgn_positions: error: from " from " is past ply " ply > "/dev/stderr"
        bad = 1; exit 2
    } else first = from + 0
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
}
/^\[Event / { finish_game(); fen = start; ingame = 1 }
/^\[FEN / { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen) }
/^[^\[]/ && ingame { text = text " " $0 }
function finish_game(    line, n, moves, i, k, out) {
    line = text; text = ""
    if (!ingame || (count != "" && printed >= count + 0)) return
    gsub(/\{[^}]*\}/, " ", line)  # comments may be wrapped, so the text is whole here
    n = 0
    while (match(line, /[a-i][0-9][a-i][0-9]/)) {
        moves[++n] = substr(line, RSTART, 4)
        line = substr(line, RSTART + 4)
    }
    if (n < ply + 2) return
    for (k = first; k <= ply + 0; k++) {
        out = fen "|"
        for (i = 1; i <= k; i++) out = out (i > 1 ? " " : "") moves[i]
        print out
    }
    printed++
}
END { if (!bad) finish_game(); if (bad) exit 2 }
