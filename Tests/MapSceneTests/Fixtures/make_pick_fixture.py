#!/usr/bin/python3
"""Writes pick-route.json: a hiking route near Cerknica with GeographicLib's cumulative
geodesic distances at every vertex and at each segment's Web Mercator midpoint (the point a
click halfway along the drawn segment lands on). Run with Debian's python3-geographiclib:
/usr/bin/python3 make_pick_fixture.py > pick-route.json"""
import json, math
from geographiclib.geodesic import Geodesic

g = Geodesic.WGS84
pts = [(45.7960, 14.3630), (45.7905, 14.3712), (45.7841, 14.3760), (45.7790, 14.3885),
       (45.7712, 14.3921), (45.7655, 14.4050), (45.7601, 14.4102), (45.7550, 14.4230)]

def merc(lat, lon):
    return ((lon + 180) / 360, (1 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2)

def unmerc(x, y):
    return (math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y)))), x * 360 - 180)

cum = [0.0]
for a, b in zip(pts, pts[1:]):
    cum.append(cum[-1] + g.Inverse(a[0], a[1], b[0], b[1])['s12'])
mids = []
for i, (a, b) in enumerate(zip(pts, pts[1:])):
    (ax, ay), (bx, by) = merc(*a), merc(*b)
    lat, lon = unmerc((ax + bx) / 2, (ay + by) / 2)
    mids.append({"segment": i, "lat": lat, "lon": lon,
                 "distanceAlong": cum[i] + g.Inverse(a[0], a[1], lat, lon)['s12']})
print(json.dumps({"points": [[a, b] for a, b in pts], "cumulative": cum, "midpoints": mids}, indent=1))
