#!/usr/bin/env python3
"""Mapnik (Debian python3-mapnik) rendering a choropleth GeoJSON file of make_choropleth.py
in-process, as a careful user would set it up: the features in a memory datasource already in
EPSG:3857, one rule per colour (a filter on the colour), fill at 0.6 and, unless NOSTROKE, the
#555555 2-px outline; PNG as png32:z=1. Prints `median_ms=X` (render and PNG); PEER_SAVE=FILE.png keeps the last image.
Usage: /usr/bin/python3 mapnik_choropleth.py FILE.geojson LAT,LON ZOOM WxH RUNS [NOSTROKE]"""
import json, math, os, statistics, sys, time
import mapnik

path, centre, zoom, size, runs = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
outlined = len(sys.argv) < 7
W, H = (int(v) for v in size.split('x'))
clat, clon = (float(v) for v in centre.split(','))
R = 6378137.0
def merc(lat, lon):
    return math.radians(lon) * R, math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * R
data = json.load(open(path))
m = mapnik.Map(W, H, 'epsg:3857')
m.background = mapnik.Color('#f2efe9')
ctx = mapnik.Context()
ctx.push('c')
ds = mapnik.MemoryDatasource()
colours = []
for k, f in enumerate(data['features']):
    ring = f['geometry']['coordinates'][0]
    wkt = 'POLYGON((' + ','.join('%r %r' % merc(lat, lon) for lon, lat in ring) + '))'
    ft = mapnik.Feature(ctx, k + 1)
    ft.geometry = mapnik.Geometry.from_wkt(wkt)
    ft['c'] = f['properties']['fill']
    ds.add_feature(ft)
    if f['properties']['fill'] not in colours:
        colours.append(f['properties']['fill'])
st = mapnik.Style()
for c in colours:
    rl = mapnik.Rule()
    rl.filter = mapnik.Expression("[c] = '%s'" % c)
    ps = mapnik.PolygonSymbolizer(); ps.fill = mapnik.Color(c); ps.fill_opacity = 0.6
    rl.symbols.append(ps)
    if outlined:
        ls = mapnik.LineSymbolizer(); ls.stroke = mapnik.Color('#555555'); ls.stroke_width = 2
        rl.symbols.append(ls)
    st.rules.append(rl)
m.append_style('choropleth', st)
ly = mapnik.Layer('choropleth', 'epsg:3857'); ly.datasource = ds; ly.styles.append('choropleth'); m.layers.append(ly)
# The view: centre and zoom as mapwright's (512-px world at zoom 0, so metres per pixel halve).
x, y = merc(clat, clon)
mpp = 2 * math.pi * R / (512 * 2 ** zoom)
m.zoom_to_box(mapnik.Box2d(x - W / 2 * mpp, y - H / 2 * mpp, x + W / 2 * mpp, y + H / 2 * mpp))
times = []
for _ in range(runs):
    t = time.perf_counter()
    im = mapnik.Image(W, H)
    mapnik.render(m, im)
    im.tostring('png32:z=1')
    times.append((time.perf_counter() - t) * 1000)
if os.environ.get('PEER_SAVE'):
    im.save(os.environ['PEER_SAVE'], 'png32')
print('median_ms=%.2f' % statistics.median(times))
