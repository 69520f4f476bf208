#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The strength-level ladder of docs/levels.md: each level against the next
# one in the list, at the levels' own node caps, and the table of steps.
#
#   bench/scripts/levels_ladder.sh [-e ENGINE] [-m MATCH] [-g GAMES] [-s SEED]
#                                  [-n NODES] [-o DIR] LEVEL LEVEL [LEVEL...]
#
# ENGINE and MATCH default to build/tuong and build/tuong-match; GAMES to 200
# per pairing; SEED (default 21) is that of the first pairing, the next ones
# add 1. NODES (default 2000000) bounds level 20's nodes a move, which has no
# cap of its own. The PGN and log of each pairing go to DIR (default
# levels-ladder).
# Prints one Markdown row per pairing: games, the lower level's +W =D -L, the
# Elo of the step (the higher level's gain, 95 % interval) and the sum of the
# steps from the first level. Fixed node caps make the result independent of
# the machine's load, so this may share the machine with other work.
set -euo pipefail

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

engine=build/tuong match=build/tuong-match games=200 seed=21 nodes=2000000 out=levels-ladder
while getopts "e:m:g:s:n:o:h" opt; do
  case $opt in
    e) engine=$OPTARG ;;
    m) match=$OPTARG ;;
    g) games=$OPTARG ;;
    s) seed=$OPTARG ;;
    n) nodes=$OPTARG ;;
    o) out=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
case $nodes in
  ''|*[!0-9]*|0*) echo "levels_ladder: error: '$nodes' is not a node count (1 or more)" >&2; exit 2 ;;
esac
for level in "$@"; do
  case $level in
    ''|*[!0-9]*) echo "levels_ladder: error: '$level' is not a level (0..20)" >&2; exit 2 ;;
  esac
  [ "$level" -le 20 ] || { echo "levels_ladder: error: level $level is above 20" >&2; exit 2; }
done
for tool in "$engine" "$match"; do
  [ -x "$tool" ] || { echo "levels_ladder: error: $tool is not an executable" >&2; exit 2; }
done
openings=$(dirname "$0")/../../tests/data/openings/xiangqi.epd
mkdir -p "$out"

echo "| pairing | games | lower level +W =D −L | Elo of the step (95 %) | sum from level $1 |"
echo "|---|---:|---|---:|---:|"
sum=0
lower=$1; shift
for higher in "$@"; do
  log="$out/levels-$lower-$higher.log"
  # -nodes only bounds level 20: every lower level stops at its own cap.
  "$match" -engine name="L$lower" cmd="$engine" option.level="$lower" \
    -engine name="L$higher" cmd="$engine" option.level="$higher" \
    -each proto=ucci option.hashsize=16 -openings "$openings" -order random \
    -seed "$seed" -games "$games" -nodes "$nodes" -concurrency 2 \
    -resign movecount=3 score=500 -quiet -pgnout "$out/levels-$lower-$higher.pgn" >"$log" 2>&1 || {
      echo "levels_ladder: error: the match L$lower vs L$higher failed (see $log)" >&2; exit 1; }
  # "L0 vs L2: games 200, +40 =9 -71, score 35.7%" and "Elo difference -92.0 +/- 63.0 (95%), ..."
  record=$(sed -n "s/^L$lower vs L$higher: games \([0-9]*\), \(+[0-9]* =[0-9]* -[0-9]*\),.*/\1 \2/p" "$log" | tail -1)
  elo=$(sed -n 's/^ *Elo difference \([-+][0-9.]*\) +\/- \([0-9.]*\).*/\1 \2/p' "$log" | tail -1)
  [ -n "$record" ] && [ -n "$elo" ] || {
    echo "levels_ladder: error: no summary in $log" >&2; exit 1; }
  read -r n wins draws losses <<<"$record"
  read -r diff margin <<<"$elo"
  step=$(awk -v d="$diff" 'BEGIN { s = -d; printf "%d", int(s + (s < 0 ? -0.5 : 0.5)) }')
  sum=$((sum + step))
  echo "| $lower vs $higher | $n | $wins $draws ${losses/-/−} | $step ± ${margin%.*} | L$higher $sum |"
  lower=$higher
  seed=$((seed + 1))
done
