import { Pool } from 'undici';
import { sendPlanned, type RequestOutcome } from './request-load.js';

export type ReadinessProbe = {
  /** Stops probing once the probe in flight is answered; every answer so far. */
  stop(): Promise<RequestOutcome[]>;
};

/**
 * `GET /health/ready` every `everyMs` on a connection of its own, as a load balancer's health
 * check would send it, beside the test's load: what it records is what would take the instance
 * out of rotation.
 */
export function startReadinessProbe(origin: string, options: { everyMs: number; timeoutMs: number }): ReadinessProbe {
  const pool = new Pool(origin, { connections: 1 });
  const outcomes: RequestOutcome[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      outcomes.push(await sendPlanned(pool, { kind: 'read', label: 'GET /health/ready', method: 'GET', path: '/health/ready', headers: {} }, options.timeoutMs));
      await new Promise((resolve) => setTimeout(resolve, options.everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await pool.close();
      return outcomes;
    },
  };
}
