#!/usr/bin/env python3
"""Makes terrace.geojson and, with GDAL's MVT driver (an independent encoder), terrace.mbtiles:
an 8 x 4 block of houses whose party walls wiggle, each wall's points shared by the two houses
beside it (in opposite directions), up to 0.8 px off their chord at zoom 16 (1.6 times the
renderer's 0.5 px simplification tolerance there), so that simplifying each house on its own
would keep a wall's point in one house and drop it in the other. Corners inside the block are
jittered by up to 4 px; the block's outline is straight. Coordinates are put on the tiles'
1/8 px grid at zoom 16 (4096 units a 512 px tile). Needs gdal-bin; deterministic (seeded).
usage: python3 make-terrace.py"""
import json, math, os, random, subprocess

here = os.path.dirname(os.path.abspath(__file__))
W = 512 * 2 ** 16  # world width in px at zoom 16


def lonlat(x, y):
    x, y = round(x * 8) / 8, round(y * 8) / 8
    lon = x / W * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / W))))
    return [lon, lat]


def px(lon, lat):
    x = (lon + 180) / 360 * W
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * W
    return x, y


rng = random.Random(7)
cols, rows, cell = 8, 4, 24.0
x0, y0 = px(7.0205, 46.0303)
x0, y0 = round(x0), round(y0)
corner = [[(x0 + j * cell + (0 if i in (0, rows) or j in (0, cols) else rng.uniform(-4, 4)),
            y0 + i * cell + (0 if i in (0, rows) or j in (0, cols) else rng.uniform(-4, 4)))
           for j in range(cols + 1)] for i in range(rows + 1)]
walls = {}


def wall(a, b):
    """The points strictly between corners a and b (grid indices), made once per wall."""
    key = tuple(sorted([a, b]))
    if key not in walls:
        (sx, sy), (ex, ey) = corner[key[0][0]][key[0][1]], corner[key[1][0]][key[1][1]]
        dx, dy = ex - sx, ey - sy
        ln = math.hypot(dx, dy)
        outer = (key[0][0] == key[1][0] and key[0][0] in (0, rows)) or (key[0][1] == key[1][1] and key[0][1] in (0, cols))
        pts = []
        for k in range(1, 6):
            f, off = k / 6, 0 if outer else rng.uniform(-0.8, 0.8)
            pts.append((sx + f * dx - off * dy / ln, sy + f * dy + off * dx / ln))
        walls[key] = pts
    return walls[key] if (a, b) == key else walls[key][::-1]


features = []
for i in range(rows):
    for j in range(cols):
        around = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
        ring = []
        for k in range(4):
            a, b = around[k], around[(k + 1) % 4]
            ring.append(corner[a[0]][a[1]])
            ring += wall(a, b)
        coords = [lonlat(x, y) for x, y in ring]
        coords.append(coords[0])
        coords.reverse()  # counter-clockwise in lon/lat (GeoJSON's right-hand rule)
        features.append({"type": "Feature", "properties": {"house": i * cols + j},
                          "geometry": {"type": "Polygon", "coordinates": [coords]}})
(west, north), (east, south) = lonlat(x0, y0), lonlat(x0 + cols * cell, y0 + rows * cell)
collection = {"type": "FeatureCollection", "block": {"west": west, "north": north, "east": east, "south": south},
              "features": features}
with open(os.path.join(here, "terrace.geojson"), "w") as f:
    json.dump(collection, f, separators=(",", ":"))
out = os.path.join(here, "terrace.mbtiles")
if os.path.exists(out):
    os.remove(out)
subprocess.run(["ogr2ogr", "-f", "MVT", out, os.path.join(here, "terrace.geojson"), "-nln", "building",
                "-dsco", "FORMAT=MBTILES", "-dsco", "MINZOOM=14", "-dsco", "MAXZOOM=16", "-dsco", "NAME=terrace",
                "-dsco", "COMPRESS=YES"], check=True)
