#!/usr/bin/env python3
"""Writes the GeoJSON benchmark files into OUT_DIR: choropleth.geojson, a 150 × 150 grid of
squares (22 500 features, 0.0012° × 0.0008°, south-west corner 48.80, 2.25) in five colours
drawn at random (seeded), fill-opacity 0.6 and the simplestyle default outline (#555555, 2 px);
choropleth-nostroke.geojson, the same with "stroke-width": 0.
Usage: python3 make_choropleth.py OUT_DIR"""
import json, os, random, sys

out = sys.argv[1]
colours = ["#d7301f", "#fc8d59", "#fdcc8a", "#2b8cbe", "#a6bddb"]
for name, outlined in [("choropleth", True), ("choropleth-nostroke", False)]:
    random.seed(1)
    features = []
    for i in range(150):
        for j in range(150):
            lat, lon = 48.80 + i * 0.0008, 2.25 + j * 0.0012
            props = {"fill": random.choice(colours), "fill-opacity": 0.6}
            if not outlined:
                props["stroke-width"] = 0
            ring = [[lon, lat], [lon + 0.0012, lat], [lon + 0.0012, lat + 0.0008], [lon, lat + 0.0008], [lon, lat]]
            features.append({"type": "Feature", "properties": props, "geometry": {"type": "Polygon", "coordinates": [ring]}})
    with open(os.path.join(out, name + ".geojson"), "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)
