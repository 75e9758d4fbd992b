#!/usr/bin/env bash
# Starts the local Postgres, NATS (JetStream) and Redis the tests talk to, when they are not
# already listening. On machines where they run as system services this does nothing.
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
exit 0
