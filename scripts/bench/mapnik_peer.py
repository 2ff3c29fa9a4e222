#!/usr/bin/python3
"""The peer benchmark: Mapnik draws the standard scene of shared/bench/ in-process, PNG included.

Reproduces what shared/bench/README.md describes, so Mapwright's own timing can be put side
by side with it on the same machine: a 1024x768 map at zoom 15.5 (MapLibre convention, world
= 512*2^zoom px) over Natural Earth 10m land, the route 4 px #1f6feb, three geodesic circles
(fill #ff000040, 2 px #ff0000 rim; rims from GeographicLib), five markers (12 px #d1242f dot,
2 px white ring). Prints the median of repeated renders (map render + PNG encode to memory).

Needs Debian's python3-mapnik, python3-geographiclib and libmagics++-data (Natural Earth).
Usage: /usr/bin/python3 scripts/bench/mapnik_peer.py [BENCH_DIR] [--route FILE] [--runs N] [--out PNG]
"""
import json
import math
import os
import statistics
import sys
import time

import mapnik
from geographiclib.geodesic import Geodesic

R = 6378137.0


def merc(lat, lon):
    x = math.radians(lon) * R
    y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * R
    return x, y


def main():
    args = sys.argv[1:]
    bench = "../shared/bench"
    route_name = None
    runs = 30
    out = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--route":
            route_name = args[i + 1]; i += 2
        elif a == "--runs":
            runs = int(args[i + 1]); i += 2
        elif a == "--out":
            out = args[i + 1]; i += 2
        else:
            bench = a; i += 1
    scene = json.load(open(os.path.join(bench, "scene.json")))
    w, h = scene["size"]
    clat, clon = scene["center"]
    zoom = scene["zoom"]
    route_file = os.path.join(bench, route_name or scene["route"]["file"])
    pts = []
    with open(route_file) as f:
        next(f)
        for line in f:
            la, lo = line.split(",")
            pts.append(merc(float(la), float(lo)))

    m = mapnik.Map(w, h, "epsg:3857")
    m.background = mapnik.Color("#aad3df")

    def layer(name, ds, style_name, rules):
        st = mapnik.Style()
        for r in rules:
            st.rules.append(r)
        m.append_style(style_name, st)
        lyr = mapnik.Layer(name, "epsg:3857")
        lyr.datasource = ds
        lyr.styles.append(style_name)
        m.layers.append(lyr)

    # Natural Earth land (geographic shapefile, reprojected by Mapnik like any GIS layer).
    land = mapnik.Layer("land", "epsg:4326")
    land.datasource = mapnik.Shapefile(file="/usr/share/magics/10m/ne_10m_land.shp")
    st = mapnik.Style(); r = mapnik.Rule()
    land_sym = mapnik.PolygonSymbolizer(); land_sym.fill = mapnik.Color("#f2efe9"); r.symbols.append(land_sym)
    st.rules.append(r); m.append_style("land", st); land.styles.append("land"); m.layers.append(land)

    ctx = mapnik.Context()

    def memds(wkts):
        ds = mapnik.MemoryDatasource()
        for k, wkt in enumerate(wkts):
            feat = mapnik.Feature(ctx, k + 1)
            feat.geometry = mapnik.Geometry.from_wkt(wkt)
            ds.add_feature(feat)
        return ds

    circles = []
    for c in scene["circles"]:
        ring = []
        for k in range(129):
            g = Geodesic.WGS84.Direct(c["center"][0], c["center"][1], k * 360.0 / 128, c["radius_m"])
            ring.append(merc(g["lat2"], g["lon2"]))
        circles.append("POLYGON((" + ",".join(f"{x} {y}" for x, y in ring) + "))")
    r = mapnik.Rule()
    ps = mapnik.PolygonSymbolizer(); ps.fill = mapnik.Color(255, 0, 0, 0x40); r.symbols.append(ps)
    ls = mapnik.LineSymbolizer(); ls.stroke = mapnik.Color("#ff0000"); ls.stroke_width = 2; r.symbols.append(ls)
    layer("circles", memds(circles), "circles", [r])

    route_wkt = "LINESTRING(" + ",".join(f"{x} {y}" for x, y in pts) + ")"
    r = mapnik.Rule()
    ls = mapnik.LineSymbolizer(); ls.stroke = mapnik.Color(scene["route"]["color"])
    ls.stroke_width = scene["route"]["width_px"]; ls.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN
    r.symbols.append(ls)
    layer("route", memds([route_wkt]), "route", [r])

    mk = [f"POINT({x} {y})" for x, y in (merc(a, b) for a, b in scene["markers"])]
    r = mapnik.Rule()
    ms = mapnik.MarkersSymbolizer()
    ms.fill = mapnik.Color(scene["marker_color"]); ms.width = mapnik.Expression("12"); ms.height = mapnik.Expression("12")
    ms.stroke = mapnik.Color("white"); ms.stroke_width = 2; ms.allow_overlap = True
    r.symbols.append(ms)
    layer("markers", memds(mk), "markers", [r])

    cx, cy = merc(clat, clon)
    mpp = 2 * math.pi * R / (512 * 2 ** zoom)
    m.zoom_to_box(mapnik.Box2d(cx - w / 2 * mpp, cy - h / 2 * mpp, cx + w / 2 * mpp, cy + h / 2 * mpp))

    times = []
    data = b""
    for k in range(runs + 1):
        t0 = time.perf_counter()
        im = mapnik.Image(w, h)
        mapnik.render(m, im)
        data = im.tostring("png32:z=1")
        dt = (time.perf_counter() - t0) * 1000
        if k > 0:  # first run warms caches (shapefile index, fonts)
            times.append(dt)
    if out:
        with open(out, "wb") as f:
            f.write(data)
    print(f"mapnik: {os.path.basename(route_file)} {runs} runs, median {statistics.median(times):.1f} ms, "
          f"min {min(times):.1f} ms, max {max(times):.1f} ms, png {len(data)} bytes")


if __name__ == "__main__":
    main()
