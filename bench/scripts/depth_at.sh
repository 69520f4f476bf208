#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How deep a UCI engine gets within a node budget (issue 30: "depth per
# node"): each position is searched with `go nodes N` in one engine
# process, and its depth is the one of the last score line before
# `bestmove` that is neither a bound nor a `currmove` report. Node counts do
# not depend on the machine's load, so two engines can be compared on a
# busy machine; their speed (nodes per CPU second) is a separate question.
#
#   bench/scripts/depth_at.sh [-n NODES] [-f FILE] [-w] [-o NAME=VALUE]... [-v] ENGINE [ARG...]
#
# NODES defaults to 1000000. FILE holds one position a line, "FEN" or
# "FEN|move move ..." (ICCS moves from the FEN, as
# bench/scripts/pgn_positions.awk writes them); default standard input. -w
# keeps the hash between positions (no `ucinewgame`), as in a game when the
# lines are the successive positions of one game. Each -o sends `setoption
# name NAME value VALUE` (e.g. -o Threads=1 -o Hash=64). -v prints one line
# per position: its number, depth, seldepth. Prints "N positions at NODES
# nodes: mean depth D, median depth M" at the end.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

nodes=1000000 file=/dev/stdin warm=0 verbose=0
opts=()
while getopts "n:f:o:wvh" opt; do
  case $opt in
    n) nodes=$OPTARG ;;
    f) file=$OPTARG ;;
    o) opts+=("$OPTARG") ;;
    w) warm=1 ;;
    v) verbose=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[[ $nodes =~ ^[1-9][0-9]*$ ]] || { echo "depth_at.sh: error: -n wants a node count, not '$nodes'" >&2; exit 2; }
[ -r "$file" ] || { echo "depth_at.sh: error: cannot read '$file'" >&2; exit 2; }
command -v "$1" >/dev/null 2>&1 || { echo "depth_at.sh: error: no engine '$1'" >&2; exit 2; }

script=depth_at.sh
# The depth (and seldepth) of the last exact score line before `bestmove`.
on_engine_line() {
  case $1 in
    *currmove* | *bound*) ;;
    "info "*"depth "*" score "*)
      depth=${1#* depth } depth=${depth%% *}
      sel=none
      case $1 in *" seldepth "*) sel=${1#* seldepth } sel=${sel%% *} ;; esac ;;
  esac
}
# shellcheck source=uci_coproc.sh
. "$(dirname "$0")/uci_coproc.sh"
engine_start "$@"
engine_handshake ${opts[@]+"${opts[@]}"}
[ $warm = 1 ] && to_engine ucinewgame

depths=() count=0
while IFS= read -r line; do
  line=${line%$'\r'}
  [ -n "${line// /}" ] || continue
  fen=${line%%|*} moves=
  [[ $line == *"|"* ]] && moves=${line#*|}
  [ $warm = 1 ] || to_engine ucinewgame
  if [ -n "$moves" ]; then to_engine "position fen $fen moves $moves"; else to_engine "position fen $fen"; fi
  depth=0 sel=none
  to_engine "go nodes $nodes"
  wait_for bestmove
  count=$((count + 1))
  depths+=("$depth")
  [ $verbose = 1 ] && echo "$count depth $depth seldepth $sel"
  to_engine isready
  wait_for readyok
done <"$file"
to_engine quit
[ "$count" -gt 0 ] || { echo "depth_at.sh: error: no position in '$file'" >&2; exit 2; }
printf '%s\n' "${depths[@]}" | sort -n | awk -v n="$count" -v nodes="$nodes" '
  { d[NR] = $1; sum += $1 }
  END {
    med = n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2
    printf "%d positions at %d nodes: mean depth %.2f, median depth %s\n", n, nodes, sum / n, med
  }'
