#!/usr/bin/env bash
# The live-map benchmarks (issue "The live map"), medians, machine printed:
#  1. frame time in a real window: a scripted 5 s drag / rotate / zoom over the standard bench
#     scene at 1024×768 with three pulses animating, RUNS times (median of the runs' medians and
#     95th percentiles); goal: median ≤ 16.7 ms, p95 ≤ 33 ms;
#  2. the same with the custom GL layer example (--spinning-box);
#  3. idle: the window with nothing moving, CPU over 10 s (goal < 2 % of a core);
#  4. with VECTOR_TILES=ARCHIVE (a vector MBTiles/PMTiles, e.g. Protomaps' Florence sample, with
#     VECTOR_CENTER=LAT,LON, default central Florence): zooming in over it, 11.5 to 16 with +
#     once a second, and 24 wheel steps in from 12 then a drag (frames, median, p95); and a
#     3 s drag back and forth then a 1.5 s rotation at zoom 14, with pictures of the ground
#     standing in while the view moves (--ground-in-motion auto, the default) and with every
#     frame drawn in full (exact), the two taking turns.
# Runs under Xvfb when DISPLAY is not set (llvmpipe either way).
# usage: bash scripts/bench/view.sh [BENCH_DIR (default ../shared/bench)] [RUNS (default 3)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup view 3 "$@"
if [ -z "${DISPLAY:-}" ]; then
  n=$((200 + RANDOM % 300))
  Xvfb ":$n" -noreset -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
  XPID=$!
  trap 'kill -9 $XPID 2>/dev/null; rm -rf "$OUT"' EXIT
  export DISPLAY=":$n"
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
  echo "display: Xvfb :$n (1280x1024x24)"
fi
python3 - "$OUT/gestures.jsonl" <<'PYEOF'
# 5 s at 60 Hz: a 1.5 s drag, a 1.5 s right-drag rotation with a pitch, wheel zoom in and out.
import json, sys
ev = []
t = 0.0
ev.append({"t": 0, "type": "down", "x": 300, "y": 400})
for k in range(1, 90):
    ev.append({"t": k / 60, "type": "move", "x": 300 + 4 * k, "y": 400 - 1.5 * k})
ev.append({"t": 1.5, "type": "up", "x": 656, "y": 266})
ev.append({"t": 1.6, "type": "down", "x": 500, "y": 500, "button": "right"})
for k in range(1, 90):
    ev.append({"t": 1.6 + k / 60, "type": "move", "x": 500 + 2 * k, "y": 500 - 0.5 * k})
ev.append({"t": 3.1, "type": "up", "x": 678, "y": 455.5, "button": "right"})
for k in range(12):
    ev.append({"t": 3.2 + k * 0.1, "type": "wheel", "x": 512, "y": 384, "dy": -100.006103515625 if k < 6 else 100.006103515625})
ev.append({"t": 5.0, "type": "wait"})
open(sys.argv[1], "w").write("\n".join(json.dumps(e) for e in ev) + "\n")
PYEOF
PULSES=(--pulse 37.76649,-122.4214196,150m --pulse 37.7669728,-122.4156743,250m --pulse 37.7635399,-122.4197586,60px)
run_view() {  # label, extra flags…
  local label=$1; shift
  local meds=() p95s=()
  for _ in $(seq "$RUNS"); do
    line=$("$MW" view --scene "$OUT/route-10k.json" "${PULSES[@]}" --script "$OUT/gestures.jsonl" "$@" 2>&1 >/dev/null | grep '^view:')
    meds+=("$(echo "$line" | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')")
    p95s+=("$(echo "$line" | sed -n 's/.*p95 \([0-9.]*\) ms.*/\1/p')")
    frames=$(echo "$line" | sed -n 's/view: \([0-9]*\) frames.*/\1/p')
  done
  echo "$label: frame time median $(printf '%s\n' "${meds[@]}" | median) ms, p95 $(printf '%s\n' "${p95s[@]}" | median) ms (goal <= 16.7 / 33; runs: median ${meds[*]}, p95 ${p95s[*]}; $frames frames in the last run)"
}
run_view "window, standard scene + 3 pulses, 5 s drag/rotate/zoom, 1024x768"
run_view "same with the custom GL layer (--spinning-box)" --spinning-box 37.7665,-122.4185,120
if [ -n "${VECTOR_TILES:-}" ]; then
  python3 - "$OUT" <<'PYEOF'
import json, sys
keys = [{"t": t, "type": "key", "key": "+"} for t in (0.5, 1.5, 2.5, 3.5)] + [{"t": 5.0, "type": "wait"}]
wheel = [{"t": round(0.3 + k * 0.12, 3), "type": "wheel", "x": 512, "y": 384, "dy": -100.006103515625} for k in range(24)]
t = 0.3 + 24 * 0.12 + 0.2
wheel.append({"t": round(t, 3), "type": "down", "x": 300, "y": 400})
wheel += [{"t": round(t + k / 60, 3), "type": "move", "x": 300 + 4 * k, "y": 400 - 1.5 * k} for k in range(1, 90)]
wheel += [{"t": round(t + 1.5, 3), "type": "up", "x": 656, "y": 266}, {"t": round(t + 2.5, 3), "type": "wait"}]
drag = [{"t": 0.2, "type": "down", "x": 700, "y": 400}]
for k in range(1, 180):
    x = 700 - 600 * k / 180 if k < 90 else 400 + (k - 90) * 600 / 180
    y = 400 - k if k < 90 else 310 + (k - 90)
    drag.append({"t": round(0.2 + k / 60, 4), "type": "move", "x": round(x, 2), "y": round(y, 2)})
drag.append({"t": 3.2, "type": "up", "x": 700, "y": 400})
drag.append({"t": 3.4, "type": "down", "x": 500, "y": 500, "button": "right"})
drag += [{"t": round(3.4 + k / 60, 4), "type": "move", "x": 500 + 3 * k, "y": 500} for k in range(1, 90)]
drag += [{"t": 4.9, "type": "up", "x": 767, "y": 500, "button": "right"}, {"t": 6.0, "type": "wait"}]
for name, ev in (("keys", keys), ("wheel", wheel), ("drag", drag)):
    open(f"{sys.argv[1]}/vector-{name}.jsonl", "w").write("\n".join(json.dumps(e) for e in ev) + "\n")
PYEOF
  for name in keys wheel; do
    zoom=11.5; [ "$name" = wheel ] && zoom=12
    for _ in $(seq "$RUNS"); do
      line=$("$MW" view --tiles "$VECTOR_TILES" --center "${VECTOR_CENTER:-43.7696,11.2558}" --zoom "$zoom" \
             --script "$OUT/vector-$name.jsonl" 2>&1 >/dev/null | grep '^view:')
      echo "vector tiles, zoom in ($name): ${line#view: }"
    done
  done
  for _ in $(seq "$RUNS"); do
    for ground in auto exact; do
      line=$("$MW" view --tiles "$VECTOR_TILES" --center "${VECTOR_CENTER:-43.7696,11.2558}" --zoom 14 \
             --ground-in-motion "$ground" --script "$OUT/vector-drag.jsonl" 2>&1 >/dev/null | grep '^view:')
      echo "vector tiles, drag and turn at zoom 14, --ground-in-motion $ground: ${line#view: }"
    done
  done
fi
# Idle: nothing moves (no pulses), the window waits for input.
"$MW" view --scene "$OUT/route-10k.json" >/dev/null 2>&1 &
VPID=$!
sleep 3
ticks() { awk '{print $14 + $15}' "/proc/$VPID/stat"; }
a=$(ticks); sleep 10; b=$(ticks)
kill "$VPID" 2>/dev/null || true
hz=$(getconf CLK_TCK)
python3 -c "print(f'idle window: {($b - $a) / $hz / 10 * 100:.2f} % of a core over 10 s (goal < 2 %)')"
