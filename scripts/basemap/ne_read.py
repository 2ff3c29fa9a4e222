"""Minimal readers for the source formats the basemap converter needs (standard library only).

- ESRI shapefiles (.shp geometry + .dbf attributes): point, polyline and polygon shapes,
  per the ESRI Shapefile Technical Description (July 1998).
- GeoPackage (SQLite) feature tables holding GeoPackage binary WKB geometries
  (OGC 12-128r18, section 2.1.3), for spData's world.gpkg.
"""
import sqlite3
import struct


def read_dbf(path):
    """Returns a list of dicts, one per record, per the dBASE III table layout."""
    with open(path, "rb") as f:
        data = f.read()
    nrec, hlen, rlen = struct.unpack("<IHH", data[4:12])
    fields = []
    pos = 32
    while data[pos] != 0x0D:
        name = data[pos:pos + 11].split(b"\0")[0].decode("ascii")
        ftype = chr(data[pos + 11])
        flen = data[pos + 16]
        fields.append((name, ftype, flen))
        pos += 32
    out = []
    for i in range(nrec):
        rec = data[hlen + i * rlen: hlen + (i + 1) * rlen]
        if rec[:1] == b"*":
            out.append(None)  # deleted record
            continue
        off = 1
        row = {}
        for name, ftype, flen in fields:
            raw = rec[off:off + flen]
            off += flen
            # Natural Earth's .dbf text is mostly UTF-8, but some releases (the Debian
            # package's populated places among them) store Windows-1252: "Z\xfcrich".
            try:
                txt = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                txt = raw.decode("cp1252", errors="replace").strip()
            if ftype in "NF":
                try:
                    row[name] = float(txt) if txt else None
                except ValueError:
                    row[name] = None
            else:
                row[name] = txt
        out.append(row)
    return out


def read_shp(path):
    """Returns a list of (shape_type, parts) per record; parts are lists of (lon, lat).
    Record positions come from the .shx index: some shipped .shp files have gaps
    between records that a sequential walk would misread."""
    with open(path, "rb") as f:
        data = f.read()
    with open(path[:-4] + ".shx", "rb") as f:
        index = f.read()
    out = []
    for k in range(100, len(index) - 7, 8):
        off, clen = struct.unpack(">ii", index[k:k + 8])
        pos = off * 2
        rec = data[pos + 8: pos + 8 + clen * 2]
        (stype,) = struct.unpack("<i", rec[:4])
        if stype == 0:
            out.append((0, []))
        elif stype in (1, 11, 21):  # point (Z/M variants: x, y first)
            x, y = struct.unpack("<dd", rec[4:20])
            out.append((1, [[(x, y)]]))
        elif stype in (3, 5, 13, 15, 23, 25):  # polyline / polygon
            nparts, npoints = struct.unpack("<ii", rec[36:44])
            starts = list(struct.unpack("<%di" % nparts, rec[44:44 + 4 * nparts]))
            p0 = 44 + 4 * nparts
            coords = struct.unpack("<%dd" % (2 * npoints), rec[p0:p0 + 16 * npoints])
            pts = list(zip(coords[0::2], coords[1::2]))
            starts.append(npoints)
            parts = [pts[starts[k]:starts[k + 1]] for k in range(nparts)]
            out.append((5 if stype % 10 == 5 else 3, parts))
        else:
            raise ValueError("%s: unsupported shape type %d" % (path, stype))
    return out


def read_features(stem):
    """Zips .shp geometries with .dbf attributes for a shapefile path without extension."""
    shapes = read_shp(stem + ".shp")
    attrs = read_dbf(stem + ".dbf")
    return [(s, a) for s, a in zip(shapes, attrs) if a is not None]


def _wkb(buf, pos):
    """Parses one WKB geometry at pos; returns (geometry, new_pos).
    Polygons come back as lists of rings; multipolygons as lists of polygons."""
    order = "<" if buf[pos] == 1 else ">"
    (gtype,) = struct.unpack(order + "I", buf[pos + 1:pos + 5])
    pos += 5
    dims = 2
    base = gtype % 1000
    if gtype >= 1000:
        dims = {1: 3, 2: 3, 3: 4}[gtype // 1000]
    if base == 3:
        (nrings,) = struct.unpack(order + "I", buf[pos:pos + 4])
        pos += 4
        rings = []
        for _ in range(nrings):
            (n,) = struct.unpack(order + "I", buf[pos:pos + 4])
            pos += 4
            vals = struct.unpack(order + "%dd" % (n * dims), buf[pos:pos + 8 * n * dims])
            pos += 8 * n * dims
            rings.append([(vals[i * dims], vals[i * dims + 1]) for i in range(n)])
        return ("Polygon", rings), pos
    if base == 6:
        (n,) = struct.unpack(order + "I", buf[pos:pos + 4])
        pos += 4
        polys = []
        for _ in range(n):
            (_, rings), pos = _wkb(buf, pos)
            polys.append(rings)
        return ("MultiPolygon", polys), pos
    raise ValueError("unsupported WKB type %d" % gtype)


def read_gpkg(path, table=None):
    """Reads a GeoPackage feature table; returns a list of (attrs, polygons)."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    cur = con.cursor()
    if table is None:
        table = cur.execute("select table_name from gpkg_contents where data_type='features'").fetchone()[0]
    gcol = cur.execute("select column_name from gpkg_geometry_columns where table_name=?", (table,)).fetchone()[0]
    cur.execute('select * from "%s"' % table)
    names = [d[0] for d in cur.description]
    out = []
    for row in cur.fetchall():
        rec = dict(zip(names, row))
        blob = rec.pop(gcol)
        if blob is None:
            continue
        flags = blob[3]
        env = (flags >> 1) & 7
        hdr = 8 + {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[env]
        (kind, geom), _ = _wkb(blob, hdr)
        polys = [geom] if kind == "Polygon" else geom
        out.append((rec, polys))
    con.close()
    return out
