#!/usr/bin/env bash
# Issue 13's clean-exit evidence: processes ending while GL work may be in flight, with both
# cores loaded by two busy loops the whole time. Counts every non-zero exit (an abort is 134,
# a segfault 139).
#
#   scripts/exit-check.sh [RENDERS] [RACES]
#
# 1. RENDERS (default 500) consecutive `mapwright render` runs of a small scene (a 10k-point
#    route, a circle, a marker) at 512×384;
# 2. RACES (default 200) runs of `mapwright-bench exit-race DELAY explicit`: a thread creates a
#    renderer and renders frames non-stop while the main thread calls MapRenderer.shutdownAll()
#    and exit after a random 0–199 ms (during context creation, compilation or drawing);
# 3. RACES runs of `exit-race DELAY exit` with DELAY 300–599 ms: a plain exit after the first
#    frame, so the atexit handler does the teardown.
set -uo pipefail
cd "$(dirname "$0")/.."
RENDERS=${1:-500}; RACES=${2:-200}
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --static-swift-stdlib --product mapwright >/dev/null && swift build -c release --static-swift-stdlib --product mapwright-bench >/dev/null || exit 1
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
ROUTE=../shared/bench/route-10k.csv
[ -f "$ROUTE" ] || { echo "needs ../shared/bench/route-10k.csv"; exit 1; }
D=$(mktemp -d); trap 'kill $L1 $L2 2>/dev/null; rm -rf "$D"' EXIT
( while :; do :; done ) & L1=$!
( while :; do :; done ) & L2=$!
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
count() { # NAME N COMMAND… (the command gets the run number as $i)
  local name=$1 n=$2 fail=0; shift 2
  for i in $(seq 1 "$n"); do
    "$@" >/dev/null 2>"$D/err"; rc=$?
    if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "  $name run $i: exit $rc: $(head -c 160 "$D/err" | tr '\n' ' ')"; fi
  done
  echo "$name: $n runs, $fail non-zero exits"
}
count "mapwright render" "$RENDERS" "$BIN/mapwright" render --route "$ROUTE" --circle 48.2,16.37,500m --marker 48.2,16.37,X --size 512x384 -o "$D/o.png"
count "exit-race (shutdownAll, 0-199 ms)" "$RACES" bash -c "'$BIN/mapwright-bench' exit-race \$((RANDOM % 200)) explicit"
count "exit-race (atexit, 300-599 ms)" "$RACES" bash -c "'$BIN/mapwright-bench' exit-race \$((300 + RANDOM % 300)) exit"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
