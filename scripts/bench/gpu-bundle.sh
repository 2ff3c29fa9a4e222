#!/usr/bin/env bash
# Packs what `scripts/bench/gpu-run.sh` needs to run the benchmark on a machine that has a GPU but
# no Swift toolchain and none of our libraries: the release `mapwright` and `mapwright-bench`
# (built with --static-swift-stdlib, stripped, xz), every shared library they load (glibc's loader
# and libc included, so the bundle does not depend on the other machine's glibc; the EGL/GLES
# libraries are glvnd's, which load the GPU vendor's driver), DejaVu Sans with a fontconfig file,
# and the bench routes (xz). The driver itself is the other machine's.
# usage: [VECTOR_DIR=DIR] bash scripts/bench/gpu-bundle.sh [BENCH_DIR (default ../shared/bench)] [DEST (default .gl/run)]
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH=$(cd "${1:-../shared/bench}" && pwd)
DEST=${2:-.gl/run}
swift build -c release --static-swift-stdlib --product mapwright >/dev/null
swift build -c release --static-swift-stdlib --product mapwright-bench >/dev/null
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
rm -rf "$DEST" && mkdir -p "$DEST/lib" "$DEST/fonts" "$DEST/bench"
for b in mapwright mapwright-bench; do
  strip -o "$DEST/$b" "$BIN/$b"
  xz -T0 -6 "$DEST/$b"
done
# Pango is dlopen'd (complex-script shaping), so its closure is listed by hand.
{ ldd "$BIN/mapwright"; ldd "$BIN/mapwright-bench"; ldd "$(ldconfig -p | awk '/libpangocairo-1.0.so.0 /{print $NF; exit}')"; } \
  | awk '/=>/ && $3 ~ /^\// {print $3} /^\t\/.*ld-linux/ {print $1}' | sort -u \
  | while read -r l; do cp -L "$l" "$DEST/lib/"; done
(cd "$DEST/lib" && tar cf - . | xz -T0 > ../lib.tar.xz) && rm -rf "$DEST/lib"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$DEST/fonts/"
cat > "$DEST/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir prefix="relative">fonts</dir>
  <cachedir>/tmp/mapwright-fccache</cachedir>
</fontconfig>
CONF
cp "$BENCH/scene.json" "$DEST/bench/"
for f in "$BENCH"/route-*.csv; do xz -T0 -c "$f" > "$DEST/bench/$(basename "$f").xz"; done
# Optionally a directory of z/x/y vector tiles round central Florence (43.7696, 11.2558), which
# gpu-run.sh then draws at zoom 14.
if [ -n "${VECTOR_DIR:-}" ]; then tar cf - -C "$VECTOR_DIR" . | xz -T0 -6 > "$DEST/vector.tar.xz"; fi
du -sh "$DEST"
