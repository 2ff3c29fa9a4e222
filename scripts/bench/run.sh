#!/usr/bin/env bash
# The benchmark: renders the standard scene of shared/bench/ (and its 100k, 1M, scribble and
# 3D variants) in-process with `mapwright render --repeat`, and the Mapnik peer on the same
# machine, printing medians and the machine.
# usage: bash scripts/bench/run.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 30)]
# Peer tools (Debian): python3-mapnik python3-geographiclib libmagics++-data.
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH=${1:-../shared/bench}
RUNS=${2:-30}
OUT=$(mktemp -d /tmp/mapwright-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
swift build -c release --product mapwright >/dev/null
BIN=$(swift build -c release --show-bin-path)/mapwright
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
python3 scripts/bench/make_scenes.py "$BENCH" "$OUT"
run() {
  local name=$1
  local line
  line=$("$BIN" render --scene "$OUT/$name.json" -o "$OUT/$name.png" --repeat "$RUNS" 2>&1 >/dev/null | grep '^render:' || true)
  echo "mapwright $name: ${line#render: }"
  echo "$line" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' > "$OUT/$name.median"
}
"$BIN" render --print-gl-info --basemap none --center 0,0 --zoom 1 -o "$OUT/probe.png" 2>&1 >/dev/null | grep -i '^gl' || true
for s in route-10k route-100k route-1m scribble-100k columns-200-pitch60; do run "$s"; done
if /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null && [ -f /usr/share/magics/10m/ne_10m_land.shp ]; then
  peer=$(/usr/bin/python3 scripts/bench/mapnik_peer.py "$BENCH" --runs "$RUNS")
  echo "$peer"
  pm=$(echo "$peer" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  mm=$(cat "$OUT/route-10k.median")
  [ -n "$pm" ] && [ -n "$mm" ] && python3 -c "print(f'ratio mapwright/mapnik (standard scene): {$mm/$pm:.2f}')"
else
  echo "mapnik peer skipped: apt-get install python3-mapnik python3-geographiclib libmagics++-data"
fi
m10=$(cat "$OUT/route-10k.median"); m1m=$(cat "$OUT/route-1m.median"); m3d=$(cat "$OUT/columns-200-pitch60.median" 2>/dev/null || true)
[ -n "$m10" ] && [ -n "$m1m" ] && python3 -c "print(f'ratio 1M/10k: {$m1m/$m10:.2f}')"
[ -n "$m10" ] && [ -n "$m3d" ] && python3 -c "print(f'ratio 3D (200 columns, pitch 60)/flat: {$m3d/$m10:.2f}')"
exit 0
