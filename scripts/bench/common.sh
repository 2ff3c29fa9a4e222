# Sourced by the benchmark scripts (run.sh, motion.sh) after `set -euo pipefail`:
#   bench_setup NAME DEFAULT_RUNS "$@"  — BENCH (the shared bench directory, $1), RUNS ($2),
#     OUT (a scratch directory removed on exit, holding the scenes of make_scenes.py), MW (the
#     release mapwright binary, built), BINDIR; prints the machine, the date and load, and the GL
#     renderer;
#   median — the median of the numbers on standard input, one per line.
bench_setup() {
  local name=$1 runs=$2
  shift 2
  cd "$(dirname "${BASH_SOURCE[0]}")/../.."
  # The peers (Debian packages) are installed on first use, as root or through sudo.
  if ! /usr/bin/python3 -c 'import mapnik, geographiclib' 2>/dev/null || ! command -v shapeindex >/dev/null \
     || ! command -v ogr2ogr >/dev/null || ! command -v wrk >/dev/null || [ ! -f /usr/share/magics/10m/ne_10m_land.shp ]; then
    echo "installing the benchmark peers (scripts/install-deps.sh --bench)" >&2
    bash scripts/install-deps.sh --bench >&2 || echo "could not install the peers; their figures are skipped" >&2
  fi
  BENCH=$(cd "${1:-../shared/bench}" && pwd)
  RUNS=${2:-$runs}
  OUT=$(mktemp -d "/tmp/mapwright-$name.XXXXXX")
  trap 'rm -rf "$OUT"' EXIT
  swift build -c release --static-swift-stdlib --product mapwright >/dev/null
  BINDIR=$(swift build -c release --static-swift-stdlib --show-bin-path)
  MW=$BINDIR/mapwright
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ), load: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$MW" render --print-gl-info --basemap none --center 0,0 --zoom 1 -o "$OUT/probe.png" 2>&1 >/dev/null | grep -i '^gl' || true
  python3 scripts/bench/make_scenes.py "$BENCH" "$OUT" >/dev/null
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
