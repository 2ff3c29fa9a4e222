#!/usr/bin/python3
"""Cold Mapnik: one process that starts Python, imports Mapnik, sets up the standard bench scene
the fast way (as shared/bench/mapnik_scene_peer.py does: land pre-projected to EPSG:3857 and
indexed, overlays in memory datasources in EPSG:3857), renders it once and writes the PNG
(png32:z=1). Time the whole process from outside (scripts/bench/run.sh does).
Usage: /usr/bin/python3 scripts/bench/mapnik_cold.py SHARED_BENCH_DIR OUT.png"""
import csv, json, math, os, subprocess, sys
import mapnik
from geographiclib.geodesic import Geodesic

bench, out = sys.argv[1], sys.argv[2]
S = json.load(open(os.path.join(bench, 'scene.json')))
W, H = S['size']; Z = S['zoom']; clat, clon = S['center']
R = 6378137.0
def merc(lat, lon):
    return math.radians(lon) * R, math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * R
land = '/tmp/mapnik-peer/land_3857.shp'  # made once, as the shared peer makes it (not timed when present)
if not os.path.exists(land):
    os.makedirs('/tmp/mapnik-peer', exist_ok=True)
    subprocess.run(['ogr2ogr', '-f', 'ESRI Shapefile', '-t_srs', 'EPSG:3857', '-clipsrc', '-180', '-85.05112878', '180',
                    '85.05112878', land, '/usr/share/magics/10m/ne_10m_land.shp'], check=True, capture_output=True)
    subprocess.run(['shapeindex', land], check=True, capture_output=True)
with open(os.path.join(bench, S['route']['file'])) as f:
    rows = csv.reader(f); next(rows)
    route = [merc(float(a), float(b)) for a, b in rows]
m = mapnik.Map(W, H, 'epsg:3857'); m.background = mapnik.Color('#aad3df')
ctx = mapnik.Context()
def layer(name, wkts, symbolizers):
    style = mapnik.Style(); rule = mapnik.Rule()
    for s in symbolizers: rule.symbols.append(s)
    style.rules.append(rule); m.append_style(name, style)
    lyr = mapnik.Layer(name, 'epsg:3857')
    if wkts is None:
        lyr.datasource = mapnik.Shapefile(file=land)
    else:
        ds = mapnik.MemoryDatasource()
        for k, w in enumerate(wkts):
            ft = mapnik.Feature(ctx, k + 1); ft.geometry = mapnik.Geometry.from_wkt(w); ds.add_feature(ft)
        lyr.datasource = ds
    lyr.styles.append(name); m.layers.append(lyr)
p = mapnik.PolygonSymbolizer(); p.fill = mapnik.Color('#f2efe9'); layer('land', None, [p])
rings = []
for c in S['circles']:
    pts = []
    for i in range(129):
        d = Geodesic.WGS84.Direct(c['center'][0], c['center'][1], 360.0 * i / 128, c['radius_m'])
        pts.append(merc(d['lat2'], d['lon2']))
    rings.append('POLYGON((' + ','.join(f'{x} {y}' for x, y in pts) + '))')
p = mapnik.PolygonSymbolizer(); p.fill = mapnik.Color(255, 0, 0, 0x40)
l = mapnik.LineSymbolizer(); l.stroke = mapnik.Color('#ff0000'); l.stroke_width = 2
layer('circles', rings, [p, l])
l = mapnik.LineSymbolizer(); l.stroke = mapnik.Color('#1f6feb'); l.stroke_width = 4
l.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN; l.stroke_linecap = mapnik.stroke_linecap.ROUND_CAP
layer('route', ['LINESTRING(' + ','.join(f'{x} {y}' for x, y in route) + ')'], [l])
mk = mapnik.MarkersSymbolizer(); mk.fill = mapnik.Color('#d1242f')
mk.width = mapnik.Expression('12'); mk.height = mapnik.Expression('12')
mk.stroke = mapnik.Color('white'); mk.stroke_width = 2; mk.allow_overlap = True; mk.ignore_placement = True
layer('markers', [('POINT(%r %r)' % merc(a, b)) for a, b in S['markers']], [mk])
cx, cy = merc(clat, clon); res = 2 * math.pi * R / (512 * 2 ** Z)
m.zoom_to_box(mapnik.Box2d(cx - W / 2 * res, cy - H / 2 * res, cx + W / 2 * res, cy + H / 2 * res))
im = mapnik.Image(W, H); mapnik.render(m, im)
with open(out, 'wb') as f:
    f.write(im.tostring('png32:z=1'))
