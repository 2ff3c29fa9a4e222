#!/usr/bin/env bash
# Replicas of `mapwright serve` behind Debian's nginx: one upstream with retries to the next replica
# and a shared proxy_cache in front. Runs in the foreground, prints one line per process
# ("replica PID PORT", "nginx PID PORT") and stops them all on SIGTERM or SIGINT.
# usage: scripts/scale-out.sh --port P [--replicas N (default 2)] [-- SERVE_FLAGS…]
#   Replicas listen on free ports of 127.0.0.1 that the system picks (each printed), nginx on
#   127.0.0.1:P. The binary is $MAPWRIGHT, else
#   `mapwright` on PATH, else .build/release/mapwright, else .build/debug/mapwright.
#   Needs nginx (Debian nginx-light or nginx).
set -euo pipefail
PORT=""; REPLICAS=2; SERVE=()
while [ $# -gt 0 ]; do
  case "$1" in
    --port) PORT=$2; shift 2 ;;
    --replicas) REPLICAS=$2; shift 2 ;;
    --) shift; SERVE=("$@"); break ;;
    *) echo "scale-out: unknown argument '$1' (usage: scale-out.sh --port P [--replicas N] [-- SERVE_FLAGS…])" >&2; exit 2 ;;
  esac
done
[[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || { echo "scale-out: --port P is required (1…65535)" >&2; exit 2; }
[[ "$REPLICAS" =~ ^[0-9]+$ ]] && [ "$REPLICAS" -ge 1 ] && [ "$REPLICAS" -le 64 ] || { echo "scale-out: --replicas must be 1…64" >&2; exit 2; }
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MW=${MAPWRIGHT:-$(command -v mapwright || true)}
for c in "$ROOT/.build/release/mapwright" "$ROOT/.build/debug/mapwright"; do [ -n "$MW" ] || { [ -x "$c" ] && MW=$c; }; done
[ -n "$MW" ] && [ -x "$MW" ] || { echo "scale-out: no mapwright binary (swift build -c release, or set MAPWRIGHT)" >&2; exit 1; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "scale-out: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }

DIR=$(mktemp -d /tmp/mapwright-scale-out.XXXXXX)
chmod 755 "$DIR"
mkdir -p "$DIR/cache" "$DIR/tmp"
chmod 777 "$DIR/cache" "$DIR/tmp"   # nginx's workers run as an unprivileged user when started as root
pids=()
stop() {
  trap - TERM INT EXIT
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$DIR"
  exit 0
}
trap stop TERM INT EXIT

upstreams=""
for i in $(seq "$REPLICAS"); do
  # Port 0: the system picks a free port (a fixed PORT+i may already be some connection's
  # ephemeral port), and the replica says which.
  "$MW" serve --host 127.0.0.1 --port 0 "${SERVE[@]}" > "$DIR/replica$i.out" 2> "$DIR/replica$i.err" &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 300); do grep -q "listening on" "$DIR/replica$i.out" 2>/dev/null && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  grep -q "listening on" "$DIR/replica$i.out" || { echo "scale-out: replica $i did not start: $(tail -3 "$DIR/replica$i.err")" >&2; exit 1; }
  port=$(grep -o "listening on http://127.0.0.1:[0-9]*" "$DIR/replica$i.out" | head -1 | sed 's/.*://')
  echo "replica $pid $port"
  upstreams+="    server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
done

cat > "$DIR/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $DIR/nginx.pid;
error_log $DIR/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $DIR/tmp/body;
  proxy_temp_path $DIR/tmp/proxy;
  fastcgi_temp_path $DIR/tmp/fastcgi;
  uwsgi_temp_path $DIR/tmp/uwsgi;
  scgi_temp_path $DIR/tmp/scgi;
  proxy_cache_path $DIR/cache levels=1:2 keys_zone=mapwright:16m max_size=1g inactive=60m use_temp_path=off;
  upstream mapwright {
$upstreams    keepalive 32;
  }
  server {
    listen 127.0.0.1:$PORT;
    client_max_body_size 2m;
    location / {
      proxy_pass http://mapwright;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      # A replica that is stopping, gone or overloaded: the request goes to the next one.
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries $((REPLICAS + 1));
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
      proxy_cache mapwright;
      proxy_cache_valid 200 10m;
      proxy_cache_lock on;
      add_header X-Cache-Status \$upstream_cache_status;
    }
    location ~ ^/(healthz|metrics)$ {
      proxy_pass http://mapwright;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_next_upstream error timeout http_502 http_503;
      proxy_cache off;
    }
  }
}
CONF
"$NGINX" -c "$DIR/nginx.conf" -p "$DIR" -e "$DIR/error.log" &
npid=$!
pids+=("$npid")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; kill -0 "$npid" 2>/dev/null || break; sleep 0.1; done
curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" || { echo "scale-out: nginx did not start: $(tail -3 "$DIR/error.log")" >&2; exit 1; }
echo "nginx $npid $PORT"
# In the foreground until a signal, or until nginx ends.
while kill -0 "$npid" 2>/dev/null; do sleep 0.5 & wait $! || true; done
echo "scale-out: nginx ended: $(tail -3 "$DIR/error.log")" >&2
stop
