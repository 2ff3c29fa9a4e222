"""A load of distinct (uncached) static-map and tile requests for SECONDS from 6 threads (standard
library only). usage: load_run.py BASE_URL SECONDS. Prints JSON: requests, statuses, failures
(anything but 200: status, or the exception of a reset or refused connection)."""
import json, random, sys, threading, time, urllib.request, urllib.error

BASE, SECONDS = sys.argv[1], float(sys.argv[2])
lock = threading.Lock()
statuses, failures = {}, []
count = 0

def worker(seed):
    global count
    r = random.Random(seed)
    end = time.time() + SECONDS
    while time.time() < end:
        if r.random() < 0.5:
            url = f"{BASE}/static?center={r.uniform(-60, 60):.5f},{r.uniform(-170, 170):.5f}&zoom={r.randint(2, 6)}&size=160x120"
        else:
            z = r.randint(4, 8); n = 1 << z
            url = f"{BASE}/tiles/{z}/{r.randrange(n)}/{r.randrange(n)}.png"
        try:
            with urllib.request.urlopen(url, timeout=30) as resp:
                body = resp.read()
                st = resp.status if body[:4] == b"\x89PNG" else "not a PNG"
        except urllib.error.HTTPError as e:
            st = e.code
        except Exception as e:
            st = type(e).__name__
        with lock:
            count += 1
            statuses[str(st)] = statuses.get(str(st), 0) + 1
            if st != 200:
                failures.append({"url": url, "status": str(st)})

threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"requests": count, "statuses": statuses, "failures": failures[:20], "failureCount": len(failures)}))
