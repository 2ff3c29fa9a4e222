#!/usr/bin/env python3
"""Writes Mapwright scene files for the standard benchmark scene of shared/bench/.

shared/bench/scene.json describes the scene in plain terms; this turns it into our scene
format (Documentation/scene.schema.json) once per route variant (10k, 100k, 1M points),
plus a 100k-point random scribble across the view and the 3D variant (200 columns, pitch 60).
Usage: scripts/bench/make_scenes.py BENCH_DIR OUT_DIR
"""
import json
import math
import os
import random
import sys


def main():
    bench, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    s = json.load(open(os.path.join(bench, "scene.json")))
    base = {
        "version": 1,
        "size": s["size"],
        "camera": {"center": s["center"], "zoom": s["zoom"]},
        "basemap": "embedded",
        "overlays": [],
    }
    for c in s["circles"]:
        base["overlays"].append({"type": "circle", "position": c["center"], "radius": c["radius_m"], "radiusUnit": "m",
                                 "fill": c["fill"], "stroke": c["stroke"], "strokeWidth": c["stroke_px"]})
    for m in s["markers"]:
        base["overlays"].append({"type": "marker", "position": m, "color": s["marker_color"]})

    def route(path):
        return {"type": "route", "file": os.path.abspath(path), "color": s["route"]["color"],
                "width": s["route"]["width_px"]}

    for name in ("route-10k.csv", "route-100k.csv", "route-1m.csv"):
        sc = json.loads(json.dumps(base))
        sc["overlays"].insert(0, route(os.path.join(bench, name)))
        json.dump(sc, open(os.path.join(out, name.replace(".csv", ".json")), "w"), indent=1)

    # A self-intersecting random scribble of 100k points across the whole view.
    rnd = random.Random(42)
    clat, clon = s["center"]
    w, h = s["size"]
    world = 512 * 2 ** s["zoom"]
    deg_per_px_lon = 360 / world
    deg_per_px_lat = deg_per_px_lon * math.cos(math.radians(clat))
    with open(os.path.join(out, "scribble-100k.csv"), "w") as f:
        f.write("lat,lon\n")
        for _ in range(100_000):
            f.write(f"{clat + (rnd.random() - 0.5) * h * deg_per_px_lat:.7f},"
                    f"{clon + (rnd.random() - 0.5) * w * deg_per_px_lon:.7f}\n")
    sc = json.loads(json.dumps(base))
    sc["overlays"].insert(0, route(os.path.join(out, "scribble-100k.csv")))
    json.dump(sc, open(os.path.join(out, "scribble-100k.json"), "w"), indent=1)

    # 3D: the standard scene at pitch 60 with 200 columns spread over the view.
    sc = json.loads(json.dumps(base))
    sc["overlays"].insert(0, route(os.path.join(bench, "route-10k.csv")))
    sc["camera"]["pitch"] = 60
    for _ in range(200):
        lat = clat + (rnd.random() - 0.5) * h * deg_per_px_lat
        lon = clon + (rnd.random() - 0.5) * w * deg_per_px_lon
        sc["overlays"].append({"type": "column", "position": [round(lat, 7), round(lon, 7)],
                               "height": round(20 + rnd.random() * 200, 1), "radius": 12, "color": "#2da44e"})
    json.dump(sc, open(os.path.join(out, "columns-200-pitch60.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
