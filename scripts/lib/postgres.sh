#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server from the machine's binaries in a temporary directory.
# Usage: source scripts/lib/postgres.sh; pg_temp_start; ... $PG_TEMP_URL ...; pg_temp_stop
# The binaries refuse to run as root, so as root they run as the postgres user.

pg_bin_dir() {
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && echo "$d"
}

pg_temp_start() {
  local bin port dir as
  bin=$(pg_bin_dir)
  if [ -z "$bin" ]; then
    echo "PostgreSQL binaries not found; installing postgresql from Debian's packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin_dir)
  fi
  port=${PG_TEMP_PORT:-$((20000 + RANDOM % 20000))}
  dir=$(mktemp -d /tmp/portal-pg.XXXXXX)
  as=()
  if [ "$(id -u)" = "0" ]; then
    chown postgres "$dir"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U portal --auth=trust >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
    || { cat "$dir/server.log"; return 1; }
  PG_TEMP_DIR=$dir
  PG_TEMP_BIN=$bin
  PG_TEMP_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_TEMP_DIR PG_TEMP_BIN PG_TEMP_URL
}

pg_temp_stop() {
  [ -n "${PG_TEMP_DIR:-}" ] || return 0
  local as=()
  [ "$(id -u)" = "0" ] && as=(runuser -u postgres --)
  "${as[@]}" "$PG_TEMP_BIN/pg_ctl" -D "$PG_TEMP_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEMP_DIR"
  unset PG_TEMP_DIR
}

# A PostgreSQL server that keeps its data in $1 (created on first use) on port ${PG_LOCAL_PORT:-5433}, for
# `WORKERS=N scripts/start` without a DATABASE_URL. Sets PG_LOCAL_URL; pg_local_stop stops it (the data stays).
pg_local_start() {
  local dir=$1 bin port as=()
  bin=$(pg_bin_dir)
  if [ -z "$bin" ]; then
    echo "PostgreSQL binaries not found; installing postgresql from Debian's packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin_dir)
  fi
  port=${PG_LOCAL_PORT:-5433}
  mkdir -p "$dir"
  if [ "$(id -u)" = "0" ]; then
    chown postgres "$dir"
    as=(runuser -u postgres --)
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U portal --auth=trust >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
  fi
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { cat "$dir/server.log"; return 1; }
  PG_LOCAL_DIR=$dir
  PG_LOCAL_BIN=$bin
  PG_LOCAL_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_LOCAL_DIR PG_LOCAL_BIN PG_LOCAL_URL
}

pg_local_stop() {
  [ -n "${PG_LOCAL_DIR:-}" ] || return 0
  local as=()
  [ "$(id -u)" = "0" ] && as=(runuser -u postgres --)
  "${as[@]}" "$PG_LOCAL_BIN/pg_ctl" -D "$PG_LOCAL_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  unset PG_LOCAL_DIR
}
