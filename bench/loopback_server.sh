# Sourced by bench/ab_online.sh and bench/floor_online.sh: start the shared harness's loopback
# server (../shared/bench/server.py: 8 ports from $PORT, seed 1, 50 ms latency) and wait until it
# answers; stop it. Needs PY, SHARED, PORT and WORK set.
start_server() {
  "$PY" "$SHARED/server.py" --base-port "$PORT" --ports 8 --seed 1 --latency-ms 50 --slow-ms 500 \
    > "$WORK/server.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do
    sleep 0.1
    "$PY" -c "import urllib.request as u; u.build_opener(u.ProxyHandler({})).open('http://127.0.0.1:$PORT/__health', timeout=1)" \
      2> /dev/null && return 0
  done
  echo "loopback server on port $PORT did not answer; see $WORK/server.log" >&2
  return 1
}

stop_server() {
  kill "$server"; wait "$server" 2> /dev/null || true
}
