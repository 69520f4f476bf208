#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Long-run stability check (not CI): many games through tuong-match at a fast
# clock, counting crashes, illegal moves, moveless answers, time forfeits and
# hangs, and the peak resident memory of every engine process.
#
#   bench/longrun/longrun.sh [options]
#     -g GAMES        games per match (default 1000)
#     -t TC           clock BASE+INC in seconds (default 1+0.01)
#     -c N            games at once (default 1)
#     -r "SETTINGS"   also play a reference engine, given as tuong-match
#                     -engine settings, e.g.
#                     "name=FSF cmd=/usr/games/fairy-stockfish proto=uci ranks=1"
#                     "name=EleEye cmd=/tmp/eleeye/eleeye.bin proto=ucci timeunit=ms"
#     -b DIR          build directory with tuong and tuong-match (default build)
#     -o DIR          output directory (default /tmp/tuong-longrun-DATE)
#     -m MS           tuong-match -timemargin (default 500, its own default)
#   LONGRUN_MATCH_ARGS="..." adds tuong-match options (e.g. -log FILE).
#
# Tuong plays itself with one side in UCCI and the other in UCI, so both
# front ends run; each engine process runs under /usr/bin/time to log its
# peak RSS. Prints a summary and exits 1 if any count is not zero.
set -euo pipefail
cd "$(dirname "$0")/../.."

games=1000 tc=1+0.01 conc=1 ref="" build=build out="" margin=500
while getopts "g:t:c:r:b:o:m:" opt; do
  case $opt in
    g) games=$OPTARG ;; t) tc=$OPTARG ;; c) conc=$OPTARG ;; r) ref=$OPTARG ;;
    b) build=$OPTARG ;; o) out=$OPTARG ;; m) margin=$OPTARG ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
  esac
done
out=${out:-/tmp/tuong-longrun-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
tuong=$(realpath "$build/tuong") match=$(realpath "$build/tuong-match")
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, Debian package 'time')"; exit 2; }
openings=$(realpath tests/data/openings/xiangqi.epd)

# cmd= setting that runs $1 under GNU time, appending "peakKB exitstatus" to $2.
timed() { echo "cmd=/usr/bin/time -a -o $2 -f %M_%x $1"; }

run_match() { # name, engine settings...
  local name=$1
  shift
  echo "== $name: $games games at $tc, concurrency $conc -> $out/$name.*"
  local start=$SECONDS
  "$match" "$@" ${LONGRUN_MATCH_ARGS:-} -openings "$openings" -order random -seed 1 -games "$games" -tc "$tc" \
    -concurrency "$conc" -timemargin "$margin" -pgnout "$out/$name.pgn" >"$out/$name.log" 2>&1 || true
  echo "   $((SECONDS - start)) s"
  sed -n '/^=== /,$p' "$out/$name.log"
}

run_match self \
  -engine name=Tuong-ucci "$(timed "$tuong" "$out/self.tuong-ucci.mem")" proto=ucci \
  -engine name=Tuong-uci "$(timed "$tuong" "$out/self.tuong-uci.mem")" proto=uci option.Notation=iccs

if [ -n "$ref" ]; then
  # shellcheck disable=SC2086 # the reference settings are words on purpose
  run_match ref -engine name=Tuong "$(timed "$tuong" "$out/ref.tuong.mem")" proto=ucci -engine $ref
fi

echo "== summary ($out)"
bad=0
for log in "$out"/*.log; do
  m=$(basename "$log" .log)
  played=$(grep -c '^Game ' "$log" || true)
  crash=$(grep '^Game ' "$log" | grep -c 'crashed' || true)
  illegal=$(grep '^Game ' "$log" | grep -cE 'played an? ' || true)
  nomove=$(grep '^Game ' "$log" | grep -c 'gave no move' || true)
  timeloss=$(grep '^Game ' "$log" | grep -c 'forfeits on time' || true)
  echo "$m: games $played, crashes $crash, illegal/malformed moves $illegal, no move with legal moves $nomove, time forfeits $timeloss"
  # Overruns the margin forgave: what a referee without one would forfeit.
  grep '^Moves over the clock' "$log" | sed 's/^/  /' || true
  [ $((crash + illegal + nomove + timeloss)) -eq 0 ] || bad=1
  [ "$played" -eq "$games" ] || { echo "  only $played of $games games finished"; bad=1; }
  grep '^Game ' "$log" | grep -E 'crashed|played an? |gave no move|forfeits on time' | sed 's/^/  /' | head -20 || true
done
for mem in "$out"/*.mem; do
  [ -f "$mem" ] || continue
  peak=$(grep -oE '^[0-9]+' "$mem" | sort -n | tail -1)
  procs=$(grep -cE '^[0-9]+_' "$mem" || true)
  nonzero=$(grep -cvE '^[0-9]+_0$' "$mem" || true)
  echo "$(basename "$mem" .mem): $procs processes, peak RSS $((peak / 1024)) MB, $nonzero abnormal exits"
  [ "$nonzero" -eq 0 ] || bad=1
done
exit $bad
