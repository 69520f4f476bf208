#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# valgrind --leak-check=full on scripted protocol sessions (UCCI and UCI):
# options, positions with moves, every kind of go, stop/ponderhit/isready
# while thinking, probe, banmoves, d, eval, perft, bench, newgame, quit;
# and a session that ends in end of input during an infinite search.
# Fails (exit 1) on any leak, invalid access or nonzero exit.
#
#   bench/longrun/valgrind-session.sh [path/to/tuong]   (default build/tuong)
set -euo pipefail
cd "$(dirname "$0")/../.."
TUONG=${1:-build/tuong}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 2; }
[ -x "$TUONG" ] || { echo "no engine at $TUONG"; exit 2; }

ucci_session() {
  echo ucci
  echo "setoption usemillisec true"
  echo "setoption hashsize 8"
  echo "setoption threads 2"
  echo isready
  echo "position startpos moves h2e2 h9g7 h0g2 i9h9"
  echo "go depth 4"
  echo isready
  sleep 3
  echo "banmoves b0c2 b2b9"
  echo "go nodes 2000"
  sleep 2
  echo "go infinite"
  sleep 1
  echo isready
  echo stop
  sleep 1
  echo "go ponder time 2000 increment 10"
  sleep 1
  echo "ponderhit draw"
  sleep 2
  echo "probe startpos moves h2e2 h9g7 h0g2 i9h9"
  echo "position fen 4k4/9/4R4/9/9/9/9/9/9/3K1R3 b - - 0 1"
  echo "go depth 3"
  echo "go depth 0"
  sleep 1
  echo "setoption newgame"
  echo d
  echo eval
  echo "go perft 2"
  echo "setoption hashsize 4"
  echo "go time 0"
  sleep 2
  echo quit
}

uci_session() {
  echo uci
  echo "setoption name Hash value 8"
  echo "setoption name Threads value 2"
  echo "setoption name MultiPV value 2"
  echo isready
  echo ucinewgame
  echo "position startpos moves h2e2 h9g7"
  echo "go wtime 3000 btime 3000 winc 10 binc 10"
  sleep 3
  echo "go movetime 300 searchmoves b0c2 h0g2"
  sleep 2
  echo "go infinite"
  sleep 1
  echo stop
  sleep 1
  echo "setoption name Clear Hash"
  echo "position fen 4k4/9/4R4/9/9/9/9/9/9/3K1R3 b - - 0 1"
  echo "go depth 2"
  sleep 1
  echo "position startpos moves h2e2 zz99"
  echo "bench 2"
  sleep 5
  echo quit
}

# The GUI dies while the engine thinks: end of input instead of quit.
eof_session() {
  echo ucci
  echo "setoption threads 2"
  echo "position startpos moves h2e2"
  echo "go infinite"
  sleep 2
}

rc=0
for dialect in ucci uci eof; do
  log=$(mktemp)
  echo "== valgrind --leak-check=full, $dialect session"
  "${dialect}_session" | valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 --log-file="$log" \
    "$TUONG" >/dev/null || rc=1
  grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|All heap blocks" "$log" | sed 's/^==[0-9]*== //'
  if [ $rc -ne 0 ]; then cat "$log"; fi
  rm -f "$log"
done
exit $rc
