#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster from Debian's packages, listening on 127.0.0.1 only, and
# prints its DATABASE_URL. Usage: scripts/pg-cluster.sh start DIR [PORT] | scripts/pg-cluster.sh stop DIR
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?data directory}; port=${3:-54329}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
case "$cmd" in
  start)
    mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_pg "'$bin/initdb' -D '$dir' -U tramita -A trust --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
    fi
    # fsync off: a test cluster trades durability for speed; it is thrown away after the run.
    as_pg "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -o \"-h 127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200\" start" >/dev/null
    echo "postgres://tramita@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_pg "'$bin/pg_ctl' -D '$dir' -m fast stop" >/dev/null || true
    ;;
  *) echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2 ;;
esac
