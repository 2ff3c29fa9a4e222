#!/usr/bin/python3
"""A tile server on 127.0.0.1 that misbehaves for chosen tiles (for the fault tests).

Usage: fault_tile_server.py TILE_DIR PORT_FILE

Serves TILE_DIR/{z}/{x}/{y}.png at /{z}/{x}/{y}.png (and any file, with Range requests) with Cache-Control max-age=3600 and an
ETag. Tiles listed in TILE_DIR/faults.json ({"z/x/y": "404"|"500"|"slow"|"truncated"|"html"|"norange"})
misbehave: 404 and 500 status codes, an answer after 30 s, the first 100 bytes of the PNG,
an HTML page with status 200, or the whole file whatever Range asks (as Python's http.server does); "*" sets every answer's Cache-Control instead. Every request is logged to TILE_DIR/requests.log (path and
User-Agent and If-None-Match). Writes the port it listens on to PORT_FILE.
"""
import hashlib, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

root, port_file = sys.argv[1], sys.argv[2]
faults = json.load(open(os.path.join(root, "faults.json"))) if os.path.exists(os.path.join(root, "faults.json")) else {}
lock = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        with lock:
            with open(os.path.join(root, "requests.log"), "a") as f:
                f.write(f"{self.path}\t{self.headers.get('User-Agent')}\t{self.headers.get('If-None-Match')}\n")
        key = self.path.strip("/").rsplit(".", 1)[0]
        fault = faults.get(key)
        path = os.path.join(root, self.path.strip("/"))
        if fault == "404" or not os.path.exists(path):
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        if fault == "500":
            self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers(); return
        if fault == "slow":
            time.sleep(30)
        data = open(path, "rb").read()
        etag = '"' + hashlib.md5(data).hexdigest() + '"'
        # faults.json {"*": VALUE}: VALUE is every answer's Cache-Control, e.g. "no-cache" (every
        # answer must be revalidated with a conditional request) or a malformed "max-age=inf".
        cache_control = faults.get("*", "max-age=3600")
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304); self.send_header("ETag", etag); self.send_header("Cache-Control", cache_control)
            self.end_headers(); return
        ctype = "application/x-protobuf" if path.endswith(".pbf") else "image/png"
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and fault != "norange":
            # Range requests (PMTiles over HTTP): 206 with the slice.
            a, b = rng[6:].split("-")
            a, b = int(a), min(int(b), len(data) - 1)
            if a >= len(data):
                self.send_response(416); self.send_header("Content-Length", "0"); self.end_headers(); return
            part = data[a:b + 1]
            self.send_response(206)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Range", f"bytes {a}-{b}/{len(data)}")
            self.send_header("Content-Length", str(len(part)))
            self.end_headers()
            self.wfile.write(part)
            return
        if fault == "truncated":
            data = data[:100]
        if fault == "html":
            data = b"<html><body>Rate limited</body></html>"
            ctype = "text/html"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", cache_control)
        self.send_header("ETag", etag)
        self.end_headers()
        try:
            self.wfile.write(data)
        except BrokenPipeError:
            pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
