#!/usr/bin/awk -f
# SPDX-License-Identifier: GPL-3.0-or-later
# When one engine's games of a tuong-match PGN were decided, by its own
# move number: a won game is decided at the first of its moves from which
# its own score stays at or above +margin to the end of the game, a lost
# one at the first from which it stays at or below -margin (default 150).
# Prints, per band of move numbers (1-10, 11-20, ...), how many wins and
# losses were decided there, and how many draws and losses it had once
# led by the margin. Time-management work asks this: are the games lost
# where the engine plays on the increment?
# Moves without a score (book moves) are skipped; a mate score counts as
# beyond any margin.
#
#   awk -f bench/scripts/decided_at.awk -v engine=NAME [-v margin=150] [-v band=10] games.pgn
BEGIN {
    if (engine == "") { print "decided_at: error: give -v engine=NAME" > "/dev/stderr"; failed = 1; exit 2 }
    if (margin == "") margin = 150
    if (band == "") band = 10
}
/^\[White / { w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
/^\[Black / { b = $0; sub(/^\[Black "/, "", b); sub(/"\]$/, "", b) }
/^\[Result / { res = $0; sub(/^\[Result "/, "", res); sub(/"\]$/, "", res) }
/^\[FEN / { split($0, f, " "); startside = (f[3] == "b") ? 1 : 0 }
/^\[Event / { finish(); startside = 0; ingame = 1; text = "" }
# The move text is parsed whole at the game's end: a comment may be wrapped.
/^[^\[]/ && ingame { text = text " " $0 }
END { if (!failed) { finish(); report() } }

function bandof(m) { return int((m - 1) / band) }

# The engine's result of the game just read: 1, 0.5, 0, or -1 if it did not play.
function result_of_engine() {
    if (w != engine && b != engine) return -1
    if (res == "1/2-1/2") return 0.5
    if (res == "1-0") return w == engine ? 1 : 0
    if (res == "0-1") return b == engine ? 1 : 0
    return -1
}

# Reads the engine's scores from the move comments ("{+12/17 0.48s}").
function read_scores(   line, c, side, mover, parts, s, v, nmoves) {
    scored = nmoves = 0
    side = startside
    line = text
    while (match(line, /\{[^}]*\}/)) {
        c = substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
        mover = side == 0 ? w : b
        side = 1 - side
        if (mover != engine) continue
        nmoves++
        gsub(/[ \t]+/, " ", c)
        if (c !~ /\/[0-9]+ [0-9.]+s$/) continue
        split(c, parts, "/")
        s = parts[1]
        if (s ~ /M|#/) v = (s ~ /^-/) ? -100000 : 100000
        else v = s + 0
        move[++scored] = nmoves
        score[scored] = v
    }
}

function finish(   r, i, sign, at) {
    if (!ingame) return
    ingame = 0
    read_scores()
    r = result_of_engine()
    if (r < 0 || scored == 0) return
    games++
    if (r == 0.5) { draws++ } else {
        sign = r == 1 ? 1 : -1
        at = 0
        for (i = scored; i >= 1 && sign * score[i] >= margin; i--) at = move[i]
        if (at) { decided[r == 1 ? "win" : "loss", bandof(at)]++; if (bandof(at) > top) top = bandof(at) }
        else undecided[r == 1 ? "win" : "loss"]++
        if (r == 1) wins++; else losses++
    }
    if (r != 1) {
        for (i = 1; i <= scored && score[i] < margin; i++) continue
        if (i <= scored) { if (r == 0.5) lead_draws++; else lead_losses++ }
    }
}

function report(   k) {
    printf "%s: %d games, %d wins, %d draws, %d losses; decided at a margin of %d\n", engine, games, wins, draws, losses, margin
    printf "%-9s %6s %6s\n", "moves", "wins", "losses"
    for (k = 0; k <= top; k++)
        printf "%-9s %6d %6d\n", (k * band + 1) "-" (k * band + band), decided["win", k], decided["loss", k]
    printf "%-9s %6d %6d\n", "never", undecided["win"], undecided["loss"]
    printf "led by %d and did not win: %d draws, %d losses\n", margin, lead_draws, lead_losses
}
