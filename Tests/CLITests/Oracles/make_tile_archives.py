#!/usr/bin/python3
"""Builds tile archives with independent tools, and the mosaics a render must match.

Usage: make_tile_archives.py OUTDIR [VENV_PYTHON]

1. A GeoTIFF in EPSG:3857 (GDAL's Python bindings) whose colours encode position:
   red = west→east fraction, green = north→south fraction (0…255), blue a checker pattern
   so any misplacement shows.
2. Archives of it made by other programs:
   - gdal.mbtiles     `gdal_translate -of MBTILES` + `gdaladdo` (TMS rows, zooms from GDAL)
   - gdal2tiles/      `gdal2tiles.py --xyz` (a directory of z/x/y.png)
   - mbutil.mbtiles   PyPI `mbutil` (`mb-util --scheme=xyz`) from the gdal2tiles directory
   - pmtiles.pmtiles  PyPI `pmtiles` (`pmtiles-convert`) from mbutil.mbtiles
3. For each archive, the 2×2 mosaic of the tiles around one tile corner at the archive's
   deepest zoom (read back with sqlite3, the pmtiles reader, or the files), as
   `NAME.mosaic.png`, and `NAME.view.json` with that corner and zoom.
4. `region.json`: the raster's bounds in EPSG:3857 metres (for the position test).
"""
import json, math, os, sqlite3, subprocess, sys
from io import BytesIO

from osgeo import gdal, osr
from PIL import Image

out = sys.argv[1]
venv_python = sys.argv[2] if len(sys.argv) > 2 else None
os.makedirs(out, exist_ok=True)
gdal.UseExceptions()

R = 6378137.0
def merc(lat, lon):
    x = math.radians(lon) * R
    y = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * R
    return x, y

# Around Lake Cerknica, Slovenia: 5 × 4 tiles of zoom 12, edges on the tile grid (gdal2tiles
# of GDAL 3.6 fails on slivers of a pixel at the raster's edges).
T = 2 * math.pi * R / 4096
ax, ay = merc(45.85, 14.20)
x0 = math.floor((ax + math.pi * R) / T) * T - math.pi * R
y1 = math.pi * R - math.floor((math.pi * R - ay) / T) * T
x1, y0 = x0 + 5 * T, y1 - 4 * T
W, H = 1400, 1200
drv = gdal.GetDriverByName("GTiff")
tif = os.path.join(out, "source.tif")
ds = drv.Create(tif, W, H, 3, gdal.GDT_Byte)
ds.SetGeoTransform((x0, (x1 - x0) / W, 0, y1, 0, -(y1 - y0) / H))
srs = osr.SpatialReference()
srs.ImportFromEPSG(3857)
ds.SetProjection(srs.ExportToWkt())
import array
r = array.array("B", bytes(W * H)); g = array.array("B", bytes(W * H)); b = array.array("B", bytes(W * H))
for j in range(H):
    gv = min(255, j * 256 // H)
    for i in range(W):
        k = j * W + i
        r[k] = min(255, i * 256 // W)
        g[k] = gv
        b[k] = 40 if ((i // 23) + (j // 17)) % 2 else 215
for band, data in ((1, r), (2, g), (3, b)):
    ds.GetRasterBand(band).WriteRaster(0, 0, W, H, data.tobytes())
ds.FlushCache()
ds = None

def run(args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

mb_gdal = os.path.join(out, "gdal.mbtiles")
run(["gdal_translate", "-q", "-of", "MBTILES", "-co", "TILE_FORMAT=PNG", tif, mb_gdal])
run(["gdaladdo", "-q", "-r", "average", mb_gdal, "2", "4", "8"])
d2t = os.path.join(out, "gdal2tiles")
run(["/usr/bin/python3", "/usr/bin/gdal2tiles.py", "--xyz", "-q", "-z", "9-12", "-r", "average", "--processes=1", tif, d2t])

archives = {"gdal.mbtiles": mb_gdal, "gdal2tiles": d2t}
if venv_python:
    bindir = os.path.dirname(venv_python)
    mb_util = os.path.join(out, "mbutil.mbtiles")
    # mb-util copies metadata.json into the archive; pmtiles-convert needs its `format`.
    def ll(x, y):
        return math.degrees(x / R), math.degrees(2 * math.atan(math.exp(y / R)) - math.pi / 2)
    (w_, s_), (e_, n_) = ll(x0, y0), ll(x1, y1)
    json.dump({"name": "position test", "format": "png", "attribution": "test raster", "minzoom": "9", "maxzoom": "12",
               "bounds": f"{w_},{s_},{e_},{n_}", "center": f"{(w_ + e_) / 2},{(s_ + n_) / 2},12"},
              open(os.path.join(d2t, "metadata.json"), "w"))
    run([os.path.join(bindir, "mb-util"), "--scheme=xyz", "--image_format=png", "--silent", d2t, mb_util])
    pm = os.path.join(out, "pmtiles.pmtiles")
    run([os.path.join(bindir, "pmtiles-convert"), mb_util, pm])
    archives["mbutil.mbtiles"] = mb_util
    archives["pmtiles.pmtiles"] = pm

def mbtiles_reader(path):
    db = sqlite3.connect(path)
    maxz = db.execute("SELECT max(zoom_level) FROM tiles").fetchone()[0]
    def get(z, x, y):
        row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                         (z, x, (1 << z) - 1 - y)).fetchone()
        return row[0] if row else None
    return maxz, get

def dir_reader(path):
    maxz = max(int(z) for z in os.listdir(path) if z.isdigit())
    def get(z, x, y):
        f = os.path.join(path, str(z), str(x), f"{y}.png")
        return open(f, "rb").read() if os.path.exists(f) else None
    return maxz, get

def pmtiles_reader(path):
    # The reader of the PyPI pmtiles package, run in its venv.
    code = r"""
import sys, json, base64
from pmtiles.reader import Reader, MmapSource
f = open(sys.argv[1], 'rb')
r = Reader(MmapSource(f))
h = r.header()
req = json.loads(sys.argv[2])
res = {}
for z, x, y in req:
    d = r.get(z, x, y)
    res[f"{z}/{x}/{y}"] = base64.b64encode(d).decode() if d else None
print(json.dumps({"maxz": h["max_zoom"], "tiles": res}))
"""
    def query(req):
        p = subprocess.run([venv_python, "-c", code, path, json.dumps(req)], check=True, capture_output=True, text=True)
        return json.loads(p.stdout)
    maxz = query([])["maxz"]
    import base64
    def get(z, x, y):
        v = query([[z, x, y]])["tiles"][f"{z}/{x}/{y}"]
        return base64.b64decode(v) if v else None
    return maxz, get

views = {}
for name, path in archives.items():
    if name.endswith(".mbtiles"):
        maxz, get = mbtiles_reader(path)
    elif name.endswith(".pmtiles"):
        maxz, get = pmtiles_reader(path)
    else:
        maxz, get = dir_reader(path)
    # The tile corner nearest the raster's centre at the deepest zoom.
    n = 1 << maxz
    cx = (x0 + x1) / 2 / (2 * math.pi * R) + 0.5
    cy = 0.5 - (y0 + y1) / 2 / (2 * math.pi * R)
    tx, ty = round(cx * n), round(cy * n)
    mosaic = Image.new("RGBA", (512, 512))
    for dy in (0, 1):
        for dx in (0, 1):
            data = get(maxz, tx - 1 + dx, ty - 1 + dy)
            assert data, f"{name}: tile {maxz}/{tx - 1 + dx}/{ty - 1 + dy} missing"
            mosaic.paste(Image.open(BytesIO(data)).convert("RGBA"), (dx * 256, dy * 256))
    base = os.path.join(out, name.replace("/", ""))
    mosaic.save(base + ".mosaic.png")
    lon = tx / n * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * ty / n))))
    views[name] = {"z": maxz, "lat": lat, "lon": lon, "path": path}
json.dump(views, open(os.path.join(out, "views.json"), "w"), indent=1)
json.dump({"x0": x0, "y0": y0, "x1": x1, "y1": y1, "width": W, "height": H}, open(os.path.join(out, "region.json"), "w"))
print("ok", " ".join(sorted(archives)))
