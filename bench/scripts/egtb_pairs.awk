# SPDX-License-Identifier: GPL-3.0-or-later
# What the tables changed in a match of Tuong with its endgame tables
# against Tuong without (docs/egtb.md, "Tables against none: the SPRT"),
# per group of the suite (a table and a value, from the EPD's comments):
#
#   awk -f bench/scripts/egtb_pairs.awk SUITE.epd [base=1 BASE.pgn] base=0 MATCH.pgn
#
# MATCH.pgn is the match (the engine with the tables named `tables`, set
# with -v name=NAME otherwise); its games on one position are paired in
# the order played (tuong-match plays each twice, the colours swapped).
# Per group: the tables' wins, draws and losses, and the pairs in which
# the tables scored more than the other engine, as much, or less. With
# BASE.pgn, a node-limited match of the engine without tables against
# itself on the same positions (its games replayable: a fixed node count,
# one thread), also the games of MATCH whose result differs from BASE's
# game on the same position, for the tables' side and against it.
BEGIN { if (name == "") name = "tables"; base = -1; FS = "\n" }

# The suite: a FEN, " ; ", the table (or TABLE+X) and its value.
base == -1 {
  split($0, f, " ; ")
  split(f[2], c, " ")
  group[f[1]] = c[1] " " c[2]
  if (!((c[1] " " c[2]) in seen)) { seen[c[1] " " c[2]] = 1; order[++ngroups] = c[1] " " c[2] }
  next
}

/^\[/ { header = 1 }
/^\[White "/ { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white) }
/^\[FEN "/ { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen) }
/^\[Result "/ { res = $0; sub(/^\[Result "/, "", res); sub(/"\]$/, "", res) }
# A game: at the blank line that ends its tags (the FEN comes after the result).
/^$/ && header {
  header = 0
  red = res == "1-0" ? 1 : res == "0-1" ? 0 : 0.5 # Red's score
  if (base == 1) { if (!(fen in basered)) basered[fen] = red; next }
  g = fen in group ? group[fen] : "(not in the suite)"
  if (!(g in seen)) { seen[g] = 1; order[++ngroups] = g }
  mine = white == name ? red : 1 - red
  games[g]++
  if (mine == 1) w[g]++; else if (mine == 0) l[g]++; else d[g]++
  if (fen in basered) {
    known[g]++
    if (red != basered[fen]) {
      if ((white == name) == (red > basered[fen])) better[g]++; else worse[g]++
    }
  }
  # Pairs: the first game of a position waits for its second.
  if (fen in open) {
    s = open[fen] + mine; delete open[fen]
    pairs[g]++
    if (s > 1) pup[g]++; else if (s < 1) pdown[g]++; else peven[g]++
  } else open[fen] = mine
}

END {
  printf "%-16s %5s %4s %4s %4s %6s %6s %6s", "group", "games", "W", "D", "L", "pairs+", "pairs=", "pairs-"
  printf " %9s %8s %8s\n", "vs base", "changed+", "changed-"
  for (i = 1; i <= ngroups; i++) {
    g = order[i]
    if (!games[g]) continue
    printf "%-16s %5d %4d %4d %4d %6d %6d %6d", g, games[g], w[g], d[g], l[g], pup[g], peven[g], pdown[g]
    printf " %9d %8d %8d\n", known[g], better[g], worse[g]
    T["games"] += games[g]; T["w"] += w[g]; T["d"] += d[g]; T["l"] += l[g]
    T["pup"] += pup[g]; T["peven"] += peven[g]; T["pdown"] += pdown[g]
    T["known"] += known[g]; T["better"] += better[g]; T["worse"] += worse[g]
  }
  printf "%-16s %5d %4d %4d %4d %6d %6d %6d", "all", T["games"], T["w"], T["d"], T["l"], T["pup"], T["peven"], T["pdown"]
  printf " %9d %8d %8d\n", T["known"], T["better"], T["worse"]
}
