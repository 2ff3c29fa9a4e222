#!/usr/bin/env python3
"""Converts Natural Earth shapefiles into Mapwright's embedded basemap (basemap.mwb).

Run from anywhere (standard library only; see README.md in this folder):

    python3 scripts/basemap/build_basemap.py [--magics /usr/share/magics] [--out Sources/MapTiles/Resources/basemap.mwb]

The output layout is documented in scripts/basemap/README.md and read by
Sources/MapTiles/EmbeddedBasemap.swift. The conversion is deterministic: the same
sources give the same bytes.
"""
import argparse
import math
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ne_read  # noqa: E402

# Feature kinds (stored as varints; must match BasemapPolygon.Kind / BasemapLine.Kind raw values).
KIND_LAND, KIND_LAKE = 0, 1
KIND_BORDER = 0

# Levels of detail: (source scale, tile zoom, grid bits, first render zoom, simplify tolerance in world units).
# Our zoom convention: the world is 512·2^zoom px wide. A level is used for render zooms from its
# first zoom up to the next level's first zoom; its tolerance is 0.5 px at the top of that range
# (the last level: half a grid unit, which only drops collinear points).
LEVELS = [
    ("110m", 0, 16, 0, 0.5 / (512 * 2 ** 3)),
    ("50m", 3, 18, 3, 0.5 / (512 * 2 ** 5)),
    ("10m", 5, 19, 5, 1.0 / (512 * 2 ** 7)),
    ("10m", 6, 20, 7, 0.5 / (1 << 20)),
]

MAX_LAT_SOURCE = 89.9  # source latitudes are clamped here before projecting, then clipped to the square world

# Minimum render zoom of a populated place by its Natural Earth scalerank (0 = most important).
PLACE_MIN_ZOOM = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 6, 8: 7, 9: 8, 10: 8}


def merc(lon, lat):
    lat = max(-MAX_LAT_SOURCE, min(MAX_LAT_SOURCE, lat))
    s = math.sin(math.radians(lat))
    return ((lon + 180.0) / 360.0, 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi)


def signed_area(ring):
    a = 0.0
    n = len(ring)
    for i in range(n):
        x1, y1 = ring[i]
        x2, y2 = ring[(i + 1) % n]
        a += x1 * y2 - x2 * y1
    return a / 2


def point_in_ring(p, ring):
    x, y = p
    inside = False
    n = len(ring)
    j = n - 1
    for i in range(n):
        xi, yi = ring[i]
        xj, yj = ring[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def open_ring(pts):
    """Drops the repeated closing point and consecutive duplicates."""
    out = []
    for p in pts:
        if not out or p != out[-1]:
            out.append(p)
    while len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def assemble_polygons(parts):
    """Shapefile polygon parts → [[outer, hole, ...], ...] in Mercator; outer rings are
    clockwise in lon/lat (ESRI convention), holes counter-clockwise."""
    outers, holes = [], []
    for part in parts:
        ring = open_ring([merc(lon, lat) for lon, lat in part])
        if len(ring) < 3:
            continue
        # Mercator flips y, so an ESRI clockwise outer ring has positive shoelace area here.
        (outers if signed_area(ring) > 0 else holes).append(ring)
    polys = [[o] for o in outers]
    if holes and not outers:
        # Some writers do not follow the orientation rule: treat a lone ring as an outer.
        return [[h[::-1]] for h in holes]
    for h in holes:
        hx = min(p[0] for p in h), max(p[0] for p in h)
        hy = min(p[1] for p in h), max(p[1] for p in h)
        best = None
        for poly in polys:
            o = poly[0]
            if min(p[0] for p in o) <= hx[0] and max(p[0] for p in o) >= hx[1] and \
               min(p[1] for p in o) <= hy[0] and max(p[1] for p in o) >= hy[1] and point_in_ring(h[0], o):
                if best is None or abs(signed_area(o)) < abs(signed_area(best[0])):
                    best = poly
        if best is not None:
            best.append(h)
    return polys


def simplify(pts, tol, closed):
    """Douglas–Peucker (iterative); for closed rings the ring is split at its first point
    and the point farthest from it."""
    n = len(pts)
    if tol <= 0 or n < 3:
        return pts
    keep = [False] * n
    keep[0] = True
    keep[-1] = True
    stack = []
    if closed:
        x0, y0 = pts[0]
        far = max(range(n), key=lambda i: (pts[i][0] - x0) ** 2 + (pts[i][1] - y0) ** 2)
        keep[far] = True
        stack = [(0, far), (far, n - 1)]
        # closing edge n-1 → 0 is implicit; keep the last point only if it matters
    else:
        stack = [(0, n - 1)]
    tol2 = tol * tol
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        ax, ay = pts[a]
        bx, by = pts[b]
        dx, dy = bx - ax, by - ay
        dd = dx * dx + dy * dy
        best, besti = -1.0, -1
        for i in range(a + 1, b):
            px, py = pts[i]
            if dd == 0:
                d = (px - ax) ** 2 + (py - ay) ** 2
            else:
                t = ((px - ax) * dx + (py - ay) * dy) / dd
                t = 0.0 if t < 0 else (1.0 if t > 1 else t)
                qx, qy = ax + t * dx - px, ay + t * dy - py
                d = qx * qx + qy * qy
            if d > best:
                best, besti = d, i
        if best > tol2:
            keep[besti] = True
            stack.append((a, besti))
            stack.append((besti, b))
    return [p for p, k in zip(pts, keep) if k]


# ---- clipping -------------------------------------------------------------------------

def clip_ring_half(ring, axis, value, keep_ge):
    """Sutherland–Hodgman against one axis-aligned half-plane."""
    out = []
    n = len(ring)
    if n == 0:
        return out
    prev = ring[-1]
    pin = (prev[axis] >= value) if keep_ge else (prev[axis] <= value)
    for cur in ring:
        cin = (cur[axis] >= value) if keep_ge else (cur[axis] <= value)
        if cin != pin:
            t = (value - prev[axis]) / (cur[axis] - prev[axis])
            if axis == 0:
                out.append((value, prev[1] + t * (cur[1] - prev[1])))
            else:
                out.append((prev[0] + t * (cur[0] - prev[0]), value))
        if cin:
            out.append(cur)
        prev, pin = cur, cin
    return out


def bbox(pts):
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def clip_ring(ring, rect, rb=None):
    x0, y0, x1, y1 = rect
    bx0, by0, bx1, by1 = rb or bbox(ring)
    if bx0 >= x0 and bx1 <= x1 and by0 >= y0 and by1 <= y1:
        return ring
    if bx1 <= x0 or bx0 >= x1 or by1 <= y0 or by0 >= y1:
        return []
    r = ring
    if bx0 < x0:
        r = clip_ring_half(r, 0, x0, True)
    if bx1 > x1:
        r = clip_ring_half(r, 0, x1, False)
    if by0 < y0:
        r = clip_ring_half(r, 1, y0, True)
    if by1 > y1:
        r = clip_ring_half(r, 1, y1, False)
    return r


def clip_line(line, rect):
    """Clips a polyline to a rectangle (Liang–Barsky per segment); returns parts."""
    x0, y0, x1, y1 = rect
    bx0, by0, bx1, by1 = bbox(line)
    if bx0 >= x0 and bx1 <= x1 and by0 >= y0 and by1 <= y1:
        return [line]
    if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
        return []
    parts, cur = [], []
    for i in range(len(line) - 1):
        (ax, ay), (bx, by) = line[i], line[i + 1]
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        ok = True
        for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            if p == 0:
                if q < 0:
                    ok = False
                    break
            else:
                t = q / p
                if p < 0:
                    if t > t1:
                        ok = False
                        break
                    t0 = max(t0, t)
                else:
                    if t < t0:
                        ok = False
                        break
                    t1 = min(t1, t)
        if not ok:
            if cur:
                parts.append(cur)
                cur = []
            continue
        pa = (ax + t0 * dx, ay + t0 * dy) if t0 > 0 else (ax, ay)
        pb = (ax + t1 * dx, ay + t1 * dy) if t1 < 1 else (bx, by)
        if not cur:
            cur = [pa]
        elif cur[-1] != pa:
            parts.append(cur)
            cur = [pa]
        cur.append(pb)
        if t1 < 1:
            parts.append(cur)
            cur = []
    if cur:
        parts.append(cur)
    return [p for p in parts if len(p) >= 2]


def clip_features(polys, lines, rect, min_area):
    out_p, out_l = [], []
    for kind, rings in polys:
        outer = clip_ring(rings[0], rect)
        if len(outer) < 3 or abs(signed_area(outer)) < min_area:
            continue
        res = [outer]
        for h in rings[1:]:
            c = clip_ring(h, rect)
            if len(c) >= 3 and abs(signed_area(c)) >= min_area:
                res.append(c)
        out_p.append((kind, res))
    for kind, line in lines:
        for part in clip_line(line, rect):
            out_l.append((kind, part))
    return out_p, out_l


def build_tiles(polys, lines, tz, min_area):
    """Recursive quadtree clip from the whole world down to tile zoom tz."""
    tiles = {}

    def rec(z, x, y, p, l):
        if not p and not l:
            return
        if z == tz:
            tiles[(x, y)] = (p, l)
            return
        for cy in (0, 1):
            for cx in (0, 1):
                nx, ny = 2 * x + cx, 2 * y + cy
                s = 1.0 / (1 << (z + 1))
                rect = (nx * s, ny * s, (nx + 1) * s, (ny + 1) * s)
                cp, cl = clip_features(p, l, rect, min_area)
                rec(z + 1, nx, ny, cp, cl)

    p0, l0 = clip_features(polys, lines, (0.0, 0.0, 1.0, 1.0), min_area)
    rec(0, 0, 0, p0, l0)
    return tiles


# ---- encoding -------------------------------------------------------------------------

def varint(v, out):
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return


def zigzag(v):
    return (v << 1) if v >= 0 else ((-v << 1) - 1)


def quantize(pts, scale, closed):
    q = []
    for x, y in pts:
        p = (int(round(x * scale)), int(round(y * scale)))
        if not q or q[-1] != p:
            q.append(p)
    if closed:
        while len(q) > 1 and q[0] == q[-1]:
            q.pop()
    return q


def encode_tile(x, y, tz, bits, polys, lines, stats):
    scale = float(1 << bits)
    ox, oy = x << (bits - tz), y << (bits - tz)
    buf = bytearray()
    cursor = [ox, oy]

    def put_points(q):
        varint(len(q), buf)
        for px, py in q:
            varint(zigzag(px - cursor[0]), buf)
            varint(zigzag(py - cursor[1]), buf)
            cursor[0], cursor[1] = px, py
        stats["vertices"] += len(q)

    enc_polys = []
    for kind, rings in polys:
        qr = []
        for i, r in enumerate(rings):
            q = quantize(r, scale, True)
            # Outer rings keep a positive shoelace area (y down), holes a negative one; a
            # ring that rounding collapsed or flipped is dropped (with its holes if outer).
            a = signed_area(q) if len(q) >= 3 else 0
            if (a > 0) if i == 0 else (a < 0):
                qr.append(q)
            elif i == 0:
                break
        if qr and len(qr[0]) >= 3 and qr[0] is not None:
            enc_polys.append((kind, qr))
    enc_lines = []
    for kind, line in lines:
        q = quantize(line, scale, False)
        if len(q) >= 2:
            enc_lines.append((kind, q))
    if not enc_polys and not enc_lines:
        return None
    varint(len(enc_polys), buf)
    for kind, qr in enc_polys:
        varint(kind, buf)
        varint(len(qr), buf)
        for q in qr:
            put_points(q)
    varint(len(enc_lines), buf)
    for kind, q in enc_lines:
        varint(kind, buf)
        put_points(q)
    return bytes(buf)


# ---- sources --------------------------------------------------------------------------

def load_level_sources(magics, scale):
    d = os.path.join(magics, scale)
    land = []
    for (stype, parts), _attrs in ne_read.read_features(os.path.join(d, "ne_%s_land" % scale)):
        for poly in assemble_polygons(parts):
            land.append((KIND_LAND, poly))
    lakes = []
    for (stype, parts), attrs in ne_read.read_features(os.path.join(d, "ne_%s_ocean" % scale)):
        # Debian's libmagics++-data merges Natural Earth's lakes into its ocean layer; the
        # lake records carry featurecla '' and featurec_2 'Lake' / 'Reservoir' / 'Alkaline Lake'.
        if attrs.get("featurecla") == "Ocean" and not attrs.get("featurec_2"):
            continue
        for poly in assemble_polygons(parts):
            lakes.append((KIND_LAKE, poly))
    borders = []
    for (stype, parts), _attrs in ne_read.read_features(os.path.join(d, "ne_%s_admin_0_boundary_lines_land" % scale)):
        for part in parts:
            line = [merc(lon, lat) for lon, lat in part]
            line = [p for i, p in enumerate(line) if i == 0 or p != line[i - 1]]
            if len(line) >= 2:
                borders.append((KIND_BORDER, line))
    return land, lakes, borders


def build_level(sources, tz, bits, tol):
    land, lakes, borders = sources
    grid = 1.0 / (1 << bits)
    min_area = max(tol * tol * 4, grid * grid)
    polys = []
    for kind, rings in land + lakes:
        srings = []
        for i, r in enumerate(rings):
            s = simplify(r, tol, True)
            if len(s) >= 3 and abs(signed_area(s)) >= min_area:
                srings.append(s)
            elif i == 0:
                break
        if srings:
            polys.append((kind, srings))
    lines = []
    for kind, line in borders:
        s = simplify(line, tol, False)
        if len(s) >= 2:
            lines.append((kind, s))
    return build_tiles(polys, lines, tz, min_area)


def load_places(magics, gpkg):
    out = load_countries(gpkg) if gpkg else []
    feats = ne_read.read_features(os.path.join(magics, "10m", "ne_10m_populated_places_simple"))
    for (stype, parts), a in feats:
        if not parts:
            continue
        lon, lat = parts[0][0]
        sr = int(a["scalerank"]) if a.get("scalerank") is not None else 10
        lr = int(a["labelrank"]) if a.get("labelrank") is not None else 10
        name = (a.get("name") or "").strip()
        if not name:
            continue
        flags = 0
        if (a.get("adm0cap") or 0) >= 1 or a.get("featurecla") == "Admin-0 capital":
            flags |= 1
        if (a.get("worldcity") or 0) >= 1 or (a.get("megacity") or 0) >= 1:
            flags |= 2
        if a.get("featurecla") in ("Admin-1 capital", "Admin-1 region capital"):
            flags |= 4
        pop = int(max(0, a.get("pop_max") or 0))
        out.append((PLACE_MIN_ZOOM.get(sr, 8), sr, lr, flags, pop, lat, lon, name))
    out.sort(key=lambda t: (t[0], t[1], -t[4], t[7]))
    buf = bytearray()
    buf += struct.pack("<I", len(out))
    for mz, sr, lr, flags, pop, lat, lon, name in out:
        nb = name.encode("utf-8")[:255]
        buf += struct.pack("<iiBBBBIB", int(round(lat * 1e6)), int(round(lon * 1e6)), mz, sr, lr, flags,
                           min(pop, 0xFFFFFFFF), len(nb))
        buf += nb
    return bytes(buf), len(out)


def seg_dist2(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    t = 0.0 if dd == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / dd))
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return qx * qx + qy * qy


def signed_distance(px, py, rings):
    """Distance from a point to the polygon's boundary, negative outside (even-odd)."""
    inside = False
    best = float("inf")
    for ring in rings:
        n = len(ring)
        j = n - 1
        for i in range(n):
            (xi, yi), (xj, yj) = ring[i], ring[j]
            if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi) + xi:
                inside = not inside
            best = min(best, seg_dist2(px, py, xi, yi, xj, yj))
            j = i
    d = math.sqrt(best)
    return d if inside else -d


def label_point(rings, precision):
    """The polygon's pole of inaccessibility (the inside point farthest from its edges), found
    by best-first subdivision of square cells (Garcia-Castellanos & Lombardo 2007)."""
    import heapq
    x0, y0, x1, y1 = bbox(rings[0])
    size = min(x1 - x0, y1 - y0)
    if size <= 0:
        return rings[0][0]
    h = size / 2
    heap = []
    best = ((x0 + x1) / 2, (y0 + y1) / 2)
    best_d = signed_distance(best[0], best[1], rings)
    y = y0
    while y < y1:
        x = x0
        while x < x1:
            cx, cy = x + h, y + h
            d = signed_distance(cx, cy, rings)
            heapq.heappush(heap, (-(d + h * math.sqrt(2)), cx, cy, h, d))
            x += size
        y += size
    while heap:
        neg_max, cx, cy, ch, d = heapq.heappop(heap)
        if d > best_d:
            best, best_d = (cx, cy), d
        if -neg_max - best_d <= precision:
            continue
        ch /= 2
        for sx in (-1, 1):
            for sy in (-1, 1):
                nx, ny = cx + sx * ch, cy + sy * ch
                nd = signed_distance(nx, ny, rings)
                heapq.heappush(heap, (-(nd + ch * math.sqrt(2)), nx, ny, ch, nd))
    return best


# Minimum render zoom of a country label by area (km²); countries are labelled below zoom 7 only.
COUNTRY_MIN_ZOOM = [(2.5e6, 1), (5e5, 2), (1e5, 3), (2e4, 4), (0, 5)]


def load_countries(gpkg):
    """Country labels from spData's world.gpkg: name_long at the pole of inaccessibility
    (in Web Mercator) of the country's largest polygon."""
    out = []
    for attrs, polys in ne_read.read_gpkg(gpkg):
        name = (attrs.get("name_long") or "").strip()
        if not name or name == "Antarctica":
            continue
        best = None
        for poly in polys:
            rings = [open_ring([merc(lon, lat) for lon, lat in r]) for r in poly]
            rings = [r for r in rings if len(r) >= 3]
            if rings and (best is None or abs(signed_area(rings[0])) > abs(signed_area(best[0]))):
                best = rings
        if best is None:
            continue
        x, y = label_point(best, 1.0 / 8192)
        lon = x * 360 - 180
        lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y))))
        area = attrs.get("area_km2") or 0
        mz = next(z for limit, z in COUNTRY_MIN_ZOOM if area >= limit)
        pop = int(attrs.get("pop") or 0)
        out.append((mz, mz, mz, 8, pop, lat, lon, name))
    return out


ATTRIBUTION = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com."


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--magics", default="/usr/share/magics", help="libmagics++-data's Natural Earth folder")
    ap.add_argument("--out", default=os.path.join(root, "Sources", "MapTiles", "Resources", "basemap.mwb"))
    ap.add_argument("--world", default="/usr/lib/R/site-library/spData/shapes/world.gpkg",
                    help="r-cran-spdata's world.gpkg (country labels); empty to leave them out")
    args = ap.parse_args()

    t0 = time.time()
    cache = {}
    level_blobs = []
    for scale, tz, bits, minzoom, tol in LEVELS:
        if scale not in cache:
            cache[scale] = load_level_sources(args.magics, scale)
        tiles = build_level(cache[scale], tz, bits, tol)
        stats = {"vertices": 0}
        entries = []
        data = bytearray()
        for (x, y) in sorted(tiles, key=lambda k: (k[1], k[0])):
            p, l = tiles[(x, y)]
            blob = encode_tile(x, y, tz, bits, p, l, stats)
            if blob is None:
                continue
            entries.append((x, y, len(data), len(blob)))
            data += blob
        level_blobs.append((scale, tz, bits, minzoom, entries, bytes(data)))
        print("level %s z%d: %d tiles, %d vertices, %d bytes (%.1fs)" %
              (scale, tz, len(entries), stats["vertices"], len(data), time.time() - t0), file=sys.stderr)

    places, nplaces = load_places(args.magics, args.world)
    attribution = ATTRIBUTION.encode("utf-8")

    # Layout: header, level records, tile indexes, tile data, places, attribution.
    header_size = 32
    level_rec = 16
    off = header_size + level_rec * len(level_blobs)
    index_offsets = []
    for lb in level_blobs:
        index_offsets.append(off)
        off += 12 * len(lb[4])
    data_offsets = []
    for lb in level_blobs:
        data_offsets.append(off)
        off += len(lb[5])
    places_off = off
    off += len(places)
    attr_off = off
    off += len(attribution)

    out = bytearray()
    out += b"MWBASEMP"
    out += struct.pack("<HHIIII", 1, len(level_blobs), places_off, len(places), attr_off, len(attribution))
    out += b"\0" * (header_size - len(out))
    for (scale, tz, bits, minzoom, entries, data), io, do in zip(level_blobs, index_offsets, data_offsets):
        out += struct.pack("<BBBBIII", tz, bits, minzoom, int(scale[:-1]), len(entries), io, do)
    for (scale, tz, bits, minzoom, entries, data) in level_blobs:
        for x, y, o, n in entries:
            out += struct.pack("<HHII", x, y, o, n)
    for lb in level_blobs:
        out += lb[5]
    out += places
    out += attribution
    assert len(out) == off
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
    os.replace(tmp, args.out)
    print("wrote %s: %d bytes, %d places (%.1fs)" % (args.out, len(out), nplaces, time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
