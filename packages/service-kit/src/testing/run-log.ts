import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The test command (scripts/run-tests.ts) names one folder per run in RAFFLE_TEST_LOG_DIR.
 * Every log line any service writes during the run — in-process apps and child processes alike —
 * is appended there, and so are the secrets each test database held when it was dropped; after
 * the last test file the whole run's logs are scanned for them (run-log-scan.ts). Without the
 * variable (a single file run by hand) nothing is written and only the per-file scan applies.
 */
export const RUN_LOG_DIR_VARIABLE = 'RAFFLE_TEST_LOG_DIR';

const runLogDir = () => process.env[RUN_LOG_DIR_VARIABLE] || undefined;

/** Whose lines a log file holds when nobody says: the apps a test file builds in process. */
export const DEFAULT_LOG_SOURCE = 'tests';

const logFiles = new Map<string, string>();

/**
 * Appends synchronously: a test worker may exit right after its last line. Each source (a
 * service's name) has files of its own, named `<source>-<pid>-<time>.log`, so the scan can say
 * whose lines it read, and a service whose lines never arrive shows as missing.
 */
export function appendToRunLog(line: string, source = DEFAULT_LOG_SOURCE): void {
  const dir = runLogDir();
  if (!dir) return;
  let logFile = logFiles.get(source);
  if (!logFile) {
    logFile = join(ensureDir(join(dir, 'logs')), `${source}-${process.pid}-${Date.now()}.log`);
    logFiles.set(source, logFile);
  }
  appendFileSync(logFile, line.endsWith('\n') ? line : `${line}\n`);
}

/** The source a run log file's name gives (see appendToRunLog); files of older runs, without one, are the tests'. */
export function logSourceOf(fileName: string): string {
  return /^(.+)-\d+-\d+\.log$/.exec(fileName)?.[1] ?? DEFAULT_LOG_SOURCE;
}

export type RunSecrets = { label: string; values: string[] };

/** Records values that must never appear in any log line of this run (a database's seeds, key hashes, webhook secrets). */
export function recordRunSecrets(secrets: RunSecrets): void {
  const dir = runLogDir();
  if (!dir || secrets.values.length === 0) return;
  const file = join(ensureDir(join(dir, 'secrets')), `${secrets.label}-${process.pid}-${Date.now()}.json`);
  appendFileSync(file, JSON.stringify(secrets));
}

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
