#!/usr/bin/env bash
# Makes vector-fixture.mbtiles with GDAL's MVT driver (an independent encoder) from the GeoJSON
# layers here. Needs gdal-bin. The tests read the archive and compare it with these files.
set -euo pipefail
cd "$(dirname "$0")"
rm -f vector-fixture.mbtiles /tmp/vector-fixture.gpkg
for layer in water transportation building place zones; do
  ogr2ogr -f GPKG -append -nln "$layer" /tmp/vector-fixture.gpkg "$layer.geojson"
done
ogr2ogr -f MVT vector-fixture.mbtiles /tmp/vector-fixture.gpkg -dsco FORMAT=MBTILES -dsco MINZOOM=0 -dsco MAXZOOM=14 \
  -dsco NAME=fixture -dsco DESCRIPTION="Mapwright test fixture" -dsco COMPRESS=YES
rm -f /tmp/vector-fixture.gpkg
