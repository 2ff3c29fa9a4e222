#!/usr/bin/env bash
# Runs the benchmark scenes with the bundle of scripts/bench/gpu-bundle.sh on a machine that has a
# GPU (and perhaps nothing else of ours): in-process medians with the breakdown, at the default
# samples (4× MSAA on a GPU) and with shader antialiasing (--samples 0), the 3D/flat pair frame by
# frame, and cold starts. Writes the renders to $OUT (or ./gpu-out) to be looked at.
# usage: bash scripts/bench/gpu-run.sh [BUNDLE (default .gl/run)] [RUNS (default 30)]
set -uo pipefail
cd "$(dirname "$0")/../.."
BUNDLE=$(cd "${1:-.gl/run}" && pwd)
RUNS=${2:-30}
OUTDIR=${OUT:-$PWD/gpu-out}
mkdir -p "$OUTDIR"
W=$(mktemp -d /tmp/mapwright-gpu.XXXXXX)
mkdir -p "$W/lib" "$W/bench"
tar xJf "$BUNDLE/lib.tar.xz" -C "$W/lib"
for b in mapwright mapwright-bench; do
  [ -f "$BUNDLE/$b.xz" ] && xz -dc "$BUNDLE/$b.xz" > "$W/$b" && chmod +x "$W/$b"
done
cp "$BUNDLE/bench/scene.json" "$W/bench/"
for f in "$BUNDLE"/bench/*.csv.xz; do xz -dc "$f" > "$W/bench/$(basename "$f" .xz)"; done
export FONTCONFIG_FILE=$BUNDLE/fonts.conf
export MAPWRIGHT_BASEMAP=$PWD/Sources/MapTiles/Resources/basemap.mwb
# glvnd finds the GPU vendor's EGL driver through its JSON file; the driver's libraries are searched
# where NVIDIA's container images put them, then in the system's directories.
for j in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json \
         /etc/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$j" ] && { export __EGL_VENDOR_LIBRARY_FILENAMES=$j; break; }
done
LP=$W/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu
run() { local b=$1; shift; "$W/lib/ld-linux-x86-64.so.2" --library-path "$LP" "$W/$b" "$@"; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | sed 's/^/gpu: /'
echo "EGL vendor file: ${__EGL_VENDOR_LIBRARY_FILENAMES:-none found, glvnd defaults}"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
run mapwright render --print-gl-info --basemap none --center 0,0 --zoom 1 -o "$W/probe.png" 2>&1 >/dev/null | grep -i '^gl\|error' 
python3 scripts/bench/make_scenes.py "$W/bench" "$W" >/dev/null
for samples in default 0; do
  opt=(); [ "$samples" = default ] || opt=(--samples "$samples")
  for s in route-10k route-100k route-1m scribble-100k columns-200-pitch60; do
    out=$(run mapwright render --scene "$W/$s.json" -o "$W/$s-$samples.png" --repeat "$RUNS" "${opt[@]}" 2>&1 >/dev/null)
    echo "samples $samples, $s: $(echo "$out" | grep '^render:' | sed 's/^render: //')"
    echo "  $(echo "$out" | grep '^breakdown')"
    echo "$out" | grep -iv '^render:\|^breakdown' | head -3
  done
done
if [ -x "$W/mapwright-bench" ]; then  # (left out of a bundle that must be smaller)
  echo "3D against flat, frame by frame in one process (default samples):"
  run mapwright-bench pair "$W/route-10k.json" "$W/columns-200-pitch60.json" $(( RUNS * 7 )) 2>&1 | sed 's/^/  /'
fi
# A dense vector basemap, when the bundle has one (gpu-bundle.sh's VECTOR_DIR: z/x/y .pbf tiles
# round central Florence, e.g. cut from Protomaps' sample extract): the view at zoom 14, 1024×768.
if [ -f "$BUNDLE/vector.tar.xz" ]; then
  mkdir -p "$W/vector" && tar xJf "$BUNDLE/vector.tar.xz" -C "$W/vector"
  for samples in default 0; do
    opt=(); [ "$samples" = default ] || opt=(--samples "$samples")
    out=$(run mapwright render --tiles "$W/vector" --center 43.7696,11.2558 --zoom 14 --size 1024x768 \
          -o "$W/florence-$samples.png" --repeat "$RUNS" "${opt[@]}" 2>&1 >/dev/null)
    echo "samples $samples, vector tiles (Florence z14): $(echo "$out" | grep '^render:' | sed 's/^render: //')"
    echo "  $(echo "$out" | grep '^breakdown')"
  done
fi
ms_of() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
for s in route-10k scribble-100k; do
  for i in 1 2 3 4 5 6 7; do ms_of run mapwright render --scene "$W/$s.json" -o "$W/cold.png"; done | median > "$W/cold"
  echo "cold mapwright render $s (process start to PNG written, median of 7): $(cat "$W/cold") ms"
done
cp "$W/route-10k-default.png" "$W/columns-200-pitch60-default.png" "$W/route-10k-0.png" "$W/columns-200-pitch60-0.png" \
   "$W"/florence-*.png "$OUTDIR/" 2>/dev/null
rm -rf "$W"
