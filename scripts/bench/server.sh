#!/usr/bin/env bash
# The map server against the Mapnik peer of shared/bench/peer-tileserver, side by side in one run,
# with wrk on 127.0.0.1 (2 threads, 10 connections, DUR each, default 20s):
#  1. tiles of zooms 3–6 rendered per request (no cache): `mapwright serve --no-cache` against
#     Mapnik under gunicorn (2 sync workers), both cycling through all 5,440 tiles;
#  2. a 1024×768 static image centred on 10°E 50°N at zoom 3 (256-px convention);
#  3. cached tiles: `mapwright serve` with its image cache (warmed by one pass) against MapProxy
#     serving the same tiles from its seeded file cache.
# Goal: requests/s ≥ 2× the peer's, with a lower 99th-percentile latency (1 and 2).
# usage: bash scripts/bench/server.sh [BENCH_DIR (default ../shared/bench)]    (DUR=20s by default)
# Peer (Debian, installed by the peer's setup.sh as root): python3-mapnik, gunicorn, mapproxy, wrk.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup server 1 "$@"
DUR=${DUR:-20s}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
PEER="$OUT/peer"
cp -r "$BENCH/peer-tileserver" "$PEER"
(cd "$PEER" && sh setup.sh >/dev/null 2>&1) || { echo "peer setup failed (run as root: it installs Debian packages)"; exit 1; }
LUA="$PEER/tiles_z3_6.lua"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$OUT"; }
trap cleanup EXIT

(cd "$PEER" && exec gunicorn -w 2 -b 127.0.0.1:8091 mapnik_wsgi:application --access-logfile /dev/null --error-logfile "$OUT/raw.err") &
pids+=($!)
(cd "$PEER" && exec gunicorn -w 2 -b 127.0.0.1:8092 mapproxy_app:application --access-logfile /dev/null --error-logfile "$OUT/mp.err") &
pids+=($!)
"$MW" serve --port 8093 --no-cache --log-level warning > "$OUT/mw.out" 2> "$OUT/mw.err" &
pids+=($!)
"$MW" serve --port 8094 --log-level warning > "$OUT/mwc.out" 2> "$OUT/mwc.err" &
pids+=($!)
for port in 8091 8092 8093 8094; do
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done
(cd "$PEER" && rm -rf cache/land && mapproxy-seed -q -f mapproxy.yaml -s seed.yaml -c "$(nproc)" --seed=ALL >/dev/null 2>&1) || true
echo "servers: mapwright serve ($(sed -n 's/.*(\([0-9]* renderers.*\))$/\1/p' "$OUT/mw.out")); Mapnik $(/usr/bin/python3 -c 'import mapnik; print(mapnik.mapnik_version())' 2>/dev/null) under gunicorn -w 2; wrk -t2 -c10 -d$DUR"

# wrk: "NAME  req/s  p50  p99"
run() {
  local name=$1; shift
  "$@" > "$OUT/$name.txt" 2>&1 || true
  local rps p50 p99 errs
  rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$OUT/$name.txt")
  p50=$(awk '$1=="50%"{print $2}' "$OUT/$name.txt")
  p99=$(awk '$1=="99%"{print $2}' "$OUT/$name.txt")
  errs=$(grep -E "Non-2xx|Socket errors" "$OUT/$name.txt" | tr '\n' ' ' || true)
  printf '%-34s %9s req/s   p50 %-9s p99 %-9s %s\n' "$name" "$rps" "$p50" "$p99" "$errs"
  eval "RPS_${name//-/_}=$rps; P99_${name//-/_}=$p99"
}
ms() { python3 -c "
s='$1'
print(float(s[:-2]) if s.endswith('ms') else float(s[:-2]) / 1000 if s.endswith('us') else float(s[:-1]) * 1000)"; }
W="wrk -t2 -c10 -d$DUR --timeout 10s --latency"
run peer_tiles_z3_6     env PREFIX="" $W -s "$LUA" http://127.0.0.1:8091
run mapwright_tiles_z3_6 env PREFIX=/tiles $W -s "$LUA" http://127.0.0.1:8093
run peer_static_1024x768 $W "http://127.0.0.1:8091/static/10,50,3/1024x768.png"
run mapwright_static_1024x768 $W "http://127.0.0.1:8093/static?center=50,10&zoom=3&size=1024x768&attribution=false"
# Cached: one pass over the tiles first (mapwright's cache; MapProxy's is seeded).
env PREFIX=/tiles wrk -t2 -c10 -d10s --timeout 10s -s "$LUA" http://127.0.0.1:8094 >/dev/null 2>&1 || true
run mapproxy_cached_tiles_z3_6 env PREFIX=/tiles/1.0.0/land/webmercator $W -s "$LUA" http://127.0.0.1:8092
run mapwright_cached_tiles_z3_6 env PREFIX=/tiles $W -s "$LUA" http://127.0.0.1:8094
echo "ratio tiles req/s mapwright/peer (goal >= 2): $(python3 -c "print(f'{$RPS_mapwright_tiles_z3_6/$RPS_peer_tiles_z3_6:.2f}')"); p99 $(ms "$P99_mapwright_tiles_z3_6") ms vs $(ms "$P99_peer_tiles_z3_6") ms (goal: lower)"
echo "ratio static req/s mapwright/peer (goal >= 2): $(python3 -c "print(f'{$RPS_mapwright_static_1024x768/$RPS_peer_static_1024x768:.2f}')"); p99 $(ms "$P99_mapwright_static_1024x768") ms vs $(ms "$P99_peer_static_1024x768") ms (goal: lower)"
echo "cached tiles req/s mapwright/MapProxy: $(python3 -c "print(f'{$RPS_mapwright_cached_tiles_z3_6/$RPS_mapproxy_cached_tiles_z3_6:.2f}')")"
