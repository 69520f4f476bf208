#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Perft speed benchmark: times `tuong perft` from the start position and,
# when given, a reference engine's `go perft` on the same machine in the same
# run (alternating, best of N), so the ratio survives a noisy machine. -a
# passes options to `tuong perft` (e.g. -a "--threads 2 --hash 1024"); the
# time is wall-clock, the table's allocation included.
#
#   bench/perft_speed.sh [-d depth] [-n runs] [-a "tuong options"] [-r /path/to/pikafish] [build/tuong]
set -euo pipefail
depth=5 runs=3 ref="" args=""
while getopts "d:n:r:a:" o; do
  case $o in
    d) depth=$OPTARG ;;
    n) runs=$OPTARG ;;
    r) ref=$OPTARG ;;
    a) args=$OPTARG ;;
    *) echo "usage: $0 [-d depth] [-n runs] [-a tuong-options] [-r reference-engine] [tuong]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
tuong=${1:-build/tuong}
[ -x "$tuong" ] || { echo "error: $tuong is not an executable (build first)" >&2; exit 2; }

seconds() { # command... -> wall seconds
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  echo "scale=3; ($e - $s) / 1000000000" | bc
}
ref_perft() { printf 'go perft %s\nquit\n' "$depth" | "$ref"; }

# shellcheck disable=SC2086 # $args holds several words on purpose
tuong_perft() { "$tuong" perft "$depth" $args; }
nodes=$(tuong_perft | sed -n 's/^Nodes searched: *//p')
best_t="" best_r=""
for ((i = 0; i < runs; i++)); do
  t=$(seconds tuong_perft)
  [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc)" = 1 ] && best_t=$t
  if [ -n "$ref" ]; then
    r=$(seconds ref_perft)
    [ -z "$best_r" ] || [ "$(echo "$r < $best_r" | bc)" = 1 ] && best_r=$r
  fi
done
printf 'perft(%s) = %s nodes\n' "$depth" "$nodes"
printf 'tuong:     %6.3f s  %7.1f Mnodes/s  (%s)\n' "$best_t" "$(echo "$nodes / $best_t / 1000000" | bc -l)" "${args:-1 thread, no table}"
if [ -n "$ref" ]; then
  printf 'reference: %6.3f s  %7.1f Mnodes/s  (%s)\n' "$best_r" "$(echo "$nodes / $best_r / 1000000" | bc -l)" "$ref"
  printf 'ratio tuong/reference speed: %.2f\n' "$(echo "$best_r / $best_t" | bc -l)"
fi
