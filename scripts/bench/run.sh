#!/usr/bin/env bash
# The benchmark: renders the standard scene of shared/bench/ (and its 100k, 1M, scribble and 3D
# variants) in-process with `mapwright render --repeat` (full redraws, PNG encoded, medians, with
# a breakdown), side by side in the same run with both Mapnik peers: the project's
# (scripts/bench/mapnik_peer.py: reprojects the land shapefile per render) and the shared fast one
# (shared/bench/mapnik_scene_peer.py: land pre-projected and indexed, png32:z=1). Then cold starts,
# whole processes from start to PNG written: `mapwright render` of the standard scene and of the
# 100k scribble, and a cold Mapnik script (scripts/bench/mapnik_cold.py) for the same scene.
# The 3D ratio is also measured frame by frame in one process (`mapwright-bench pair`).
# usage: bash scripts/bench/run.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 30)]
# Peer tools (Debian): python3-mapnik python3-geographiclib libmagics++-data gdal-bin mapnik-utils.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup bench 30 "$@"
# The scenes take turns: ROUNDS rounds, each rendering every scene RUNS/ROUNDS times, so that a
# slow spell of this shared machine lands on all of them rather than on one; a scene's figure
# is the median of its rounds' medians, and its breakdown the middle round's.
ROUNDS=5
PER=$(( (RUNS + ROUNDS - 1) / ROUNDS ))
SCENES="route-10k route-100k route-1m scribble-100k columns-200-pitch60"
for r in $(seq $ROUNDS); do
  for s in $SCENES; do
    out=$("$MW" render --scene "$OUT/$s.json" -o "$OUT/$s.png" --repeat "$PER" 2>&1 >/dev/null || true)
    echo "$out" | sed -n 's/^render:.*median \([0-9.]*\) ms.*/\1/p' >> "$OUT/$s.medians"
    # The frame without PNG (basemap, plan, draw, read back) of this round, from its breakdown.
    frame=$(echo "$out" | sed -n 's/^breakdown.*basemap \([0-9.]*\), plan \([0-9.]*\), draw \([0-9.]*\), read back \([0-9.]*\),.*/\1 \2 \3 \4/p' \
      | awk '{print $1 + $2 + $3 + $4}')
    echo "${frame:-nan}" >> "$OUT/$s.frames"
    [ "$r" = $(( (ROUNDS + 1) / 2 )) ] && echo "$out" | grep '^breakdown' > "$OUT/$s.breakdown"
  done
done
for s in $SCENES; do
  median < "$OUT/$s.medians" > "$OUT/$s.median"
  echo "mapwright $s: median of $ROUNDS rounds of $PER runs $(cat "$OUT/$s.median") ms (rounds: $(sort -n "$OUT/$s.medians" | tr '\n' ' '))"
  echo "  $(cat "$OUT/$s.breakdown")"
done
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
# Paired: each round's ratio of the two scenes' figures (rendered minutes apart at most), then
# the median of those; a slow spell that spans a round cancels out of its ratio. The figures are
# the rounds' medians (.medians) or frames without PNG (.frames).
paired() { python3 -c "
import statistics
a = [float(x) for x in open('$OUT/$1.${3:-medians}').read().split()]
b = [float(x) for x in open('$OUT/$2.${3:-medians}').read().split()]
r = [x / y for x, y in zip(a, b)]
print(f'{statistics.median(r):.2f} (rounds: ' + ' '.join(f'{x:.2f}' for x in r) + ')')"; }
echo "ratio 1M/10k (goal <= 1.2): $(ratio "$m1m" "$m10"); paired by round: $(paired route-1m route-10k)"
# The 3D goal is on the frame without PNG, judged by the frame-by-frame pairing below: these
# rounds run minutes apart, and a slow spell over one scene's round moves their ratios by ±0.3.
echo "ratio 3D (200 columns, pitch 60)/flat, PNG included (rounds; the goal is judged below): $(ratio "$m3d" "$m10"); paired by round: $(paired columns-200-pitch60 route-10k)"
echo "frame without PNG (basemap, plan, draw, read back): flat $(median < "$OUT/route-10k.frames") ms," \
  "3D $(median < "$OUT/columns-200-pitch60.frames") ms; ratio paired by round $(paired columns-200-pitch60 route-10k frames)"
# The 3D ratio again, the two scenes taking turns frame by frame in one process (a slow spell of
# the machine lasts far longer than a frame, so it lands on both): RUNS * 7 frames each.
swift build -c release --static-swift-stdlib --product mapwright-bench >/dev/null
echo "3D against flat, frame by frame in one process (mapwright-bench pair; goal: frame without PNG, paired, <= 1.3):"
"$BINDIR/mapwright-bench" pair "$OUT/route-10k.json" "$OUT/columns-200-pitch60.json" $(( RUNS * 7 )) | sed 's/^/  /'
# Cold starts: whole processes, start to PNG written, median of 7; mapwright and the cold Mapnik
# script take turns, for the same reason as the rounds above.
ms_of() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
peer_cold=false
if /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null && command -v ogr2ogr >/dev/null; then
  /usr/bin/python3 scripts/bench/mapnik_cold.py "$BENCH" "$OUT/mapnik-cold.png" # makes the pre-projected land once
  peer_cold=true
fi
: > "$OUT/cold-mw"; : > "$OUT/cold-mapnik"; : > "$OUT/cold-scribble"
for _ in 1 2 3 4 5 6 7; do
  ms_of "$MW" render --scene "$OUT/route-10k.json" -o "$OUT/cold.png" >> "$OUT/cold-mw"
  $peer_cold && ms_of /usr/bin/python3 scripts/bench/mapnik_cold.py "$BENCH" "$OUT/mapnik-cold.png" >> "$OUT/cold-mapnik"
  ms_of "$MW" render --scene "$OUT/scribble-100k.json" -o "$OUT/cold-scribble.png" >> "$OUT/cold-scribble"
done
c10=$(median < "$OUT/cold-mw")
echo "cold mapwright render, standard scene: median $c10 ms"
echo "cold mapwright render, 100k scribble (goal <= 400 ms): median $(median < "$OUT/cold-scribble") ms"
if $peer_cold; then
  cm=$(median < "$OUT/cold-mapnik")
  echo "cold mapnik script (python start, set-up, render, PNG): median $cm ms"
  echo "ratio cold mapwright/mapnik (goal <= 0.6): $(ratio "$c10" "$cm")"
fi
exit 0
