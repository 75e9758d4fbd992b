import { Pool } from 'undici';
import type { FaultMarks } from './fault-scenario.js';
import { clock, sendPlanned, startRequestLoad, type PlannedRequest, type RequestLoadOptions, type RequestOutcome } from './request-load.js';
import type { ServiceProcess } from './service-process.js';

export type ShutdownScenarioOptions = {
  service: ServiceProcess;
  load: Omit<RequestLoadOptions, 'origin'>;
  /** A write whose body is sent in two halves, the second only after SIGTERM: it is in flight when the signal comes. */
  inFlight: PlannedRequest & { body: string };
  /** Keep-alive connections opened before SIGTERM and idle when it comes; each then carries one request. */
  idleConnections: number;
  probe: PlannedRequest;
  baselineMs?: number;
};

export type ShutdownScenarioRun = {
  /** The steady load, SIGTERM in the middle of it. */
  outcomes: RequestOutcome[];
  /** faultAt = downAt = SIGTERM; backAt is the process's exit (nothing comes back). */
  marks: FaultMarks;
  inFlight: RequestOutcome;
  /** The requests sent on the idle keep-alive connections just after SIGTERM. */
  onIdleConnections: RequestOutcome[];
  exit: { code: number | null; signal: NodeJS.Signals | null };
  exitAfterMs: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to a service under keep-alive load, with one request in flight (its body half sent) and
 * a few keep-alive connections sitting idle. Runs until the process has exited (SIGKILL after 20 s).
 */
export async function runShutdownScenario(options: ShutdownScenarioOptions): Promise<ShutdownScenarioRun> {
  const { service } = options;
  const idlePool = new Pool(service.origin, { connections: options.idleConnections, keepAliveTimeout: 60_000 });
  const inFlightPool = new Pool(service.origin, { connections: 1 });
  // Opens the idle connections: as many concurrent requests as connections.
  await Promise.all(Array.from({ length: options.idleConnections }, () => sendPlanned(idlePool, options.probe, 5000)));

  const load = startRequestLoad({ ...options.load, origin: service.origin });
  const startedAt = clock();
  await sleep(options.baselineMs ?? 700);

  let releaseSecondHalf!: () => void;
  const secondHalfGate = new Promise<void>((resolve) => (releaseSecondHalf = resolve));
  const half = Math.floor(options.inFlight.body.length / 2);
  const body = options.inFlight.body;
  const inFlightBody = (async function* () {
    yield body.slice(0, half);
    await secondHalfGate;
    yield body.slice(half);
  })();
  const inFlight = sendPlanned(inFlightPool, { ...options.inFlight, body: undefined, headers: { ...options.inFlight.headers, 'content-length': String(Buffer.byteLength(body)) } }, 15_000, inFlightBody);
  // Let the first half reach the server, so the request is routed and waiting for its body.
  await sleep(200);

  const faultAt = clock();
  service.kill('SIGTERM');
  await sleep(50);
  const onIdleConnections = Promise.all(Array.from({ length: options.idleConnections }, () => sendPlanned(idlePool, options.probe, 5000)));
  await sleep(250);
  releaseSecondHalf();

  const force = setTimeout(() => service.kill('SIGKILL'), 20_000);
  const exit = await service.exited;
  clearTimeout(force);
  const backAt = clock();
  await sleep(300);
  await load.stop();
  const run = {
    outcomes: load.outcomes,
    marks: { startedAt, faultAt, downAt: faultAt, backAt, endedAt: clock() },
    inFlight: await inFlight,
    onIdleConnections: await onIdleConnections,
    exit,
    exitAfterMs: Math.round(backAt - faultAt),
  };
  await Promise.all([idlePool.destroy(), inFlightPool.destroy()]);
  return run;
}
