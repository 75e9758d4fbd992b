import { clock, startRequestLoad, type RequestLoad, type RequestLoadOptions, type RequestOutcome } from './request-load.js';

export type FaultMarks = {
  startedAt: number;
  /** The fault was made (stop or kill sent). */
  faultAt: number;
  /** The dependency is gone (the stop returned). */
  downAt: number;
  /** The dependency is back (its restart returned: it accepts connections again). */
  backAt: number;
  endedAt: number;
};

export type FaultScenarioOptions = {
  /** One origin's steady load, or a function starting a load of the test's own (over several instances, say). */
  load: RequestLoadOptions | (() => RequestLoad);
  /** Takes the dependency away; resolves once it is gone. */
  fault: () => Promise<void>;
  /** Brings it back; resolves once it accepts connections. */
  restore: () => Promise<void>;
  /** Healthy traffic before the fault, so the numbers show the service was working. */
  baselineMs?: number;
  outageMs?: number;
  /** After the return, the load runs until this long a stretch of 2xx answers (or `maxAfterMs`). */
  settledMs?: number;
  maxAfterMs?: number;
};

export type FaultScenarioRun = { outcomes: RequestOutcome[]; marks: FaultMarks };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (o: RequestOutcome) => o.status !== null && o.status >= 200 && o.status < 300;

/**
 * One fault under load: healthy baseline, the dependency taken away for `outageMs`, brought back,
 * then load until the service has answered 2xx for `settledMs` in a row, so the run measures the
 * recovery instead of guessing it. Bounded by `maxAfterMs` whatever happens.
 */
export async function runFaultScenario(options: FaultScenarioOptions): Promise<FaultScenarioRun> {
  const load = typeof options.load === 'function' ? options.load() : startRequestLoad(options.load);
  const startedAt = clock();
  await sleep(options.baselineMs ?? 700);
  const faultAt = clock();
  let downAt = faultAt;
  let backAt = faultAt;
  try {
    await options.fault();
    downAt = clock();
    await sleep(options.outageMs ?? 2000);
    await options.restore();
    backAt = clock();
    const settledMs = options.settledMs ?? 1000;
    const deadline = backAt + (options.maxAfterMs ?? 12_000);
    while (clock() < deadline) {
      await sleep(100);
      const since = load.outcomes.filter((o) => o.startedAt >= backAt);
      const lastFailure = since.reduce((latest, o) => (ok(o) ? latest : Math.max(latest, o.finishedAt)), backAt);
      if (since.some(ok) && clock() - lastFailure >= settledMs) break;
    }
  } finally {
    await load.stop();
  }
  return { outcomes: load.outcomes, marks: { startedAt, faultAt, downAt, backAt, endedAt: clock() } };
}
