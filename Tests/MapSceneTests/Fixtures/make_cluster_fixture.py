#!/usr/bin/env python3
"""Writes clusters.json: 1500 points (five clumps of different spread, a ring of close
neighbours and some strays; seeded) and the clusters that Mapbox's supercluster (the C++
supercluster.hpp, through PyPI's pysupercluster 0.7.7) makes of them at zooms 0-17 with radius
50 and extent 512 (MapLibre's clusterRadius on 512-px tiles) and maxZoom 16. Needs
`pip install "numpy<2" pysupercluster`; run: python make_cluster_fixture.py > clusters.json"""
import json, math, random
import numpy, pysupercluster

r = random.Random(20261126)
pts = []
for (lat, lon, s, n) in [(48.8566, 2.3522, 0.05, 400), (45.764, 4.8357, 0.3, 300), (-33.87, 151.21, 1.5, 300),
                         (64.13, -21.9, 0.01, 200), (0.0, 179.95, 0.2, 100)]:
    for _ in range(n):
        pts.append((max(-84, min(84, lat + r.gauss(0, s))), max(-180, min(180, lon + r.gauss(0, s)))))
for k in range(100):
    a = 2 * math.pi * k / 100
    pts.append((10 + 0.02 * math.sin(a), 20 + 0.02 * math.cos(a)))
while len(pts) < 1500:
    pts.append((r.uniform(-80, 80), r.uniform(-180, 180)))

pts = [(round(a, 7), round(b, 7)) for a, b in pts]
sc = pysupercluster.SuperCluster(numpy.array([(lon, lat) for lat, lon in pts]), min_zoom=0, max_zoom=16, radius=50, extent=512)
levels = {}
for z in range(18):
    cl = sc.getClusters(top_left=(-180, 90), bottom_right=(180, -90), zoom=z)
    levels[str(z)] = [[c["count"], round(c["latitude"], 10), round(c["longitude"], 10), c["expansion_zoom"]] for c in cl]
json.dump({"points": [[a, b] for a, b in pts], "radius": 50, "extent": 512, "maxZoom": 16,
           "levels": levels}, __import__("sys").stdout)
