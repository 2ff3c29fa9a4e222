"""Static-map URLs built by PyPI `motionless` (a Google Static Maps client), as JSON on stdout.
Each: {"name", "query" (the URL's query string), "urlPath" (its path, Google's), "markers": [[lat, lon, colour]], "path": [[lat, lon]],
"center"/"zoom" when the URL has them}. Run with the venv's python (.venv-oracles)."""
import json
from urllib.parse import urlsplit
from motionless import CenterMap, DecoratedMap, LatLonMarker

out = []
# A decorated map with an explicit centre and zoom: two markers and an encoded path.
dm = DecoratedMap(lat=48.8566, lon=2.3522, zoom=5, size_x=600, size_y=400, maptype="roadmap", pathweight=6, pathcolor="0xff0000ff")
dm.add_marker(LatLonMarker(48.8566, 2.3522, color="blue", label="P"))
dm.add_marker(LatLonMarker(50.85, 4.35, color="green", label="B"))
for lat, lon in [(48.8566, 2.3522), (50.85, 4.35), (52.37, 4.90)]:
    dm.add_path_latlon(lat, lon)
out.append({"name": "decorated-centred", "query": urlsplit(dm.generate_url()).query, "urlPath": urlsplit(dm.generate_url()).path,
            "center": [48.8566, 2.3522], "zoom": 5, "size": [600, 400],
            "markers": [[48.8566, 2.3522, "0000ff"], [50.85, 4.35, "00c000"]],
            "path": [[48.8566, 2.3522], [50.85, 4.35], [52.37, 4.90]]})
# Without centre and zoom: the server fits the markers and the path.
fit = DecoratedMap(size_x=500, size_y=400, pathweight=4, pathcolor="0xff0000ff")
fit.add_marker(LatLonMarker(40.7128, -74.0060, color="blue"))
fit.add_marker(LatLonMarker(41.8781, -87.6298, color="green"))
for lat, lon in [(40.7128, -74.0060), (39.9526, -75.1652), (41.8781, -87.6298)]:
    fit.add_path_latlon(lat, lon)
out.append({"name": "decorated-fitted", "query": urlsplit(fit.generate_url()).query, "urlPath": urlsplit(fit.generate_url()).path, "size": [500, 400],
            "markers": [[40.7128, -74.0060, "0000ff"], [41.8781, -87.6298, "00c000"]],
            "path": [[40.7128, -74.0060], [39.9526, -75.1652], [41.8781, -87.6298]]})
# A centre map (no overlays).
cm = CenterMap(lat=35.68, lon=139.69, zoom=6, size_x=300, size_y=200)
out.append({"name": "center", "query": urlsplit(cm.generate_url()).query, "urlPath": urlsplit(cm.generate_url()).path, "center": [35.68, 139.69], "zoom": 6,
            "size": [300, 200], "markers": [], "path": []})
print(json.dumps(out))
