#!/usr/bin/python3
"""Writes polygon-overlap.json: pairs of polygons (rings of Web Mercator points, exterior then
holes) and whether their insides overlap, as GEOS decides it (shapely's DE-9IM relate: the
interiors' intersection is not empty). The pairs are regions of random partitions of a grid
into polyominoes (shared edges, T-junctions, touching corners, holes) against regions of the
same partition (apart or touching) and of another (overlapping or not), random star-shaped
polygons, polygons in holes, and duplicates. Coordinates are multiples of 2^-20 near the
middle of the world, exact in binary. Run with Debian's python3-shapely:
/usr/bin/python3 make_overlap_fixture.py > polygon-overlap.json"""
import json, math, random
from shapely.geometry import Polygon, box
from shapely.ops import unary_union

random.seed(20261128)
U = 2.0 ** -20          # one grid unit, in world widths
X0, Y0 = 0.5, 0.375     # where the grid starts

def pt(x, y):
    return [X0 + x * U, Y0 + y * U]

def rings(p):
    return [[pt(x, y) for x, y in p.exterior.coords[:-1]]] + [[pt(x, y) for x, y in r.coords[:-1]] for r in p.interiors]

def partition(n, regions):
    """A random partition of an n×n grid of unit cells into connected regions (flood growth)."""
    owner = {}
    seeds = random.sample([(i, j) for i in range(n) for j in range(n)], regions)
    frontier = []
    for k, s in enumerate(seeds):
        owner[s] = k
        frontier.append(s)
    while frontier:
        c = frontier.pop(random.randrange(len(frontier)))
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (c[0] + d[0], c[1] + d[1])
            if 0 <= q[0] < n and 0 <= q[1] < n and q not in owner:
                owner[q] = owner[c]
                frontier.append(q)
    out = []
    for k in range(regions):
        u = unary_union([box(i, j, i + 1, j + 1) for (i, j), o in owner.items() if o == k])
        if u.geom_type == 'Polygon':
            out.append(u.simplify(0))   # drop collinear corners left by the union
    return out

def star(cx, cy, r, n):
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n + random.uniform(-0.2, 0.2)
        rr = r * random.uniform(0.3, 1.0)
        pts.append((round(cx + rr * math.cos(a)), round(cy + rr * math.sin(a))))
    p = Polygon(pts)
    return p if p.is_valid and p.area > 0 else None

pairs = []
def add(a, b, kind):
    if a is None or b is None or not a.is_valid or not b.is_valid:
        return
    pairs.append({"kind": kind, "a": rings(a), "b": rings(b), "overlap": a.relate_pattern(b, 'T********')})

for _ in range(12):
    n = random.choice([6, 8, 10])
    parts = partition(n, random.randint(4, 9))
    other = partition(n, random.randint(3, 7))
    for i in range(len(parts)):
        for j in range(i + 1, len(parts)):
            add(parts[i], parts[j], "same partition")
        add(parts[i], random.choice(other), "two partitions")
    # A region with extra corners on its edges (T-junctions on both sides).
    p = parts[0]
    dense = Polygon([c for a, b in zip(p.exterior.coords, p.exterior.coords[1:]) for c in (a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))])
    for q in parts[1:]:
        add(dense, q, "t-junctions")
    add(dense, p, "duplicate")
for _ in range(150):
    a = star(random.randint(0, 40), random.randint(0, 40), random.randint(4, 20), random.randint(3, 12))
    b = star(random.randint(0, 40), random.randint(0, 40), random.randint(4, 20), random.randint(3, 12))
    add(a, b, "stars")
# Holes: a square with a square hole against squares in it, on its edge, across it.
ring = Polygon([(0, 0), (30, 0), (30, 30), (0, 30)], [[(10, 10), (20, 10), (20, 20), (10, 20)]])
for q, kind in [(box(10, 10, 20, 20), "fills the hole"), (box(12, 12, 18, 18), "in the hole"),
                (box(10, 12, 15, 18), "in the hole, on its edge"), (box(5, 12, 15, 18), "across the hole's edge"),
                (box(30, 0, 40, 30), "beside"), (box(-5, -5, 35, 35), "around"), (box(30, 30, 40, 40), "corner")]:
    add(ring, q, kind)
print(json.dumps({"unit": U, "pairs": pairs}, separators=(',', ':')))
