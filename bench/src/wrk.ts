import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { killOnExit } from './children.js';

const SUMMARY_SCRIPT = fileURLToPath(new URL('./wrk-summary.lua', import.meta.url));

export type Load = {
  url: string;
  headers?: Record<string, string>;
  durationSeconds: number;
  connections: number;
  threads: number;
  /** A Lua script of its own instead of wrk-summary.lua, and the arguments it takes after `--`. */
  script?: { path: string; args: string[] };
};

export type WrkResult = {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  bytesPerRequest: number;
  /** wrk counts every response with status ≥ 400 under `status`. */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyMs: { mean: number; p50: number; p90: number; p99: number; p999: number; max: number };
  /** Scripts that look at responses (wrk-keys.lua): requests per HTTP status, and the first body of each status other than the success one. */
  statuses?: Record<string, number>;
  samples?: Record<string, string>;
  /** How often a thread ran out of keys and started over (its later requests repeat entrants). */
  keysWrapped?: number;
};

type RawSummary = Pick<WrkResult, 'statuses' | 'samples' | 'keysWrapped'> & {
  requests: number;
  durationUs: number;
  bytes: number;
  errors: WrkResult['errors'];
  latencyUs: { mean: number; max: number; p50: number; p90: number; p99: number; p999: number };
};

const ms = (us: number) => Math.round(us) / 1000;

/** Starts one wrk run; `pid` lets the caller sample its CPU while it runs. */
export function startWrk(load: Load): { pid: number; result: Promise<WrkResult> } {
  const target = new URL(load.url);
  if (target.hostname !== '127.0.0.1') throw new Error(`wrk only targets 127.0.0.1, not ${target.hostname}`);
  const args = [
    `-t${load.threads}`,
    `-c${load.connections}`,
    `-d${load.durationSeconds}s`,
    '--timeout',
    '5s',
    '-s',
    load.script?.path ?? SUMMARY_SCRIPT,
    ...Object.entries(load.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    load.url,
    ...(load.script ? ['--', ...load.script.args] : []),
  ];
  const child = killOnExit(spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // wrk stops itself after -d; this only guards against a hung run.
  const guard = setTimeout(() => child.kill('SIGKILL'), (load.durationSeconds + 30) * 1000);

  const result = new Promise<WrkResult>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`cannot run wrk (apt-get install -y wrk): ${error.message}`)));
    child.once('exit', (code) => {
      clearTimeout(guard);
      const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}:\n${stdout}\n${stderr}`));
      const raw = JSON.parse(line.slice('WRK_JSON '.length)) as RawSummary;
      const seconds = raw.durationUs / 1e6;
      resolve({
        requests: raw.requests,
        seconds,
        requestsPerSecond: Math.round((raw.requests / seconds) * 10) / 10,
        bytesPerRequest: raw.requests > 0 ? Math.round(raw.bytes / raw.requests) : 0,
        errors: raw.errors,
        latencyMs: {
          mean: ms(raw.latencyUs.mean),
          p50: ms(raw.latencyUs.p50),
          p90: ms(raw.latencyUs.p90),
          p99: ms(raw.latencyUs.p99),
          p999: ms(raw.latencyUs.p999),
          max: ms(raw.latencyUs.max),
        },
        ...(raw.statuses ? { statuses: raw.statuses, samples: raw.samples ?? {}, keysWrapped: raw.keysWrapped ?? 0 } : {}),
      });
    });
  });
  return { pid: child.pid!, result };
}

/** wrk's first line of `--version` (it prints the version and exits 1). */
export function wrkVersion(): string {
  try {
    return execFileSync('wrk', ['--version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '').split('\n')[0]?.trim() || 'unknown';
  }
}
