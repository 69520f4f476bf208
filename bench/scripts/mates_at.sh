#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How many mate problems a UCI engine solves at a fixed time a move (issue
# 30, point 3): each position of the EPD file is searched with
# `go movetime MS` in one engine process, and counts as found when the last
# score the engine reported before `bestmove` is a mate for the side to
# move ("score mate N", N > 0); also counted: the mates of the problem's
# length (N = dm) and the best moves equal to the EPD's `bm`.
#
#   bench/scripts/mates_at.sh [-t MS | -n NODES] [-f EPD] [-o NAME=VALUE]... [-v] ENGINE [ARG...]
#
# MS defaults to 100; -n searches `go nodes NODES` instead, which counts
# the same on a loaded machine as on an idle one (to compare settings or
# nets without the clock's noise). EPD defaults to
# tests/data/tactics/mates.epd; each -o sends
# `setoption name NAME value VALUE` (e.g. -o Threads=1 -o Hash=16). -v
# prints one line per position: id, dm, found or not, the engine's mate
# distance and move. Prints "found F of N ..." at the end. The engine is any
# UCI engine (build/tuong, $OPP/pikafish-hce): compare them side by side,
# one after the other on the same machine.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

ms=100 nodes= epd=tests/data/tactics/mates.epd verbose=0 timed=0
opts=()
while getopts "t:n:f:o:vh" opt; do
  case $opt in
    t) ms=$OPTARG timed=1 ;;
    n) nodes=$OPTARG ;;
    f) epd=$OPTARG ;;
    o) opts+=("$OPTARG") ;;
    v) verbose=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[[ $ms =~ ^[1-9][0-9]*$ ]] || { echo "mates_at.sh: error: -t wants milliseconds, not '$ms'" >&2; exit 2; }
if [ -n "$nodes" ]; then
  [[ $nodes =~ ^[1-9][0-9]{0,11}$ ]] || { echo "mates_at.sh: error: -n wants a node count, not '$nodes'" >&2; exit 2; }
  [ $timed = 0 ] || { echo "mates_at.sh: error: -t and -n exclude each other" >&2; exit 2; }
  limit="nodes $nodes" what="$nodes nodes"
else
  limit="movetime $ms" what="${ms} ms"
fi
[ -r "$epd" ] || { echo "mates_at.sh: error: cannot read '$epd'" >&2; exit 2; }
command -v "$1" >/dev/null 2>&1 || { echo "mates_at.sh: error: no engine '$1'" >&2; exit 2; }

script=mates_at.sh
# The last score before `bestmove` decides: a mate distance, or none.
on_engine_line() {
  case $1 in
    *" score mate "*) mate=${1#*score mate } mate=${mate%% *} ;;
    *" score cp "*) mate=none ;;
  esac
}
# shellcheck source=uci_coproc.sh
. "$(dirname "$0")/uci_coproc.sh"
engine_start "$@"
engine_handshake ${opts[@]+"${opts[@]}"}

found=0 shortest=0 best=0 total=0
while IFS= read -r line; do
  [ -n "${line// /}" ] || continue
  read -r board side _ <<<"$line"
  id=$(sed -n 's/.*id "\([^"]*\)".*/\1/p' <<<"$line")
  dm=$(sed -n 's/.*dm \([0-9]*\);.*/\1/p' <<<"$line")
  bm=$(sed -n 's/.* bm \([a-i][0-9][a-i][0-9]\);.*/\1/p' <<<"$line")
  mate=none
  to_engine "ucinewgame"
  to_engine "position fen $board $side - - 0 1"
  to_engine "go $limit"
  wait_for bestmove
  move=$(awk '{print $2}' <<<"$REPLY")
  total=$((total + 1))
  ok=no
  if [[ $mate =~ ^[0-9]+$ ]] && [ "$mate" -gt 0 ]; then ok=yes found=$((found + 1)); fi
  [ $ok = yes ] && [ "$mate" = "$dm" ] && shortest=$((shortest + 1))
  [ "$move" = "$bm" ] && best=$((best + 1))
  [ $verbose = 1 ] && echo "$id dm $dm found $ok mate $mate move $move"
  to_engine isready
  wait_for readyok
done <"$epd"
to_engine quit
echo "found $found of $total at $what a move ($shortest of the problem's length, $best with its bm)"
