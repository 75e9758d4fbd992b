-- Creates the `raffle` database and its two roles. Run once by a superuser with psql 15 or
-- newer (it uses \getenv, \if and \gexec); safe to run again, it only fills in what is missing
-- and resets the two passwords.
--
--   raffle_owner  owns the database and every table. Migrations run as this role:
--                 `node node_modules/@raffle/db/dist/cli/migrate.js` with DATABASE_URL naming
--                 raffle_owner (the compose `migrate` service, the k8s migrate Job).
--   raffle_app    what the services connect as: read and write rows, nothing else. No DDL, no
--                 TRUNCATE, no role or database creation.
--
-- The default privileges below are declared FOR ROLE raffle_owner, so they reach only tables
-- and sequences that raffle_owner creates. Run migrations as any other role (a superuser
-- included) and raffle_app cannot see the new tables.
--
-- The official postgres image runs this file from /docker-entrypoint-initdb.d on first start
-- only (empty data directory), as POSTGRES_USER, with the container's environment; elsewhere:
--   RAFFLE_OWNER_PASSWORD=… RAFFLE_APP_PASSWORD=… psql -v ON_ERROR_STOP=1 -U postgres -f init.sql

\set ON_ERROR_STOP on
\getenv owner_password RAFFLE_OWNER_PASSWORD
\getenv app_password RAFFLE_APP_PASSWORD

\if :{?owner_password}
\else
  \warn 'RAFFLE_OWNER_PASSWORD is not set'
  SELECT 1 / 0 AS raffle_owner_password_missing;
\endif
\if :{?app_password}
\else
  \warn 'RAFFLE_APP_PASSWORD is not set'
  SELECT 1 / 0 AS raffle_app_password_missing;
\endif

SELECT 'CREATE ROLE raffle_owner'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'raffle_owner') \gexec
ALTER ROLE raffle_owner WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
  PASSWORD :'owner_password';

SELECT 'CREATE ROLE raffle_app'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'raffle_app') \gexec
ALTER ROLE raffle_app WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
  PASSWORD :'app_password';

-- CREATE DATABASE cannot run inside a function or transaction, hence \gexec.
SELECT 'CREATE DATABASE raffle OWNER raffle_owner ENCODING ''UTF8'' TEMPLATE template0'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'raffle') \gexec

REVOKE ALL ON DATABASE raffle FROM PUBLIC;
GRANT CONNECT ON DATABASE raffle TO raffle_app;

\connect raffle

-- Since PostgreSQL 15 `public` belongs to pg_database_owner (here raffle_owner) and PUBLIC may
-- not create in it; stated anyway so the file means the same on any version.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO raffle_app;

ALTER DEFAULT PRIVILEGES FOR ROLE raffle_owner IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO raffle_app;
ALTER DEFAULT PRIVILEGES FOR ROLE raffle_owner IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO raffle_app;

-- Tables that already exist when this file is run again after migrations.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO raffle_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO raffle_app;
