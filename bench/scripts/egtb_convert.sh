#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Does Tuong convert won table positions, and keep drawn ones, with its
# endgame tables and without them (issue 32; docs/egtb.md, "Converting won
# positions")? For each signature, WON won and DRAWN drawn positions are
# drawn at random from the tables (`tuong-egtb sample`, seeded), then
# played out by tuong-match at a fixed node count, Tuong against itself:
# once with UseEGTB on both sides, once with it off on both sides.
#
#   bench/scripts/egtb_convert.sh [-w WON] [-d DRAWN] [-m SIDE] [-n NODES]
#                                 [-s SEED] [-c GAMES] [-o DIR] [-p PLAYDIR]
#                                 TUONG TBDIR SIG...
#
# WON defaults to 50, DRAWN to 10, NODES to 20000, SEED to 1, -c (games at
# once) to 1. Won positions have the winner to move; drawn ones the side
# SIDE: strong (the attacking side), weak or any (the default; most drawn
# positions have the weaker side to move, often about to capture). TUONG is
# the engine; tuong-egtb and tuong-match are taken from its directory.
# PLAYDIR (default TBDIR) holds the tables the engines load when UseEGTB
# is on: a directory without SIG's own tables but with the smaller ones its
# captures lead into measures positions one capture away from the tables,
# where the search's WDL probes, not the root ranking, have to find the
# way. The sampled positions, PGN and one line per game
# (games.tsv) go to DIR (default: a new directory under /tmp). tuong-match
# plays every position twice, with the engines' colours swapped; both
# games start with the side to move of the position, so every game counts.
# A won game is converted when the side to move at the start (the table's
# winner) wins it within the no-capture limit (tuong-match's -nocapture,
# 120 plies); a drawn game is kept when it is not lost by either side.
# Where TBDIR holds a signature's DTM file (tuong-egtb build --dtm), the
# last column counts the converted games that lasted longer than their
# position's DTM (the table's plies to mate with both sides perfect): 0
# when the winner followed DTM all the way; "-" without a DTM file.
set -euo pipefail

usage() { sed -n '3,33p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "egtb_convert.sh: error: $*" >&2; exit 2; }

won=50 drawn=10 side=any nodes=20000 seed=1 conc=1 out= play=
while getopts "w:d:m:n:s:c:o:p:h" opt; do
  case $opt in
    w) won=$OPTARG ;;
    d) drawn=$OPTARG ;;
    m) side=$OPTARG ;;
    n) nodes=$OPTARG ;;
    s) seed=$OPTARG ;;
    c) conc=$OPTARG ;;
    o) out=$OPTARG ;;
    p) play=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage
tuong=$1 tb=$2
shift 2
for n in "won:$won" "drawn:$drawn" "nodes:$nodes" "seed:$seed" "games at once:$conc"; do
  [[ ${n#*:} =~ ^[0-9]+$ ]] || die "${n%%:*} wants a number, not '${n#*:}'"
done
[ "$won" -gt 0 ] || [ "$drawn" -gt 0 ] || die "nothing to play: -w and -d are both 0"
[[ $side =~ ^(strong|weak|any)$ ]] || die "-m wants strong, weak or any, not '$side'"
[ -x "$tuong" ] || die "no engine '$tuong'"
bin=$(dirname "$tuong")
for tool in tuong-egtb tuong-match; do [ -x "$bin/$tool" ] || die "no $tool next to $tuong"; done
[ -d "$tb" ] || die "no table directory '$tb'"
[ -n "$play" ] || play=$tb
[ -d "$play" ] || die "no table directory '$play'"
[ -n "$out" ] || out=$(mktemp -d /tmp/egtb_convert.XXXXXX)
mkdir -p "$out"

# The positions: won ones with the winner to move (whichever side it is),
# drawn ones with SIDE to move. A position's FEN leads its line; the
# comment names its table and value.
epd=$out/positions.epd
: >"$epd"
for sig in "$@"; do
  for kind in win:$won:any draw:$drawn:$side; do
    IFS=: read -r value count mover <<<"$kind"
    [ "$count" -gt 0 ] || continue
    "$bin/tuong-egtb" sample "$tb" "$sig" --value "$value" --count "$count" --side-to-move "$mover" \
      --seed "$seed" >>"$epd" || exit 1
  done
done
positions=$(wc -l <"$epd")

# Each won position's DTM where its signature has a DTM file: FEN, tab, plies.
dtm=$out/dtm.tsv
: >"$dtm"
while IFS= read -r line; do
  fen=${line%% ;*} rest=${line#* ; }
  sig=${rest%% *}
  if [[ $rest != *" win "* ]] || [ ! -f "$tb/$sig.lzdtm" ]; then continue; fi
  d=$("$bin/tuong-egtb" probe "$tb" "$fen" | sed -n '1s/.* dtm \([0-9][0-9]*\).*/\1/p')
  [ -n "$d" ] && printf '%s\t%s\n' "$fen" "$d" >>"$dtm"
done <"$epd"

: >"$out/games.tsv"
for use in true false; do
  pgn=$out/tables-$use.pgn
  rm -f "$pgn"
  "$bin/tuong-match" -engine name=a cmd="$tuong" -engine name=b cmd="$tuong" \
    -each proto=ucci option.hashsize=16 option.egtbpaths="$play" option.useegtb=$use \
    -openings "$epd" -games $((2 * positions)) -nodes "$nodes" -concurrency "$conc" \
    -quiet -pgnout "$pgn" >"$out/match-$use.log"
  # One line per game: tables, signature, value, side to move at the
  # start, result, plies, the reason tuong-match gave, and the start's DTM
  # ("-" if none).
  awk -v use="$use" '
    FILENAME == ARGV[1] { split($0, d, "\t"); dtm[d[1]] = d[2]; next }
    FILENAME == ARGV[2] { split($0, f, " ; "); split(f[2], c, " "); sig[f[1]] = c[1]; val[f[1]] = c[2]; next }
    /^\[FEN "/ { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen); text = "" }
    /^\[Result "/ { res = $2; gsub(/[]"]/, "", res) }
    /^\[PlyCount "/ { plies = $2; gsub(/[]"]/, "", plies) }
    /^[^[]/ { text = text " " $0 }
    /(1-0|0-1|1\/2-1\/2)$/ && !/^\[/ {
      why = text; sub(/.*\{/, "", why); sub(/\}.*/, "", why) # the last comment
      split(fen, g, " ")
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", use == "true" ? "on" : "off", sig[fen], val[fen], g[2], res, plies, why,
             fen in dtm ? dtm[fen] : "-"
    }' "$dtm" "$epd" "$pgn" >>"$out/games.tsv"
done

# The table: per signature and tables on/off, won games converted and the
# mean plies to the win, drawn games kept, converted games over their DTM.
awk -F'\t' '
  {
    k = $2 "\t" $1
    if (!($2 in seen)) { seen[$2] = 1; sigs[++n] = $2 }
    winner = $4 == "w" ? "1-0" : "0-1"
    if ($3 == "win") {
      won[k]++
      if ($8 != "-") hasdtm[k] = 1
      if ($5 == winner) { conv[k]++; plies[k] += $6; if ($8 != "-" && $6 + 0 > $8 + 0) over[k]++ }
    }
    else { drawn[k]++; kept[k] += $5 == "1/2-1/2" }
  }
  END {
    printf "%-8s %-6s %13s %11s %11s %9s\n", "table", "tables", "converted", "mean plies", "draws kept", "over DTM"
    for (i = 1; i <= n; i++)
      for (j = 1; j <= 2; j++) {
        use = j == 1 ? "on" : "off"; k = sigs[i] "\t" use
        printf "%-8s %-6s %6d / %-4d %11s %5d / %-4d %9s\n", sigs[i], use, conv[k], won[k],
               conv[k] ? sprintf("%.1f", plies[k] / conv[k]) : "-", kept[k], drawn[k], hasdtm[k] ? over[k] + 0 : "-"
      }
  }' "$out/games.tsv"
echo "games: $out/games.tsv (each position twice), nodes $nodes, seed $seed"
