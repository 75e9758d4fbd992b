#!/bin/sh
# The read replica's entrypoint (docker-compose.yml, postgres-replica). On an empty data directory
# it copies the primary with `pg_basebackup -R`, which also writes standby.signal and
# primary_conninfo, so the server starts as a hot standby that streams from the primary. Then it
# hands over to the image's own entrypoint, which finds a data directory and only starts postgres.
set -e

: "${PRIMARY_HOST:?PRIMARY_HOST is not set}"
: "${REPLICATION_PASSWORD:?REPLICATION_PASSWORD is not set}"
: "${PGDATA:=/var/lib/postgresql/data}"
port="${PRIMARY_PORT:-5432}"
# One slot per replica, on the primary: it keeps the WAL this replica has not received yet.
slot="${REPLICATION_SLOT:-raffle_replica_1}"
export PGPASSWORD="$REPLICATION_PASSWORD"

until pg_isready -q -h "$PRIMARY_HOST" -p "$port"; do
  echo "waiting for the primary at $PRIMARY_HOST:$port"
  sleep 2
done

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  # A slot left by an earlier copy under this name (a volume removed, a replica rebuilt) would
  # make -C fail; an inactive one belongs to no running replica and is dropped.
  gosu postgres psql -v ON_ERROR_STOP=1 --no-psqlrc -q -At \
    "host=$PRIMARY_HOST port=$port user=replicator dbname=postgres" \
    -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$slot' AND NOT active"
  echo "copying the primary at $PRIMARY_HOST into $PGDATA (slot $slot)"
  gosu postgres pg_basebackup --pgdata="$PGDATA" --host="$PRIMARY_HOST" --port="$port" --username=replicator \
    --write-recovery-conf --wal-method=stream --create-slot --slot="$slot" --checkpoint=fast --progress
fi

exec docker-entrypoint.sh "$@"
