#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Perft speed benchmark: times `tuong perft` from the start position and,
# when given, a reference engine's `go perft` on the same machine in the same
# run (alternating, best of N), so the ratio survives a noisy machine. Both
# wall-clock and CPU time (user + sys) are shown, the table's allocation and
# the reference's start-up included (use depth 6: at depth 4 start-up is most
# of Pikafish's time). -a passes options to `tuong perft` (e.g. -a "--threads
# 2 --hash 1024").
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

out=$(mktemp)
trap 'rm -f "$out"' EXIT
# command... -> "wall cpu" in seconds, cpu = user + sys of every thread (on
# a loaded machine the cpu time is the steadier figure); output in $out.
timed() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time "$@" >"$out" 2>&1; } 2>&1)
  read -r wall user sys <<<"$t"
  echo "$wall $(echo "$user + $sys" | bc)"
}
min() { if [ -z "$1" ] || [ "$(echo "$2 < $1" | bc)" = 1 ]; then echo "$2"; else echo "$1"; fi; }
ref_perft() { printf 'go perft %s\nquit\n' "$depth" | "$ref"; }

# shellcheck disable=SC2086 # $args holds several words on purpose
tuong_perft() { "$tuong" perft "$depth" $args; }
nodes="" wall_t="" cpu_t="" wall_r="" cpu_r=""
for ((i = 0; i < runs; i++)); do
  read -r w c <<<"$(timed tuong_perft)"
  wall_t=$(min "$wall_t" "$w") cpu_t=$(min "$cpu_t" "$c")
  nodes=$(sed -n 's/^Nodes searched: *//p' "$out")
  if [ -n "$ref" ]; then
    read -r w c <<<"$(timed ref_perft)"
    wall_r=$(min "$wall_r" "$w") cpu_r=$(min "$cpu_r" "$c")
    [ "$(sed -n 's/^Nodes searched: *//p' "$out")" = "$nodes" ] || echo "warning: the reference counts differently" >&2
  fi
done
mnps() { echo "$nodes / $1 / 1000000" | bc -l; }
printf 'perft(%s) = %s nodes, best of %s\n' "$depth" "$nodes" "$runs"
printf 'tuong:     wall %8.3f s %7.1f Mnodes/s  cpu %8.3f s  (%s)\n' "$wall_t" "$(mnps "$wall_t")" "$cpu_t" \
  "${args:-1 thread, no table}"
if [ -n "$ref" ]; then
  printf 'reference: wall %8.3f s %7.1f Mnodes/s  cpu %8.3f s  (%s)\n' "$wall_r" "$(mnps "$wall_r")" "$cpu_r" "$ref"
  printf 'ratio tuong/reference speed: wall %.2f, cpu %.2f\n' "$(echo "$wall_r / $wall_t" | bc -l)" \
    "$(echo "$cpu_r / $cpu_t" | bc -l)"
fi
