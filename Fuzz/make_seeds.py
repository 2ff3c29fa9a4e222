#!/usr/bin/env python3
"""Writes Fuzz/Corpus/<target>/ from the test fixtures and from files made by other tools
(Pillow for JPEG/WebP/PNG, sqlite3 with the MBTiles schema that mbutil writes, PyPI pmtiles'
writer). Run once with /usr/bin/python3 (Pillow) and the oracle venv on PYTHONPATH for
pmtiles; the output is committed, so fuzzing needs none of these.

Usage: /usr/bin/python3 Fuzz/make_seeds.py   (from the repository root)
"""
import glob, io, json, os, shutil, sqlite3, sys, tempfile
import urllib.parse

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Fuzz", "Corpus")
fx = os.path.join(root, "Tests", "MapFormatsTests", "Fixtures")

def put(target, name, data):
    d = os.path.join(out, target); os.makedirs(d, exist_ok=True)
    if isinstance(data, str): data = data.encode()
    open(os.path.join(d, name), "wb").write(data)

def copy(target, pattern, limit=64 * 1024):
    for p in sorted(glob.glob(pattern)):
        b = open(p, "rb").read()
        if len(b) <= limit: put(target, os.path.basename(p), b)

copy("csv", fx + "/csv/*"); copy("csv", fx + "/route/*.csv")
copy("gpx", fx + "/gpx/*"); copy("gpx", fx + "/route/*.gpx")
copy("geojson", fx + "/geojson/*"); copy("geojson", fx + "/route/*.geojson")
copy("polyline", fx + "/polyline/*")
put("polyline", "google-example.polyline", "_p~iF~ps|U_ulLnnqC_mqNvxq`@\n")
copy("png", root + "/Tests/MapImageTests/Fixtures/*.png")
copy("image", root + "/Tests/MapImageTests/Fixtures/rgb*.png")

# Scenes: the shapes of the README and the motion tests, animation blocks included.
scenes = {
 "basic.json": {"camera": {"center": [48.2, 16.37], "zoom": 12, "bearing": 30, "pitch": 40}, "size": [320, 240],
   "overlays": [{"type": "route", "coordinates": [[48.2, 16.3], [48.21, 16.4], [48.19, 16.45]], "width": 5, "color": "1f6feb"},
                {"type": "circle", "position": [48.2, 16.37], "radius": 500, "fill": "ff000040"},
                {"type": "marker", "position": [48.21, 16.38], "label": "A", "style": "pin"},
                {"type": "marker", "position": [48.22, 16.39], "glyph": "7", "style": "pin", "size": 1.25},
                {"type": "polygon", "rings": [[[48.1, 16.1], [48.1, 16.2], [48.2, 16.2], [48.1, 16.1]]]},
                {"type": "column", "position": [48.2, 16.37], "height": 300},
                {"type": "arc", "from": [48.2, 16.37], "to": [52.5, 13.4]}]},
 "motion.json": {"camera": {"center": [10, 20], "zoom": 12}, "duration": 4, "fps": 25,
   "overlays": [{"type": "circle", "position": [10, 20], "radius": 100, "animation": {"duration": 2, "repeat": 1, "radiusScale": [1, 2]}},
                {"type": "marker", "position": [10, 20], "animation": {"duration": 1, "autoreverse": True, "opacity": [1, 0.2],
                  "color": ["000000", "ffffff"], "position": [{"offset": 0, "value": [10, 20]}, {"offset": 1, "value": [11, 22], "easing": "ease"}]}},
                {"type": "route", "coordinates": [[10, 20], [10, 21]], "animation": {"progress": [0, 1], "duration": 4, "repeat": 1}},
                {"type": "pulse", "position": [10, 20.5], "radius": 40, "radiusUnit": "px"}]},
 "fit.json": {"camera": {"padding": 30}, "overlays": [{"type": "marker", "position": [1, 2]}, {"type": "marker", "position": [3, 4]}]},
 "geojson.json": {"overlays": [{"type": "geojson", "width": 3, "dash": [2, 1], "data": {"type": "FeatureCollection", "features": [
   {"type": "Feature", "properties": {"stroke": "#f00", "stroke-width": 4, "stroke-opacity": 0.5, "title": "L"},
    "geometry": {"type": "MultiLineString", "coordinates": [[[0, 0], [1, 1]], [[2, 2], [3, 1]]]}},
   {"type": "Feature", "properties": {"fill": "0000ff", "fill-opacity": 0.2, "stroke": "#00ff00"},
    "geometry": {"type": "MultiPolygon", "coordinates": [[[[0, 0], [4, 0], [4, 4], [0, 0]], [[1, 0.5], [2, 0.5], [2, 1], [1, 0.5]]]]}},
   {"type": "Feature", "properties": {"marker-color": "#abc", "marker-size": "large", "marker-symbol": "bus", "title": "P"},
    "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]}},
   {"type": "Feature", "properties": None, "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [5, 5]}]}}]}}]},
}
scenes["cluster.json"] = {"camera": {"center": [48.2, 16.37], "zoom": 9}, "size": [200, 150], "overlays": [
    {"type": "geojson", "cluster": True, "clusterRadius": 40, "clusterMaxZoom": 12, "clusterColor": "#f28cb1",
     "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "properties": {"title": "A"} if i % 5 == 0 else {},
          "geometry": {"type": "Point", "coordinates": [16.37 + 0.01 * (i % 7), 48.2 + 0.013 * (i % 5)]}} for i in range(30)]}}]}
# A choropleth the loader merges into sets (Overlay.mergingAlikeRuns): 81 touching squares with one
# outline, 72 in one translucent colour (a set) and 9 in another, then one lying over the first (a
# new group) and one with a hole.
def sq(x, y, d=0.01):
    return [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]
scenes["choropleth.json"] = {"camera": {"center": [0.04, 0.045], "zoom": 11}, "size": [160, 120], "overlays": [
    {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"fill": "#2b8cbe" if (9 * i + j) % 9 == 4 else "#d7301f", "fill-opacity": 0.6},
         "geometry": {"type": "Polygon", "coordinates": [sq(0.01 * i, 0.01 * j)]}} for i in range(9) for j in range(9)]
        + [{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [sq(0.005, 0.005)]}},
           {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [sq(0.1, 0, 0.03), sq(0.11, 0.01)]}}]}}]}
for k, v in scenes.items(): put("scene", k, json.dumps(v))

# Static-map URL grammars.
for i, q in enumerate([
    "center=48.2,16.37&zoom=12&size=400x300&markers=color:red|label:A|48.2,16.37&path=weight:5|color:0x0000ff80|48.2,16.3|48.21,16.4",
    "size=640x480&scale=2&format=png8&path=fillcolor:0xff000033|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@&visible=48,16|49,17",
    "center=Paris&zoom=3&size=100x100&markers=size:tiny|1,2|3,4&circle=48.2,16.37,500m&bearing=30&pitch=40",
    "zoom=0&size=1x1&key=abc&sensor=false&maptype=roadmap&style=feature:all",
    "center=1,2&zoom=5&size=200x100&markers=size:mid|color:0xffd33d|label:Z|1,2&markers=size:small|label:Q|1,3",
]):
    put("google", f"q{i}.txt", q)
for i, p in enumerate([
    "mapbox/streets-v12/static/pin-s-a+ff0000(16.37,48.2),path-5+0000ff-0.5(_p~iF~ps|U_ulLnnqC)/16.37,48.2,12,30,40/400x300@2x",
    "u/s/static/geojson(%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B16.37%2C48.2%5D%7D)/auto/300x200?padding=30",
    "u/s/static/pin-l-1+abc(1,2)/[10,20,11,21]/200x200",
    "u/s/static/geojson(" + urllib.parse.quote(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"stroke": "#f00", "fill": "#0f0", "fill-opacity": 0.3, "title": "x"},
         "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}},
        {"type": "Feature", "properties": {"marker-color": "#00f", "title": "Here"}, "geometry": {"type": "Point", "coordinates": [0.5, 0.5]}}]},
        separators=(",", ":")), safe="") + ")/auto/300x200",
]):
    put("mapbox", f"p{i}.txt", p)
for i, q in enumerate(["a=1&b=%20x+y&c=%E2%9C%93", "&&=&a==b&%zz", "k=" + "%41" * 20]):
    put("query", f"q{i}.txt", q)

# SVG path data: a few Maki icons (every command they use) and the grammar's corners.
maki = {}
for line in open(os.path.join(root, "Sources", "MapFormats", "Maki+Icons.swift")):
    if "\t" in line:
        name, d = line.strip().split("\t", 1)
        maki[name] = d
for name in ["bus", "cafe", "heart", "soccer", "bank-JP"]:
    put("svgpath", name + ".txt", maki[name])
put("svgpath", "commands.txt", "M1 2L3 4H5V6Zm1 1 2 2c1 0 2 0 2 1s1 1 2 1Q3 3 6 0T12 0A5 5 0 1 0 5 5a1 1 30 0110 0z")
put("svgpath", "numbers.txt", "M.5.5-1-1e2+3E-1 1,2 L 1e-5,.0")

# Gesture scripts (JSON lines, as `view --script` reads them).
put("gestures", "drag.jsonl", "\n".join(json.dumps(e) for e in [
    {"t": 0, "type": "down", "x": 100, "y": 100}, {"t": 0.1, "type": "move", "x": 150, "y": 120},
    {"t": 0.2, "type": "up", "x": 150, "y": 120}, {"t": 0.3, "type": "wheel", "x": 10, "y": 10, "dy": -3},
    {"t": 0.5, "type": "touch", "phase": "down", "id": 1, "x": 100, "y": 100},
    {"t": 0.55, "type": "touch", "phase": "move", "id": 1, "x": 120, "y": 90, "modifiers": ["shift"]},
    {"t": 0.6, "type": "key", "key": "n"},
    {"t": 1, "type": "wait"}]) + "\n")

# Images made by Pillow.
try:
    from PIL import Image
    im = Image.new("RGBA", (8, 6), (30, 110, 235, 200))
    for x in range(8): im.putpixel((x, x % 6), (255, 0, 0, 255))
    for fmt, target, kw in [("JPEG", "jpeg", {"quality": 80}), ("WEBP", "webp", {"lossless": True}), ("WEBP", "webp", {"quality": 50}), ("PNG", "image", {})]:
        b = io.BytesIO(); (im.convert("RGB") if fmt == "JPEG" else im).save(b, fmt, **kw)
        put(target, f"pillow-{fmt.lower()}-{len(b.getvalue())}.bin", b.getvalue())
        if target != "image": put("image", f"pillow-{fmt.lower()}-{len(b.getvalue())}.bin", b.getvalue())
except ImportError:
    print("Pillow missing: no JPEG/WebP seeds", file=sys.stderr)

png = open(root + "/Tests/MapImageTests/Fixtures/rgb8_3x2.png", "rb").read()

# MBTiles with the schema mbutil writes (tiles table, metadata), TMS rows.
tmp = tempfile.mkdtemp()
db = os.path.join(tmp, "t.mbtiles")
c = sqlite3.connect(db)
c.executescript("CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);"
                "CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);")
c.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "t"), ("format", "png"), ("minzoom", "0"), ("maxzoom", "1"), ("bounds", "-180,-85,180,85")])
for z, x, y in [(0, 0, 0), (1, 1, 0), (1, 0, 1)]:
    c.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, png))
c.commit(); c.execute("VACUUM"); c.close()
put("mbtiles", "mbutil-schema.mbtiles", open(db, "rb").read())

# PMTiles v3 written by the reference Python writer (PyPI pmtiles).
try:
    from pmtiles.writer import Writer
    from pmtiles.tile import zxy_to_tileid, TileType, Compression
    p = os.path.join(tmp, "t.pmtiles")
    with open(p, "wb") as f:
        w = Writer(f)
        for z, x, y in [(0, 0, 0), (1, 0, 0), (1, 1, 1), (3, 4, 2)]:
            w.write_tile(zxy_to_tileid(z, x, y), png)
        w.finalize({"tile_type": TileType.PNG, "tile_compression": Compression.NONE, "min_zoom": 0, "max_zoom": 3,
                    "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000, "max_lat_e7": 850000000,
                    "center_zoom": 0, "center_lon_e7": 0, "center_lat_e7": 0}, {"name": "t"})
    put("pmtiles", "pypi-pmtiles.pmtiles", open(p, "rb").read())
except ImportError:
    print("pmtiles missing: no PMTiles seed (PYTHONPATH=.venv-oracles/lib/python3*/site-packages)", file=sys.stderr)
shutil.rmtree(tmp)

# Vector tiles GDAL's MVT driver wrote (Tests/MapTilesTests/Fixtures/vector), gzipped as stored
# and inflated, and the MVT spec's example geometry in a one-layer tile.
import gzip
c = sqlite3.connect(root + "/Tests/MapTilesTests/Fixtures/vector/vector-fixture.mbtiles")
for z, x, y, data in c.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level IN (10, 13, 14) LIMIT 6"):
    put("mvt", "gdal-%d-%d-%d.mvt.gz" % (z, x, y), data)
    put("mvt", "gdal-%d-%d-%d.mvt" % (z, x, y), gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
c.close()
for t in sorted(os.listdir(out)):
    print(t, len(os.listdir(os.path.join(out, t))))
