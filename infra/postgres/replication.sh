#!/bin/sh
# The primary's side of streaming replication: the role the replica copies and streams as, and the
# pg_hba line that lets it in (`all` in pg_hba's database column does not cover replication).
# The postgres image runs it from /docker-entrypoint-initdb.d on the first start only, after
# init.sql, with the container's environment; elsewhere, a managed service or an operator does this.
set -e

if [ -z "$REPLICATION_PASSWORD" ]; then
  echo 'REPLICATION_PASSWORD is not set' >&2
  exit 1
fi

psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
  --set=replication_password="$REPLICATION_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE replicator' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'replicator') \gexec
ALTER ROLE replicator WITH LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS
  PASSWORD :'replication_password';
SQL

# From anywhere on the platform network, with the password: the replica's address is not fixed.
echo 'host replication replicator all scram-sha-256' >> "$PGDATA/pg_hba.conf"
