#!/usr/bin/env python3
"""Draws a view of basemap.mwb to a PNG with an independent decoder (standard library only),
to look at what the converter produced without the Swift renderer.

    python3 scripts/basemap/preview.py --center 48,10 --zoom 3 --size 1024x768 --style light --out /tmp/europe.png

Polygons are filled with the even-odd rule per polygon, lines drawn 1 px wide, places as dots
(country label points as larger red dots; no text). Level selection mirrors EmbeddedBasemap: the last level whose minZoom ≤ zoom.
"""
import argparse
import math
import os
import struct
import zlib

STYLES = {
    "light": dict(ocean=(0xAA, 0xD3, 0xDF), land=(0xF2, 0xEF, 0xE9), lake=(0xAA, 0xD3, 0xDF),
                  coast=(0x7F, 0xAF, 0xC4), border=(0x9E, 0x8F, 0xA8), dot=(0x33, 0x33, 0x33)),
    "dark": dict(ocean=(0x0F, 0x1B, 0x2D), land=(0x45, 0x4A, 0x53), lake=(0x0F, 0x1B, 0x2D),
                 coast=(0x5E, 0x6E, 0x85), border=(0x9A, 0xA1, 0xAC), dot=(0xE8, 0xE8, 0xE8)),
}


def read_varint(d, p):
    v, s = 0, 0
    while True:
        b = d[p]
        p += 1
        v |= (b & 0x7F) << s
        if not b & 0x80:
            return v, p
        s += 7


def unzig(v):
    return (v >> 1) ^ -(v & 1)


def load(path):
    d = open(path, "rb").read()
    magic, ver, nl, po, pl, ao, al = struct.unpack("<8sHHIIII", d[:28])
    assert magic == b"MWBASEMP" and ver == 1
    levels = []
    for i in range(nl):
        tz, bits, mz, scale, n, io, do = struct.unpack("<BBBBIII", d[32 + 16 * i:48 + 16 * i])
        tiles = {}
        for k in range(n):
            x, y, o, ln = struct.unpack("<HHII", d[io + 12 * k: io + 12 * k + 12])
            tiles[(x, y)] = (do + o, ln)
        levels.append(dict(tz=tz, bits=bits, minzoom=mz, scale=scale, tiles=tiles))
    places = []
    p = po
    (n,) = struct.unpack("<I", d[p:p + 4])
    p += 4
    for _ in range(n):
        lat, lon, mz, sr, lr, fl, pop, ln = struct.unpack("<iiBBBBIB", d[p:p + 17])
        name = d[p + 17:p + 17 + ln].decode("utf-8")
        p += 17 + ln
        places.append((lat / 1e6, lon / 1e6, mz, name, fl))
    return d, levels, places


def decode_tile(d, level, x, y):
    off, ln = level["tiles"][(x, y)]
    end = off + ln
    shift = level["bits"] - level["tz"]
    cx, cy = x << shift, y << shift
    scale = 1.0 / (1 << level["bits"])
    p = off
    polys, lines = [], []

    def pts(p, cx, cy):
        n, p = read_varint(d, p)
        out = []
        for _ in range(n):
            dx, p = read_varint(d, p)
            dy, p = read_varint(d, p)
            cx += unzig(dx)
            cy += unzig(dy)
            out.append((cx * scale, cy * scale))
        return out, p, cx, cy

    np_, p = read_varint(d, p)
    for _ in range(np_):
        kind, p = read_varint(d, p)
        nr, p = read_varint(d, p)
        rings = []
        for _ in range(nr):
            r, p, cx, cy = pts(p, cx, cy)
            rings.append(r)
        polys.append((kind, rings))
    nline, p = read_varint(d, p)
    for _ in range(nline):
        kind, p = read_varint(d, p)
        r, p, cx, cy = pts(p, cx, cy)
        lines.append((kind, r))
    assert p == end, "tile %d,%d: %d stray bytes" % (x, y, end - p)
    return polys, lines


def merc(lat, lon):
    lat = max(-85.0511287798, min(85.0511287798, lat))
    s = math.sin(math.radians(lat))
    return (lon + 180) / 360, 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi


def fill(img, w, h, rings, color):
    edges = []
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            if y1 != y2:
                edges.append((x1, y1, x2, y2))
    if not edges:
        return
    rows = {}
    for e in edges:
        x1, y1, x2, y2 = e
        lo = max(0, int(math.ceil(min(y1, y2) - 0.5)))
        hi = min(h - 1, int(math.floor(max(y1, y2) - 0.5)))
        for yy in range(lo, hi + 1):
            rows.setdefault(yy, []).append(e)
    for yy, es in rows.items():
        sy = yy + 0.5
        xs = []
        for x1, y1, x2, y2 in es:
            if (y1 <= sy) != (y2 <= sy):
                xs.append(x1 + (sy - y1) * (x2 - x1) / (y2 - y1))
        xs.sort()
        row = yy * w
        for i in range(0, len(xs) - 1, 2):
            a = max(0, int(math.ceil(xs[i] - 0.5)))
            b = min(w - 1, int(math.floor(xs[i + 1] - 0.5)))
            for xx in range(a, b + 1):
                img[row + xx] = color


def line(img, w, h, pts, color):
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        n = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
        for k in range(n + 1):
            t = k / n
            x, y = int(x1 + t * (x2 - x1)), int(y1 + t * (y2 - y1))
            if 0 <= x < w and 0 <= y < h:
                img[y * w + x] = color


def write_png(path, img, w, h):
    raw = bytearray()
    for y in range(h):
        raw.append(0)
        for c in img[y * w:(y + 1) * w]:
            raw += bytes(c)

    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(root, "Sources", "MapTiles", "Resources", "basemap.mwb"))
    ap.add_argument("--center", default="20,0")
    ap.add_argument("--zoom", type=float, default=0.5)
    ap.add_argument("--size", default="1024x768")
    ap.add_argument("--style", default="light", choices=sorted(STYLES))
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    lat, lon = map(float, a.center.split(","))
    w, h = map(int, a.size.split("x"))
    d, levels, places = load(a.file)
    st = STYLES[a.style]
    world = 512 * 2 ** a.zoom
    cx, cy = merc(lat, lon)
    x0, y0 = cx - w / world / 2, cy - h / world / 2
    li = max(i for i, lv in enumerate(levels) if lv["minzoom"] <= a.zoom) if a.zoom >= 0 else 0
    lv = levels[li]
    n = 1 << lv["tz"]
    img = [st["ocean"]] * (w * h)
    polys, lines = [], []
    for copy in range(math.floor(x0), math.ceil(x0 + w / world)):
        for ty in range(max(0, int(y0 * n)), min(n - 1, int((y0 + h / world) * n)) + 1):
            for tx in range(max(0, int((x0 - copy) * n)), min(n - 1, int((x0 + w / world - copy) * n)) + 1):
                if (tx, ty) not in lv["tiles"]:
                    continue
                p, l = decode_tile(d, lv, tx, ty)
                tr = lambda q: ((q[0] + copy - x0) * world, (q[1] - y0) * world)  # noqa: E731
                polys += [(k, [[tr(q) for q in r] for r in rings]) for k, rings in p]
                lines += [(k, [tr(q) for q in r]) for k, r in l]
    for kind in (0, 1):
        for k, rings in polys:
            if k == kind:
                fill(img, w, h, rings, st["land"] if k == 0 else st["lake"])
    for k, pts in lines:
        line(img, w, h, pts, st["border"])
    for plat, plon, mz, name, fl in places:
        if mz > a.zoom or (fl & 8 and a.zoom >= 7):
            continue
        r = 2 if fl & 8 else 1
        color = (0xD0, 0x30, 0x30) if fl & 8 else st["dot"]
        px, py = merc(plat, plon)
        for copy in range(math.floor(x0), math.ceil(x0 + w / world)):
            sx, sy = int((px + copy - x0) * world), int((py - y0) * world)
            for ddx in range(-r, r + 1):
                for ddy in range(-r, r + 1):
                    if 0 <= sx + ddx < w and 0 <= sy + ddy < h:
                        img[(sy + ddy) * w + sx + ddx] = color
    write_png(a.out, img, w, h)
    print("%s: level %d (%dm, tile zoom %d), %d polygons, %d lines" % (a.out, li, lv["scale"], lv["tz"], len(polys), len(lines)))


if __name__ == "__main__":
    main()
