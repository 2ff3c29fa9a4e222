#!/usr/bin/env bash
# Installs the system libraries and test oracles Mapwright needs (Debian/Ubuntu, as root or via sudo).
# With --bench, also the benchmark peers (Mapnik, GDAL's ogr2ogr, wrk, MapProxy under gunicorn);
# the scripts under scripts/bench/ call it so when a peer is missing.
set -euo pipefail
BENCH_PEERS=0
[ "${1:-}" = "--bench" ] && BENCH_PEERS=1
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
PKGS=(
  pkg-config
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri   # headless OpenGL ES 3 through EGL (Mesa llvmpipe)
  libcairo2-dev libfreetype-dev fonts-dejavu-core        # 2D drawing and text
  libpangocairo-1.0-0 fonts-droid-fallback               # text DejaVu lacks: shaping (Arabic, Indic…), CJK glyphs (dlopen'd)
  libpng-dev                                             # PNG decoding (and encoding fallback)
  zlib1g-dev libisal-dev                                 # PNG encoding: zlib, and ISA-L's fast deflate
  libxml2                                                # FoundationXML (GPX)
  ffmpeg                                                 # MP4/WebM output of `mapwright animate` (optional at run time)
  libsdl2-dev                                            # the `mapwright view` window
  xvfb xdotool imagemagick xauth                         # window tests: a virtual X server, input and screenshots
  python3 python3-pip python3-pil python3-venv           # test oracles (Pillow decodes our APNGs)
  librsvg2-bin                                           # test oracle: rsvg-convert renders the Maki icons our symbols are checked against
  libturbojpeg0-dev libwebp-dev                          # JPEG and WebP tiles
  libgif-dev                                             # GIF output (Google Static Maps' format=gif)
  libsqlite3-dev                                         # MBTiles
  gdal-bin python3-gdal                                  # test oracles: archives made by gdal_translate and gdal2tiles.py
  chromium\|chromium-browser libjs-leaflet               # test oracle: Leaflet in a real browser shows our tile pyramids
  nginx-light\|nginx curl                                # `scripts/scale-out.sh`: replicas behind nginx with a shared cache
)
# A|B: the first of the names this release has (Debian's chromium is Ubuntu's chromium-browser;
# Debian 13 folded nginx-light into nginx); any of them already installed will do.
if [ "$BENCH_PEERS" = 1 ]; then
  PKGS+=(
    python3-mapnik python3-geographiclib libmagics++-data  # the Mapnik peers of scripts/bench/ (Natural Earth 10 m land)
    mapnik-utils gdal-bin                                  # shapeindex, ogr2ogr: the shared fast peer's pre-projected land
    wrk mapproxy python3-mapproxy gunicorn python3-gunicorn # HTTP load: wrk, and the peer tile server
  )
fi
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
need=()
for p in "${PKGS[@]}"; do
  have=0
  for alt in ${p//|/ }; do installed "$alt" && have=1; done
  [ "$have" = 1 ] || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  pick=()
  for p in "${need[@]}"; do
    chosen=""
    for alt in ${p//|/ }; do
      if apt-cache policy "$alt" 2>/dev/null | grep -q 'Candidate: [^(]'; then chosen=$alt; break; fi
    done
    pick+=("${chosen:-${p%%|*}}")
  done
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pick[@]}"
fi
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; else
    echo "install-deps: Swift 6.1 or newer is required (https://swift.org/install)" >&2; exit 1; fi
fi
# PyPI test oracles (tile archives made and read by other tools), in a venv beside the checkout.
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x "$ROOT/.venv-oracles/bin/pmtiles-convert" ] || [ ! -x "$ROOT/.venv-oracles/bin/mb-util" ] \
   || ! "$ROOT/.venv-oracles/bin/python" -c "import motionless" 2>/dev/null; then
  /usr/bin/python3 -m venv "$ROOT/.venv-oracles"
  # motionless: a Google Static Maps URL builder, the client the server's tests speak to.
  "$ROOT/.venv-oracles/bin/pip" install -q --disable-pip-version-check pmtiles==3.8.1 mbutil==0.3.0 motionless==1.3.3
fi
