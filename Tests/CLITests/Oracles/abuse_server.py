"""Hostile clients against a Mapwright server on 127.0.0.1 (test oracle, standard library only).

usage: abuse_server.py PORT PID [COUNT]
Sends COUNT (default 10000) malformed or hostile requests from 8 threads over raw sockets —
bad numbers, NaN, huge sizes, 100,000 markers, broken polylines, traversal paths, invalid UTF-8,
oversized bodies, bad JSON — while 4 slow clients trickle headers. Prints one JSON object:
counts by status, failures (non-4xx answers, resets, timeouts), the slowest answer, the
server's RSS before and after (from /proc/PID/status), and whether /healthz still answers."""
import json, random, socket, sys, threading, time

PORT, PID = int(sys.argv[1]), int(sys.argv[2])
COUNT = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
DEADLINE = 15.0

def rss_kb():
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1

def raw(request: bytes, timeout=DEADLINE):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    try:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        line = data.split(b"\r\n", 1)[0].decode("latin-1")
        return int(line.split()[1]) if line.startswith("HTTP/1.1") else -1
    finally:
        s.close()

def get(path: bytes):
    return raw(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")

def post(path: bytes, body: bytes, length=None):
    n = len(body) if length is None else length
    return raw(b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
               + str(n).encode() + b"\r\nConnection: close\r\n\r\n" + body)

many_markers = b"/static?size=100x100&markers=" + b"%7C".join([b"1,2"] * 100000)
many_points = b"/static?size=100x100&path=" + b"%7C".join([b"1,2"] * 60000)
CASES = [
    lambda r: get(b"/static?center=nan,nan&zoom=3&size=100x100"),
    lambda r: get(b"/static?center=1e999,2&zoom=3&size=100x100"),
    lambda r: get(b"/static?center=1,2&zoom=-1&size=100x100"),
    lambda r: get(b"/static?center=1,2&zoom=inf&size=100x100"),
    lambda r: get(b"/static?center=1,2&zoom=3&size=100000x100000"),
    lambda r: get(b"/static?center=1,2&zoom=3&size=-5x10"),
    lambda r: get(b"/static?center=1,2&zoom=3&size=2048x2048&scale=4"),
    lambda r: get(b"/static?center=1,2&zoom=3&size=100x100&scale=99999999999999999999"),
    lambda r: get(many_markers),
    lambda r: get(many_points),
    lambda r: get(b"/static?size=100x100&path=enc:" + bytes(r.choice(b"?@~}|{_^") for _ in range(r.randint(1, 40))) + b"%7F"),
    lambda r: get(b"/static?size=100x100&path=enc:%7F%7F%7F%7F"),
    lambda r: get(b"/static?center=%FF%FE%FD,1&zoom=3&size=10x10"),
    lambda r: get(b"/static?center=%C3%28,1&zoom=3&size=10x10"),
    lambda r: get(b"/static?center=1,2%&zoom=3&size=10x10"),
    lambda r: get(b"/static?" + b"a=" * 3000),
    lambda r: get(b"/static?center=1,2&zoom=3&size=100x100&markers=icon:http://evil/x.png%7C1,2"),
    lambda r: get(b"/static?center=1,2&zoom=3&size=100x100&circle=1,2,1e308km"),
    lambda r: get(b"/data/../../../../etc/passwd"),
    lambda r: get(b"/data/%2e%2e/%2e%2e/etc/passwd.png"),
    lambda r: get(b"/data/x/0/0/0.png"),
    lambda r: get(b"/tiles/99/0/0.png"),
    lambda r: get(b"/tiles/3/-1/0.png"),
    lambda r: get(b"/tiles/3/0/99999999999999999999999.png"),
    lambda r: get(b"/tiles/../../etc/passwd"),
    lambda r: get(b"/leaflet/../../../etc/passwd"),
    lambda r: get(b"/styles/v1/u/s/static/url-http%3A%2F%2Fevil(1,2)/auto/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/geojson(%7B%22type%22:%22Point%22)/auto/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/geojson(" + b"%5B" * 5000 + b")/auto/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/path-5+zzz(abc)/auto/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/pin-s(((((/auto/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/1,2,nan/100x100"),
    lambda r: get(b"/styles/v1/u/s/static/1,2,3/0x0@2x"),
    lambda r: get(b"/x" * 9000),
    lambda r: post(b"/static", b"{\"size\": [10,"),
    lambda r: post(b"/static", b"[" * 100000),
    lambda r: post(b"/static", b"{\"overlays\":[{\"type\":\"route\",\"file\":\"/etc/passwd\"}]}"),
    lambda r: post(b"/static", b"{\"tiles\":[{\"source\":\"http://127.0.0.1:1/{z}/{x}/{y}.png\"}]}"),
    lambda r: post(b"/static", b"{\"size\":[100000,100000],\"camera\":{\"center\":[0,0],\"zoom\":1}}"),
    lambda r: post(b"/static", b"\xff\xfe\x00{"),
    lambda r: post(b"/static", b"x" * (2 << 20)),
    lambda r: post(b"/static", b"{}", length=50 << 20),
]

import os
if os.environ.get("ABUSE_CASES"):
    keep = [int(x) for x in os.environ["ABUSE_CASES"].split(",")]
    CASES = [CASES[k] for k in keep]
lock = threading.Lock()
status_counts, failures, slowest = {}, [], 0.0

def worker(seed, n):
    global slowest
    r = random.Random(seed)
    for _ in range(n):
        k = r.randrange(len(CASES))
        t0 = time.time()
        try:
            st = CASES[k](r)
        except Exception as e:  # a reset or timeout is a failure
            st = f"{type(e).__name__}"
        dt = time.time() - t0
        with lock:
            status_counts[str(st)] = status_counts.get(str(st), 0) + 1
            slowest = max(slowest, dt)
            if not (isinstance(st, int) and 400 <= st < 500) or dt > DEADLINE:
                failures.append({"case": k, "status": st, "seconds": round(dt, 3)})

def slow_client():
    # Trickles a request line one byte every 0.2 s; the server may close it (idle timeout) but must stay up.
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
        for b in b"GET /static?center=1,2&zoom=3":
            s.send(bytes([b])); time.sleep(0.2)
        s.close()
    except Exception:
        pass

rss0 = rss_kb()
threads = [threading.Thread(target=worker, args=(i, COUNT // 8)) for i in range(8)]
threads += [threading.Thread(target=slow_client) for _ in range(4)]
t0 = time.time()
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.time() - t0
time.sleep(1.0)
rss1 = rss_kb()
try:
    health = get(b"/healthz")
except Exception as e:
    health = str(e)
print(json.dumps({"requests": (COUNT // 8) * 8, "statuses": status_counts, "failures": failures[:20], "failureCount": len(failures),
                  "slowest": round(slowest, 3), "seconds": round(elapsed, 1), "rssBeforeKB": rss0, "rssAfterKB": rss1,
                  "health": health}))
