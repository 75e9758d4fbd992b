import { readFile } from 'node:fs/promises';
import { Pool } from 'undici';

/** What a rush sent while it ran. */
export type RushTally = { sent: number; statuses: Record<string, number>; unanswered: number };

export type GateRush = { stop(): Promise<RushTally> };

/**
 * Another workspace's entrants entering its own gated raffles, continuously, beside a drop: over
 * `connections` connections, entrant i enters raffle i mod n, cycling through the keys, until
 * stopped. The drop beside it measures what those raffles' gates cost the drop's raffle (issue 34:
 * a hostile gate must cost it nothing more than a healthy one).
 */
export async function startGateRush(load: { origin: string; keysFile: string; entrants: number; connections: number; slugs: readonly string[] }): Promise<GateRush> {
  const keys = (await readFile(load.keysFile, 'utf8')).split('\n').filter(Boolean).slice(0, load.entrants);
  const pool = new Pool(load.origin, { connections: load.connections, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const tally: RushTally = { sent: 0, statuses: {}, unanswered: 0 };
  let stopped = false;
  let next = 0;
  const connection = async () => {
    while (!stopped) {
      const i = next++;
      tally.sent++;
      try {
        const response = await pool.request({
          method: 'POST',
          path: `/api/v1/raffles/${load.slugs[i % load.slugs.length]}/entries`,
          headers: { authorization: `Bearer ${keys[i % keys.length]}`, 'x-forwarded-for': `10.250.${(i >> 8) & 255}.${i & 255}`, 'content-type': 'application/json' },
          body: '{}',
        });
        await response.body.text();
        tally.statuses[response.statusCode] = (tally.statuses[response.statusCode] ?? 0) + 1;
      } catch {
        tally.unanswered++;
      }
    }
  };
  const running = Promise.all(Array.from({ length: load.connections }, connection));
  return {
    async stop() {
      stopped = true;
      await running;
      await pool.close();
      return tally;
    },
  };
}
