#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Windows build under wine, as a Windows GUI would drive it (CI runs
# this from .ci/run after `cmake --preset windows && cmake --build --preset
# windows`):
#   1. tuong.exe --version names the flavour and windows; perft 4 counts
#      what tests/data/perft.epd says;
#   2. a UCCI and a UCI session with CRLF line ends: handshake, options, a
#      position with moves and a search whose bestmove the Linux build
#      accepts as legal; `stop` during `go infinite` answered within 100 ms
#      (best of up to five tries: on a busy machine even `isready` can take
#      that long; TUONG_WINE_STOP_MS overrides the bound); `quit` exits
#      with status 0; when the Linux build has tuong-egtb, a KRKA table it
#      makes is loaded (MapViewOfFile) and probed: tbhits on the info line;
#   3. two games of tuong.exe against the Linux tuong under the Linux
#      tuong-match, and two games of tuong-match.exe between two tuong.exe:
#      no crash, illegal move, time forfeit or missing move.
#
#   tests/windows/wine_check.sh [WINDOWS_BUILD_DIR [LINUX_BUILD_DIR]]
#
# Defaults: build-windows and build. Needs wine (Debian: wine and wine64).
set -euo pipefail
cd "$(dirname "$0")/../.."
win=${1:-build-windows} linux=${2:-build}
exe=$PWD/$win/tuong.exe
STOP_MS=${TUONG_WINE_STOP_MS:-100} TRIES=5
export WINEDEBUG=-all

wine=$(command -v wine64 || command -v wine || true)
[ -n "$wine" ] || { echo "wine_check: wine not found (apt-get install wine wine64)" >&2; exit 2; }
for f in "$exe" "$win/tuong-match.exe" "$linux/tuong" "$linux/tuong-match"; do
  [ -x "$f" ] || [ -f "$f" ] || { echo "wine_check: $f is missing: build it first" >&2; exit 2; }
done

fail() { echo "wine_check: FAIL: $*" >&2; exit 1; }
ok() { echo "wine_check: ok: $*"; }
now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# 1. The command line (the first wine start also makes the wine prefix: slow).
version=$("$wine" "$exe" --version | tr -d '\r')
[[ $version =~ ^Tuong\ .*\(git\ .*,\ (x86-64|avx2|native),\ windows\)(\ nnue\ [0-9a-f]{8})?$ ]] || fail "--version says '$version'"
ok "$version"
want=$(sed -n '1s/.*;D4 \([0-9]*\).*/\1/p' tests/data/perft.epd)
got=$("$wine" "$exe" perft 4 | tr -d '\r' | sed -n 's/^Nodes searched: //p')
[ "$got" = "$want" ] || fail "perft 4 counted '$got', not $want"
ok "perft 4 = $got"

# 2. A GUI session with CRLF line ends. The engine runs as a coprocess;
#    send writes one CRLF line, expect reads up to a line with a prefix.
send() { printf '%s\r\n' "$1" >&"${ENG[1]}"; }
expect() { # prefix [seconds]: the matching line in $REPLY
  local deadline=$((SECONDS + ${2:-20})) line
  while :; do
    local left=$((deadline - SECONDS))
    [ $left -gt 0 ] || left=1
    IFS= read -r -t "$left" line <&"${ENG[0]}" || fail "$dialect: no line starting with '$1' (last: '${line:-}')"
    line=${line%$'\r'}
    if [[ $line == "$1"* ]]; then
      REPLY=$line
      return 0
    fi
    [ $SECONDS -lt $deadline ] || fail "$dialect: no line starting with '$1' in time"
  done
}

session() { # ucci | uci
  dialect=$1
  coproc ENG { exec "$wine" "$exe"; }
  local pid=$ENG_PID
  send "$dialect"
  expect "id name "
  [ "$REPLY" = "id name $version" ] || fail "$dialect: '$REPLY' is not 'id name $version'"
  expect "${dialect}ok" 30
  if [ "$dialect" = ucci ]; then
    send "setoption usemillisec true"
    send "setoption hashsize 16"
  else
    send "setoption name UCI_Variant value xiangqi"
    send "setoption name Hash value 16"
  fi
  send "isready"
  expect "readyok"
  send "position startpos moves h2e2 h9g7"
  send "go depth 5"
  expect "bestmove "
  local move
  move=$(echo "$REPLY" | cut -d' ' -f2)
  # The Linux build judges the move: an illegal one gets an error line.
  local judged
  judged=$(printf '%s\nposition startpos moves h2e2 h9g7 %s\nd\nquit\n' "$dialect" "$move" | "$linux/tuong")
  if grep -q "error" <<<"$judged" || ! grep -q "^Fen: .* b - " <<<"$judged"; then
    fail "$dialect: bestmove '$move' is not legal after h2e2 h9g7"
  fi
  ok "$dialect: CRLF session, legal bestmove $move"
  if [ -n "$tables" ]; then
    local say="info string"
    if [ "$dialect" = ucci ]; then
      send "setoption egtbpaths Z:$tables"
      say="info message"
    else
      send "setoption name EGTBPath value Z:$tables"
    fi
    expect "$say endgame tables: 2 with WDL"
    send "position fen 3k5/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1"
    send "go depth 3"
    expect "info depth 3 "
    [[ $REPLY == *" tbhits "* ]] || fail "$dialect: no tbhits in '$REPLY'"
    expect "bestmove "
    send "position startpos"
    ok "$dialect: endgame tables mapped and probed"
  fi
  local best=999999 try t0 t1
  for try in $(seq $TRIES); do
    send "go infinite"
    send "isready"
    expect "readyok"
    sleep 0.5
    t0=$(now_ms)
    send "stop"
    expect "bestmove " 5
    t1=$(now_ms)
    [ $((t1 - t0)) -lt $best ] && best=$((t1 - t0))
    echo "wine_check: $dialect: stop answered in $((t1 - t0)) ms"
    [ $best -le $STOP_MS ] && break
  done
  [ $best -le $STOP_MS ] || fail "$dialect: stop took $best ms at best, more than $STOP_MS"
  ok "$dialect: stop answered in $best ms"
  send "quit"
  [ "$dialect" = ucci ] && expect "bye"
  local rc=0
  wait "$pid" || rc=$?
  [ $rc -eq 0 ] || fail "$dialect: quit exited with status $rc"
  ok "$dialect: quit exits 0"
}
# Endgame tables for the sessions (Linux tuong-egtb, bench/egtb is not in
# the Windows build); wine sees the Linux file system as drive Z:.
tables=
if [ -x "$linux/tuong-egtb" ]; then
  tables=$(mktemp -d)
  "$linux/tuong-egtb" build --out "$tables" KRKA >/dev/null || fail "tuong-egtb could not build KRKA"
fi
session ucci
session uci
[ -z "$tables" ] || rm -rf "$tables"

# 3. Games: no crash, illegal move, forfeit or missing move.
check_games() { # log, what
  grep -q "games 2," "$1" || fail "$2: two games were not played (see $1)"
  if grep -E "forfeits|crashed|gave no move|played an|bad opening" "$1"; then fail "$2: see $1"; fi
  ok "$2: $(grep -E '^[a-z]+ vs [a-z]+: games' "$1")"
}
out=$PWD/$win/wine_check
mkdir -p "$out"
"$linux/tuong-match" -engine name=windows "cmd=$wine $exe" proto=uci -engine name=linux "cmd=$PWD/$linux/tuong" \
  -openings tests/data/openings/ecco10.epd -games 2 -tc 1+0.02 -concurrency 1 -pgnout "$out/linux-match.pgn" \
  >"$out/linux-match.log" 2>&1 || fail "tuong-match (Linux) failed: $(tail -n 3 "$out/linux-match.log")"
check_games "$out/linux-match.log" "tuong.exe against the Linux tuong"
"$wine" "$win/tuong-match.exe" -engine name=ucci "cmd=$exe" -engine name=uci "cmd=$exe" proto=uci \
  -openings tests/data/openings/ecco10.epd -games 2 -depth 3 -concurrency 2 -pgnout "$out/windows-match.pgn" \
  >"$out/windows-match.log" 2>&1 || fail "tuong-match.exe failed: $(tail -n 3 "$out/windows-match.log")"
tr -d '\r' <"$out/windows-match.log" >"$out/windows-match.txt"
check_games "$out/windows-match.txt" "tuong-match.exe, tuong.exe against itself"
echo "wine_check: all passed"
