import { migrationUrlOf } from '../migration-url.js';
import { runMigrations } from '../migrate.js';

let url: string;
try {
  url = migrationUrlOf(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
await runMigrations(url, {
  onLockTimeout: (attempt, retryInMs) => console.warn(`migration attempt ${attempt} gave up waiting for a table lock (requests were queued behind it); retrying in ${Math.round(retryInMs)} ms`),
});
console.log('migrations applied');
