#!/usr/bin/env bash
# Starts the local Postgres, NATS (JetStream) and Redis the tests talk to, when they are not
# already listening, and installs Chromium (the console's browser tests), kubectl (the manifest
# checks) and PgBouncer (the `*-pgbouncer` projects start their own) when they are missing. On
# machines where all of that is in place this does nothing.
set -u

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  for _ in $(seq 1 50); do listening "$1" && return 0; sleep 0.2; done
  echo "$2 did not come up on port $1" >&2
  return 1
}

if ! listening 5432; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  wait_for 5432 PostgreSQL || exit 1
fi

if ! listening 4222; then
  echo "starting NATS with JetStream"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for 4222 NATS || exit 1
fi

if ! listening 6379; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for 6379 Redis || exit 1
fi

# Installs Debian package $1 (what it is for: $2), refreshing the package lists once if the first
# try fails; without apt-get, or when both tries fail, says what to do instead ($3) and stops.
install_debian_package() {
  echo "installing $1 for $2"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "no $1 and no apt-get: $3" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >/dev/null || {
    apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >/dev/null
  } || { echo "could not install $1: $3" >&2; exit 1; }
}

# The developer console's browser tests drive Debian's Chromium (playwright-core downloads no browser).
if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
  install_debian_package chromium "the console's browser tests" "install Chromium and set CHROMIUM_PATH to its binary"
fi

# The Kubernetes manifests are rendered with `kubectl kustomize` (infra/test/k8s.test.ts).
if ! command -v kubectl >/dev/null 2>&1; then
  install_debian_package kubernetes-client "rendering the Kubernetes manifests (kubectl)" "install kubectl to run the manifest checks"
fi

# The `*-pgbouncer` projects and the pooler tests start PgBouncers of their own (testing/private-pgbouncer.ts):
# installed only; the package's own service is not started here.
if [ -z "${PGBOUNCER_BIN:-}" ] && ! command -v pgbouncer >/dev/null 2>&1; then
  install_debian_package pgbouncer "the transaction-pooling tests" "install PgBouncer or set PGBOUNCER_BIN to its binary"
fi
exit 0
