#!/usr/bin/env bash
# The motion benchmarks (issue "Motion"), side by side in one run, medians, machine printed:
#  1. `mapwright animate` of the standard bench scene plus three pulses, 1024×768, 60 frames to a
#     directory of PNG frames, RUNS times (frames per second), against the Mapnik peer
#     (shared/bench/mapnik_scene_peer.py: the same still scene rendered per frame with PNG);
#  2. the live-track append benchmark (1M-point live track: append one point and re-render,
#     against a re-render with nothing appended).
# usage: bash scripts/bench/motion.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 5)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup motion 5 "$@"
swift build -c release --static-swift-stdlib --product mapwright-bench >/dev/null
PULSES=(--pulse 37.76649,-122.4214196,150m --pulse 37.7669728,-122.4156743,250m --pulse 37.7635399,-122.4197586,60px)
fps=()
for i in $(seq "$RUNS"); do
  rm -rf "$OUT/frames"
  line=$("$BINDIR/mapwright" animate --scene "$OUT/route-10k.json" -o "$OUT/frames/" "${PULSES[@]}" --fps 30 --duration 2 2>&1 | grep '^animate:')
  fps+=("$(echo "$line" | sed -n 's/.*(\([0-9.]*\) fps).*/\1/p')")
done
ours=$(printf '%s\n' "${fps[@]}" | median)
echo "mapwright animate (standard scene + 3 pulses, 60 frames to PNG, $RUNS runs): median $ours fps (runs: ${fps[*]})"
if /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null && [ -f /usr/share/magics/10m/ne_10m_land.shp ]; then
  peer=$(/usr/bin/python3 "$BENCH/mapnik_scene_peer.py" "$BENCH" "$BENCH/route-10k.csv" 60)
  pm=$(echo "$peer" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
  python3 -c "m=$pm; print(f'mapnik peer (same still scene per frame, PNG png32:z=1, 60 frames): median {m:.2f} ms = {1000/m:.1f} fps'); print(f'ratio mapwright/mapnik frame rate: {$ours/(1000/m):.2f} (goal >= 2)')"
else
  echo "mapnik peer skipped: apt-get install python3-mapnik python3-geographiclib libmagics++-data gdal-bin mapnik-utils"
fi
"$BINDIR/mapwright-bench" live-track "$BENCH/route-1m.csv" 30
