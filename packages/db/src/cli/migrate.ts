import { runMigrations } from '../migrate.js';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: it names the Postgres database to migrate.');
  process.exit(2);
}
await runMigrations(url);
console.log('migrations applied');
