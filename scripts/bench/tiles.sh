#!/usr/bin/env bash
# Tile benchmarks, side by side in one run (medians of RUNS, default 3):
#  1. `mapwright tiles` of the embedded basemap, zooms 0–6 (all 5,461 tiles of the world, PNG,
#     into an MBTiles archive) against the Mapnik peer of shared/bench/peer-tileserver seeding the
#     same pyramid with `mapproxy-seed` (MapProxy's file cache, 4×4 meta-tiles, 2 processes);
#     tiles per second for each and the ratio (goal ≥ 2).
#  2. The standard bench scene over an MBTiles raster basemap (256-px PNG tiles of the scene's
#     view, made by `mapwright tiles`) against the same scene over the embedded basemap, in-process
#     (`render --repeat`, tiles in memory after the first render) and cold (process start to PNG,
#     the archive read and tiles decoded on every run); ratio goal ≤ 1.5.
# usage: bash scripts/bench/tiles.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 3)]
# Peer (Debian, installed by the peer's setup.sh): mapproxy, python3-mapnik, gunicorn, gdal-bin.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup tiles 3 "$@"
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
WORLD="-85.0511287798,-180,85.0511287798,180"

# 1. Pyramids z0–6.
t=()
for _ in $(seq "$RUNS"); do
  rm -f "$OUT/world.mbtiles"
  s=$(date +%s%N); "$MW" tiles -o "$OUT/world.mbtiles" --bounds="$WORLD" --zooms 0-6 2>/dev/null; e=$(date +%s%N)
  t+=("$(( (e - s) / 1000000 ))")
done
mw_ms=$(printf '%s\n' "${t[@]}" | median)
count=$("$MW" tiles inspect "$OUT/world.mbtiles" | sed -n 's/^tile count: //p')
mw_tps=$(python3 -c "print(f'{$count / ($mw_ms / 1000):.1f}')")
echo "mapwright tiles z0-6: $count tiles, median $mw_ms ms = $mw_tps tiles/s ($(nproc) workers)"
if command -v mapproxy-seed >/dev/null && /usr/bin/python3 -c 'import mapnik' 2>/dev/null; then
  PEER="$OUT/peer"
  cp -r "$BENCH/peer-tileserver" "$PEER"
  (cd "$PEER" && sh setup.sh >/dev/null 2>&1) || { echo "peer setup failed (run as root: it installs Debian packages)"; exit 1; }
  p=()
  for _ in $(seq "$RUNS"); do
    rm -rf "$PEER/cache/land"
    s=$(date +%s%N); (cd "$PEER" && mapproxy-seed -q -f mapproxy.yaml -s seed.yaml -c "$(nproc)" --seed=ALL >/dev/null 2>&1); e=$(date +%s%N)
    p+=("$(( (e - s) / 1000000 ))")
  done
  peer_ms=$(printf '%s\n' "${p[@]}" | median)
  peer_count=$(find "$PEER/cache/land" -name '*.png' | wc -l)
  peer_tps=$(python3 -c "print(f'{$peer_count / ($peer_ms / 1000):.1f}')")
  echo "mapproxy-seed (Mapnik) z0-6: $peer_count tiles, median $peer_ms ms = $peer_tps tiles/s (-c $(nproc))"
  echo "ratio tiles/s mapwright/mapproxy-seed (goal >= 2): $(ratio "$mw_tps" "$peer_tps")"
else
  echo "mapproxy-seed peer skipped: sh $BENCH/peer-tileserver/setup.sh (as root)"
fi

# 2. The standard scene over an MBTiles raster basemap.
scene="$OUT/route-10k.json"
read -r lat lon z < <(python3 -c "
import json; d=json.load(open('$scene')); c=d['camera']; print(c['center'][0], c['center'][1], c['zoom'])")
# The archive: the embedded basemap as 256-px tiles at the zooms the view draws (and one above),
# over a box a little larger than the view.
tz=$(python3 -c "import math; print(math.floor($z + 1))")
box=$(python3 -c "print(f'{$lat-0.05},{$lon-0.07},{$lat+0.05},{$lon+0.07}')")
"$MW" tiles -o "$OUT/basemap.mbtiles" --bounds="$box" --zooms "$((tz - 1))-$tz" 2>/dev/null
rep() { "$MW" render --scene "$scene" -o "$OUT/$1.png" --repeat 30 "${@:2}" 2>&1 >/dev/null | sed -n 's/^render:.*median \([0-9.]*\) ms.*/\1/p'; }
emb=$(rep embedded)
ras=$(rep raster --basemap none --tiles "$OUT/basemap.mbtiles")
echo "standard scene over the embedded basemap: median $emb ms (in-process, PNG included)"
echo "standard scene over an MBTiles raster basemap: median $ras ms (in-process, PNG included)"
echo "ratio raster/embedded, in-process (goal <= 1.5): $(ratio "$ras" "$emb")"
cold() { local t=(); for _ in 1 2 3 4 5 6 7; do s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); t+=("$(( (e - s) / 1000000 ))"); done; printf '%s\n' "${t[@]}" | median; }
ce=$(cold "$MW" render --scene "$scene" -o "$OUT/cold-e.png")
cr=$(cold "$MW" render --scene "$scene" --basemap none --tiles "$OUT/basemap.mbtiles" -o "$OUT/cold-r.png")
echo "cold, embedded basemap: median $ce ms; cold, MBTiles raster basemap: median $cr ms"
echo "ratio raster/embedded, cold (goal <= 1.5): $(ratio "$cr" "$ce")"
