#!/usr/bin/env python3
"""Writes every tile of an MBTiles (Python's sqlite3) or PMTiles (PyPI pmtiles reader) archive
to OUTDIR/z_x_y.png (XYZ rows) and prints the archive's metadata and tile count as JSON.
Run PMTiles with the venv's python (it imports pmtiles)."""
import json, os, sqlite3, sys

path, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
count = 0
meta = {}
if path.endswith(".mbtiles"):
    db = sqlite3.connect(path)
    meta = dict(db.execute("SELECT name, value FROM metadata").fetchall())
    for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        y = (1 << z) - 1 - row
        open(os.path.join(out, f"{z}_{x}_{y}.png"), "wb").write(data)
        count += 1
else:
    from pmtiles.reader import Reader, MmapSource, all_tiles
    with open(path, "rb") as f:
        src = MmapSource(f)
        r = Reader(src)
        h = r.header()
        meta = r.metadata()
        meta["min_zoom"], meta["max_zoom"] = h["min_zoom"], h["max_zoom"]
        meta["clustered"] = h["clustered"]
        for (z, x, y), data in all_tiles(src):
            open(os.path.join(out, f"{z}_{x}_{y}.png"), "wb").write(data)
            count += 1
print(json.dumps({"count": count, "metadata": meta}))
