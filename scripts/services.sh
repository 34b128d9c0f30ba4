#!/usr/bin/env bash
# The real servers some tests need: PostgreSQL (shared request ledgers) and Redis (a shared rate limit), from Debian's
# packages, started on loopback on free ports for one run and stopped after. Nothing is installed as a service and
# nothing listens beyond 127.0.0.1.
#
#   scripts/services.sh start   install the packages if missing (as root), start both servers, write .services/env
#   scripts/services.sh stop    stop both servers and remove their data
#   scripts/services.sh run <command...>   start, run the command with the servers' URLs in its environment, stop
#
# .services/env holds PAYRULES_POSTGRES_URL and PAYRULES_REDIS_URL (`set -a; . .services/env; set +a` to use them).
# PAYRULES_SERVICES_DIR=<dir> keeps the state there instead of .services: several sets of servers can run at once
# (the test setup of each package that needs them starts its own in a directory of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
state="${PAYRULES_SERVICES_DIR:-$PWD/.services}"

pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  return 1
}

install_missing() {
  local missing=()
  pg_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "services: ${missing[*]} missing; install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "services: installing ${missing[*]} from Debian's packages"
  # one install at a time (two test setups may start together): the second finds the packages installed
  exec 9>"${TMPDIR:-/tmp}/payrules-services-install.lock"
  flock 9
  missing=()
  pg_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  flock -u 9
  # the packages start system services on their default ports: those are not ours, stop them
  if command -v service >/dev/null; then
    service postgresql stop >/dev/null 2>&1 || true
    service redis-server stop >/dev/null 2>&1 || true
  fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# PostgreSQL refuses to run as root: as root, its data belongs to the postgres user of the Debian package
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  if [ -f "$state/env" ]; then
    echo "services: already running (scripts/services.sh stop first)" >&2
    exit 1
  fi
  install_missing
  local bin pg_port redis_port
  bin="$(pg_bin)"
  mkdir -p "$state"
  chmod 755 "$state"
  # the data lives outside the checkout, where the postgres user can reach it whatever the checkout's permissions
  local pg
  pg="$(mktemp -d "${TMPDIR:-/tmp}/payrules-pg.XXXXXX")"
  chmod 755 "$pg"
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$pg"; fi
  as_pg "$bin/initdb" -D "$pg/data" -U payrules --auth=trust --encoding=UTF8 --no-locale >"$state/pg-init.log" 2>&1 || {
    cat "$state/pg-init.log" >&2
    exit 1
  }
  # a free port can be taken by another process before the server binds it: try another one
  local tries
  for tries in 1 2 3 4 5; do
    pg_port="$(free_port)"
    if as_pg "$bin/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 \
      -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $pg -c fsync=off -c max_connections=200" start >/dev/null; then
      break
    fi
    [ "$tries" -eq 5 ] && { cat "$pg/server.log" >&2; exit 1; }
  done
  as_pg "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U payrules payrules
  for tries in 1 2 3 4 5; do
    redis_port="$(free_port)"
    redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
      --pidfile "$state/redis.pid" --logfile "$state/redis.log" --dir "$state"
    local up=no
    for _ in $(seq 1 100); do
      # ours: the process of our pid file answers (not another server that holds the port)
      if [ -f "$state/redis.pid" ] && kill -0 "$(cat "$state/redis.pid")" 2>/dev/null &&
        redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
        up=yes
        break
      fi
      sleep 0.1
    done
    [ "$up" = yes ] && break
    rm -f "$state/redis.pid"
    [ "$tries" -eq 5 ] && { cat "$state/redis.log" >&2; exit 1; }
  done
  cat >"$state/env" <<EOF
PAYRULES_POSTGRES_URL=postgres://payrules@127.0.0.1:$pg_port/payrules
PAYRULES_REDIS_URL=redis://127.0.0.1:$redis_port
PAYRULES_SERVICES_PG_BIN=$bin
PAYRULES_SERVICES_PG_DIR=$pg
EOF
  echo "services: PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port ($state/env)"
}

stop() {
  [ -f "$state/env" ] || { rm -rf "$state"; return 0; }
  local PAYRULES_SERVICES_PG_BIN PAYRULES_SERVICES_PG_DIR PAYRULES_REDIS_URL
  # shellcheck disable=SC1091
  . "$state/env"
  as_pg "$PAYRULES_SERVICES_PG_BIN/pg_ctl" -D "$PAYRULES_SERVICES_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  redis-cli -u "$PAYRULES_REDIS_URL" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$state" "$PAYRULES_SERVICES_PG_DIR"
  echo "services: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  run)
    shift
    start
    trap stop EXIT
    set -a
    # shellcheck disable=SC1091
    . "$state/env"
    set +a
    "$@"
    ;;
  *)
    echo "usage: scripts/services.sh start | stop | run <command...>" >&2
    exit 2
    ;;
esac
