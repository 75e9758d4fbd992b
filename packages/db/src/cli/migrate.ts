import { runMigrations } from '../migrate.js';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: it names the Postgres database to migrate.');
  process.exit(2);
}
await runMigrations(url, {
  onLockTimeout: (attempt, retryInMs) => console.warn(`migration attempt ${attempt} gave up waiting for a table lock (requests were queued behind it); retrying in ${Math.round(retryInMs)} ms`),
});
console.log('migrations applied');
