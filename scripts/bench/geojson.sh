#!/usr/bin/env bash
# A GeoJSON choropleth, side by side with Mapnik in one run (medians of RUNS, default 5):
# 22 500 squares in five colours at fill-opacity 0.6 (make_choropleth.py), with the simplestyle
# outline and without, seen at zoom 14 (about 3 700 squares in view) and zoom 12 (all of them),
# 1024×768. mapwright: `render --repeat` (the frame's breakdown, PNG included; the file loaded once,
# its polygons merged into sets by `Overlay.mergingAlikeRuns`) and the cold process (start to PNG
# written, the file read and merged). Mapnik: mapnik_choropleth.py, in-process, render and PNG.
# usage: bash scripts/bench/geojson.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 5)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup geojson 5 "$@"
python3 scripts/bench/make_choropleth.py "$OUT"
peer=0
/usr/bin/python3 -c 'import mapnik' 2>/dev/null && peer=1
for file in choropleth choropleth-nostroke; do
  for zoom in 14 12; do
    line=$("$MW" render --geojson "$OUT/$file.geojson" --center 48.86,2.34 --zoom $zoom --size 1024x768 \
             -o "$OUT/$file-$zoom.png" --repeat "$RUNS" 2>&1 | grep -E '^render:|^breakdown' | tr '\n' ' ')
    frame=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' <<<"$line")
    c=()
    for _ in $(seq "$RUNS"); do
      s=$(date +%s%N); "$MW" render --geojson "$OUT/$file.geojson" --center 48.86,2.34 --zoom $zoom --size 1024x768 -o "$OUT/cold.png" 2>/dev/null; e=$(date +%s%N)
      c+=("$(( (e - s) / 1000000 ))")
    done
    cold=$(printf '%s\n' "${c[@]}" | median)
    echo "$file zoom $zoom: mapwright frame median $frame ms, cold $cold ms; ${line#*breakdown (medians, ms): }"
    if [ $peer = 1 ]; then
      extra=""; [ $file = choropleth-nostroke ] && extra=nostroke
      m=$(/usr/bin/python3 scripts/bench/mapnik_choropleth.py "$OUT/$file.geojson" 48.86,2.34 $zoom 1024x768 "$RUNS" $extra | sed -n 's/median_ms=//p')
      echo "  Mapnik $m ms: mapwright/Mapnik $(python3 -c "print(f'{$frame/$m:.2f}')")"
    fi
  done
done
