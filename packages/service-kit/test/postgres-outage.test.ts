import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isConnectionError } from '@raffle/db';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivatePostgres, type PostgresStopMode, type PrivatePostgres } from '../src/testing/private-postgres.js';
import type { OutcomeSummary } from './support/query-outcomes.js';

/**
 * The regression test for the postgres.js bug carried as patches/postgres@3.4.9.patch
 * (porsager/postgres#1154, #1208): a write due on a connection whose socket has gone threw from a
 * setImmediate callback and killed the process. Each workload runs in a child process, so that
 * crash is the child's exit code; without the patch both tests fail on it. They also hold the
 * fail-fast promise of createDatabase: while Postgres is down a query is rejected within about a
 * second with a connection-class error, and the pool serves again soon after Postgres returns.
 */

const WORKLOAD = fileURLToPath(new URL('./support/outage-workload.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const OUTAGE_MS = 2_500;
/** connectionWaitTimeoutMs (1 s by default) plus the deadline's sweep and a loaded CI machine. */
const FAIL_FAST_BOUND_MS = 1_600;
const RECOVERY_BOUND_MS = 3_000;

type Workload = {
  /** Resolves with the child's exit code, its summary and its stderr. */
  exited: Promise<{ code: number | null; summary: OutcomeSummary | null; stderr: string }>;
  ready: Promise<void>;
  finish(): void;
};

function runWorkload(mode: 'reserved' | 'load', url: string): Workload {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', WORKLOAD, mode, url], {
    cwd: PACKAGE_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('READY\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<{ code: number | null; summary: OutcomeSummary | null; stderr: string }>((resolve) => {
    child.once('exit', (code) => {
      markReady();
      const line = stdout.split('\n').find((l) => l.startsWith('SUMMARY '));
      resolve({ code, summary: line ? (JSON.parse(line.slice('SUMMARY '.length)) as OutcomeSummary) : null, stderr });
    });
  });
  return { exited, ready, finish: () => child.stdin.end('finish\n') };
}

/** Every rejection is one a service answers with 503: a connection-class error. */
function expectOnlyConnectionErrors(summary: OutcomeSummary) {
  const otherCodes = Object.keys(summary.rejectedByCode).filter((code) => !isConnectionError({ code }));
  expect(otherCodes.map((code) => ({ code, samples: summary.sampleMessages[code] }))).toEqual([]);
}

describe('postgres.js during a database outage (patched driver)', () => {
  let server: PrivatePostgres;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    const admin = postgres(server.url(), { max: 1, onnotice: () => {} });
    await admin`create table outage_probe (id bigserial primary key, n int not null)`;
    await admin.end();
  });

  afterAll(async () => {
    await server?.destroy();
  });

  it('settles every query of a reserved connection whose backend is terminated, and stays up', async () => {
    const { code, summary, stderr } = await runWorkload('reserved', server.url()).exited;

    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(summary!.pending).toBe(0);
    expect(summary!.sent).toBe(70);
    // The 50 queries issued after the termination had no backend to run on.
    expect(summary!.sent - summary!.resolved).toBeGreaterThanOrEqual(50);
    expectOnlyConnectionErrors(summary!);
  });

  it('survives a fast stop and a kill -9 of the postmaster under load, failing fast and recovering', async () => {
    const workload = runWorkload('load', server.url());
    await workload.ready;
    await new Promise((resolve) => setTimeout(resolve, 500));

    const outages: { mode: PostgresStopMode; stoppedAt: number; startedAt: number }[] = [];
    for (const mode of ['fast', 'kill'] as const) {
      const stoppedAt = Date.now();
      await server.stop(mode);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      await server.start();
      outages.push({ mode, stoppedAt, startedAt: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, RECOVERY_BOUND_MS));
    }
    workload.finish();
    const { code, summary, stderr } = await workload.exited;

    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(summary!.pending).toBe(0);
    expectOnlyConnectionErrors(summary!);
    expect(summary!.maxRejectionMs).toBeLessThan(FAIL_FAST_BOUND_MS);

    const timings = outages.map(({ mode, stoppedAt, startedAt }) => {
      const firstFailure = summary!.transitions.find((t) => t.to === 'failing' && t.at >= stoppedAt);
      const serving = summary!.transitions.find((t) => t.to === 'serving' && t.at >= stoppedAt);
      return {
        mode,
        firstRejectionAfterStopMs: firstFailure ? firstFailure.at - stoppedAt : null,
        servingAfterStartMs: serving ? Math.max(0, serving.at - startedAt) : null,
      };
    });
    console.info('outage timings', JSON.stringify({ timings, maxRejectionMs: Math.round(summary!.maxRejectionMs), sent: summary!.sent, resolved: summary!.resolved, rejectedByCode: summary!.rejectedByCode }));
    for (const timing of timings) {
      expect(timing.firstRejectionAfterStopMs).not.toBeNull();
      expect(timing.firstRejectionAfterStopMs!).toBeLessThan(FAIL_FAST_BOUND_MS);
      expect(timing.servingAfterStartMs).not.toBeNull();
      expect(timing.servingAfterStartMs!).toBeLessThan(RECOVERY_BOUND_MS);
    }

    const admin = postgres(server.url(), { max: 1, onnotice: () => {} });
    const [probe] = await admin<{ rows: number }[]>`select count(*)::int as rows from outage_probe`;
    await admin.end();
    // Every insert the workload saw committed survived both outages (kill -9 included).
    expect(probe!.rows).toBeGreaterThanOrEqual(summary!.acknowledgedWrites);
    expect(summary!.acknowledgedWrites).toBeGreaterThan(0);
  });
});
