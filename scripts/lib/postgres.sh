#!/usr/bin/env bash
# PostgreSQL servers from the machine's binaries (installed from Debian's packages when missing):
#   pg_temp_start / pg_temp_stop    a throwaway server in a temporary directory (tests): $PG_TEMP_URL
#   pg_temp_replica_start           a streaming standby of that server (read-replica tests): $PG_TEMP_READ_URL
#   pg_local_start DIR / pg_local_stop    a server that keeps its data in DIR (`WORKERS=N scripts/start`): $PG_LOCAL_URL
#   pg_local_replica_start DIR / pg_local_replica_stop    a streaming standby of it (`READ_REPLICA=1 scripts/start`): $PG_LOCAL_READ_URL
# The binaries refuse to run as root, so as root they run as the postgres user.

pg_bin_dir() {
  # Through the link: a machine may link pg_ctl, initdb and postgres onto the PATH but not pg_basebackup.
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v pg_ctl)")"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && echo "$d"
}

# The binaries' directory, installing PostgreSQL first when the machine has none.
pg_bin_or_install() {
  local bin
  bin=$(pg_bin_dir)
  if [ -z "$bin" ]; then
    echo "PostgreSQL binaries not found; installing postgresql from Debian's packages" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin_dir)
  fi
  echo "$bin"
}

# How to run the binaries: as the postgres user when we are root (sets the array PG_AS).
pg_as() {
  PG_AS=()
  [ "$(id -u)" = "0" ] && PG_AS=(runuser -u postgres --)
  return 0
}

# pg_run_server BIN DIR PORT [SETTINGS...]: initialises DIR/data when it is new and starts the server on PORT with
# its socket in DIR; prints the server's log when it fails.
pg_run_server() {
  local bin=$1 dir=$2 port=$3 settings=() s
  shift 3
  for s in "$@"; do settings+=(-c "$s"); done
  pg_as
  [ "$(id -u)" = "0" ] && chown postgres "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    "${PG_AS[@]}" "$bin/initdb" -D "$dir/data" -U portal --auth=trust >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
  fi
  "${PG_AS[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 ${settings[*]}" start >/dev/null \
    || { cat "$dir/server.log"; return 1; }
}

# pg_run_standby BIN DIR PRIMARY_PORT PORT [SETTINGS...]: a hot standby of the server on PRIMARY_PORT, streaming its
# log (a read replica, as a managed service's): DIR/data is a base backup of it when new, then started as pg_run_server.
pg_run_standby() {
  local bin=$1 dir=$2 primary_port=$3
  shift 3
  pg_as
  mkdir -p "$dir"
  [ "$(id -u)" = "0" ] && chown postgres "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    # -R writes the standby's settings (standby.signal, primary_conninfo); -X stream copies the log written meanwhile.
    "${PG_AS[@]}" "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U portal -D "$dir/data" -R -X stream \
      >"$dir/basebackup.log" 2>&1 || { cat "$dir/basebackup.log"; return 1; }
  fi
  pg_run_server "$bin" "$dir" "$@"
}

pg_stop_server() {
  pg_as
  "${PG_AS[@]}" "$1/pg_ctl" -D "$2/data" -m fast -w stop >/dev/null 2>&1 || true
}

pg_temp_start() {
  local bin port dir
  bin=$(pg_bin_or_install) || return 1
  port=${PG_TEMP_PORT:-$((20000 + RANDOM % 20000))}
  dir=$(mktemp -d /tmp/portal-pg.XXXXXX)
  # Throwaway data: durability off for speed.
  pg_run_server "$bin" "$dir" "$port" fsync=off synchronous_commit=off full_page_writes=off || return 1
  PG_TEMP_DIR=$dir
  PG_TEMP_BIN=$bin
  PG_TEMP_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_TEMP_DIR PG_TEMP_BIN PG_TEMP_URL
}

# A standby of the pg_temp_start server on the next port. Its data lives in the primary's temporary directory;
# pg_temp_stop stops it with the primary.
pg_temp_replica_start() {
  [ -n "${PG_TEMP_DIR:-}" ] || { echo "pg_temp_replica_start: start the primary with pg_temp_start first" >&2; return 1; }
  local primary_port port
  primary_port=${PG_TEMP_URL##*:}
  primary_port=${primary_port%%/*}
  port=$((primary_port + 1))
  pg_run_standby "$PG_TEMP_BIN" "$PG_TEMP_DIR/replica" "$primary_port" "$port" fsync=off || return 1
  PG_TEMP_READ_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_TEMP_READ_URL
}

pg_temp_stop() {
  [ -n "${PG_TEMP_DIR:-}" ] || return 0
  if [ -f "$PG_TEMP_DIR/replica/data/PG_VERSION" ]; then
    pg_stop_server "$PG_TEMP_BIN" "$PG_TEMP_DIR/replica"
    unset PG_TEMP_READ_URL
  fi
  pg_stop_server "$PG_TEMP_BIN" "$PG_TEMP_DIR"
  rm -rf "$PG_TEMP_DIR"
  unset PG_TEMP_DIR
}

# A PostgreSQL server that keeps its data in $1 (created on first use) on port ${PG_LOCAL_PORT:-5433}, for
# `WORKERS=N scripts/start` without a DATABASE_URL. Sets PG_LOCAL_URL; pg_local_stop stops it (the data stays).
pg_local_start() {
  local dir=$1 bin port
  bin=$(pg_bin_or_install) || return 1
  port=${PG_LOCAL_PORT:-5433}
  mkdir -p "$dir"
  pg_run_server "$bin" "$dir" "$port" max_connections=200 || return 1
  PG_LOCAL_DIR=$dir
  PG_LOCAL_BIN=$bin
  PG_LOCAL_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_LOCAL_DIR PG_LOCAL_BIN PG_LOCAL_URL
}

pg_local_stop() {
  [ -n "${PG_LOCAL_DIR:-}" ] || return 0
  pg_stop_server "$PG_LOCAL_BIN" "$PG_LOCAL_DIR"
  unset PG_LOCAL_DIR
}

# A streaming standby of the pg_local_start server with its data in $1 (copied from the primary on first use) on port
# ${PG_LOCAL_READ_PORT:-5434}, for `READ_REPLICA=1 scripts/start`. Sets PG_LOCAL_READ_URL; pg_local_replica_stop stops
# it (the data stays and catches up from the primary at the next start).
pg_local_replica_start() {
  local dir=$1 port primary_port
  [ -n "${PG_LOCAL_DIR:-}" ] || { echo "pg_local_replica_start: start the primary with pg_local_start first" >&2; return 1; }
  port=${PG_LOCAL_READ_PORT:-5434}
  primary_port=${PG_LOCAL_PORT:-5433}
  # A standby needs at least the primary's max_connections.
  pg_run_standby "$PG_LOCAL_BIN" "$dir" "$primary_port" "$port" max_connections=200 || return 1
  PG_LOCAL_READ_DIR=$dir
  PG_LOCAL_READ_URL="postgres://portal@127.0.0.1:$port/postgres"
  export PG_LOCAL_READ_DIR PG_LOCAL_READ_URL
}

pg_local_replica_stop() {
  [ -n "${PG_LOCAL_READ_DIR:-}" ] || return 0
  pg_stop_server "$PG_LOCAL_BIN" "$PG_LOCAL_READ_DIR"
  unset PG_LOCAL_READ_DIR
}
