#!/usr/bin/env bash
# Several `mushka serve` processes on one database, on this machine: s1 on 8001, s2 on
# 8002, and so on, as deploy/haproxy.cfg expects them.  Stops them all on Ctrl-C.
#
#   deploy/serve-nodes.sh postgresql://mushka:PASSWORD@127.0.0.1:5432/mushka 3 [more mushka serve options]
#   haproxy -f deploy/haproxy.cfg        # in another terminal: players open http://HOST:8000/
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: $0 DATABASE_URL COUNT [mushka serve options]" >&2
    exit 2
fi
url=$1
count=$2
shift 2
mushka=${MUSHKA:-mushka}

# The schema once, before the processes start (each would also do it, under a lock).
"$mushka" migrate --database-url "$url"

pids=()
stop() {
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT
for n in $(seq 1 "$count"); do
    "$mushka" serve --database-url "$url" --port $((8000 + n)) --node "s$n" --trusted-proxy 127.0.0.1 "$@" &
    pids+=("$!")
done
wait -n "${pids[@]}"
