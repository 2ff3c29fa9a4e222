#!/usr/bin/env bash
# The benchmark: renders the standard scene of shared/bench/ (and its 100k, 1M, scribble and 3D
# variants) in-process with `mapwright render --repeat` (full redraws, PNG encoded, medians, with
# a breakdown), side by side in the same run with both Mapnik peers: the project's
# (scripts/bench/mapnik_peer.py: reprojects the land shapefile per render) and the shared fast one
# (shared/bench/mapnik_scene_peer.py: land pre-projected and indexed, png32:z=1). Then cold starts,
# whole processes from start to PNG written: `mapwright render` of the standard scene and of the
# 100k scribble, and a cold Mapnik script (scripts/bench/mapnik_cold.py) for the same scene.
# usage: bash scripts/bench/run.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 30)]
# Peer tools (Debian): python3-mapnik python3-geographiclib libmagics++-data gdal-bin mapnik-utils.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup bench 30 "$@"
run() {
  local name=$1 out
  out=$("$MW" render --scene "$OUT/$name.json" -o "$OUT/$name.png" --repeat "$RUNS" 2>&1 >/dev/null || true)
  echo "mapwright $name: $(echo "$out" | grep '^render:' | sed 's/^render: //')"
  echo "  $(echo "$out" | grep '^breakdown')"
  echo "$out" | sed -n 's/^render:.*median \([0-9.]*\) ms.*/\1/p' > "$OUT/$name.median"
}
for s in route-10k route-100k route-1m scribble-100k columns-200-pitch60; do run "$s"; done
m10=$(cat "$OUT/route-10k.median")
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
if /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null && [ -f /usr/share/magics/10m/ne_10m_land.shp ]; then
  peer=$(/usr/bin/python3 scripts/bench/mapnik_peer.py "$BENCH" --runs "$RUNS")
  echo "mapnik (project's peer, reprojects land per render): $peer"
  pm=$(echo "$peer" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  [ -n "$pm" ] && echo "ratio mapwright/mapnik, project's peer (standard scene, PNG included): $(ratio "$m10" "$pm")"
  if command -v ogr2ogr >/dev/null && command -v shapeindex >/dev/null; then
    fast=$(/usr/bin/python3 "$BENCH/mapnik_scene_peer.py" "$BENCH" "$BENCH/route-10k.csv" "$RUNS")
    echo "mapnik (shared fast peer, pre-projected land, png32:z=1): $fast"
    fm=$(echo "$fast" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
    [ -n "$fm" ] && echo "ratio mapwright/mapnik, shared fast peer (standard scene, PNG included; goal <= 0.5): $(ratio "$m10" "$fm")"
  else
    echo "shared fast peer skipped: apt-get install gdal-bin mapnik-utils"
  fi
else
  echo "mapnik peers skipped: apt-get install python3-mapnik python3-geographiclib libmagics++-data"
fi
m1m=$(cat "$OUT/route-1m.median"); m3d=$(cat "$OUT/columns-200-pitch60.median")
echo "ratio 1M/10k (goal <= 1.2): $(ratio "$m1m" "$m10")"
echo "ratio 3D (200 columns, pitch 60)/flat (goal <= 1.3): $(ratio "$m3d" "$m10")"
# Cold starts: whole processes, start to PNG written, median of 7.
cold() { local t=(); for _ in 1 2 3 4 5 6 7; do s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); t+=("$(( (e - s) / 1000000 ))"); done; printf '%s\n' "${t[@]}" | median; }
c10=$(cold "$MW" render --scene "$OUT/route-10k.json" -o "$OUT/cold.png")
echo "cold mapwright render, standard scene: median $c10 ms"
csc=$(cold "$MW" render --scene "$OUT/scribble-100k.json" -o "$OUT/cold-scribble.png")
echo "cold mapwright render, 100k scribble (goal <= 400 ms): median $csc ms"
if /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null && command -v ogr2ogr >/dev/null; then
  /usr/bin/python3 scripts/bench/mapnik_cold.py "$BENCH" "$OUT/mapnik-cold.png" # makes the pre-projected land once
  cm=$(cold /usr/bin/python3 scripts/bench/mapnik_cold.py "$BENCH" "$OUT/mapnik-cold.png")
  echo "cold mapnik script (python start, set-up, render, PNG): median $cm ms"
  echo "ratio cold mapwright/mapnik (goal <= 0.6): $(ratio "$c10" "$cm")"
fi
exit 0
