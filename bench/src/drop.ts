import { readFile } from 'node:fs/promises';
import { Pool } from 'undici';

/** A drop: every entrant fires once, all at the moment the raffle opens. */
export type DropLoad = {
  /** The data plane's origin, e.g. http://127.0.0.1:3101. */
  origin: string;
  slug: string;
  /** The entrant keys file (one plaintext key a line); the first `entrants` lines are used. */
  keysFile: string;
  entrants: number;
  connections: number;
};

export type DropResult = {
  entrants: number;
  connections: number;
  /** From the first request sent to the last response received. */
  secondsToAnswerAll: number;
  latencyMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  /** Requests that got no HTTP response at all (a reset, a timeout): must be 0. */
  unanswered: number;
  /** The first body of each status other than 201. */
  samples: Record<string, string>;
  /** The ids of the entries the 201s returned: the check counts each once in the database. */
  createdEntryIds: string[];
};

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const round2 = (ms: number) => Math.round(ms * 100) / 100;

/** Entrant i's own address (the data plane runs with TRUST_PROXY), as wrk-keys.lua gives it. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * Sends one entry per entrant over `connections` connections, each sending the next entrant's
 * request the moment its last one is answered (as wrk does), and waits for every answer. Latency is
 * per request, from sending to the whole response. The keys are read before the clock starts.
 */
export async function runDrop(load: DropLoad): Promise<DropResult> {
  const keys = (await readFile(load.keysFile, 'utf8')).split('\n').filter(Boolean).slice(0, load.entrants);
  if (keys.length < load.entrants) throw new Error(`the drop needs ${load.entrants} entrant keys; ${load.keysFile} holds ${keys.length}`);
  const pool = new Pool(load.origin, { connections: load.connections, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const samples: Record<string, string> = {};
  const createdEntryIds: string[] = [];
  let unanswered = 0;

  const enter = async (key: string, i: number) => {
    const sent = performance.now();
    try {
      const response = await pool.request({
        method: 'POST',
        path: `/api/v1/raffles/${load.slug}/entries`,
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': addressOf(i + 1), 'content-type': 'application/json' },
        body: '{}',
      });
      const body = await response.body.text();
      latencies.push(performance.now() - sent);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      if (response.statusCode === 201) createdEntryIds.push((JSON.parse(body) as { id: string }).id);
      else samples[response.statusCode] ??= body.slice(0, 300);
    } catch (error) {
      unanswered++;
      samples.unanswered ??= String(error);
    }
  };

  let next = 0;
  const connection = async () => {
    while (next < keys.length) {
      const i = next++;
      await enter(keys[i]!, i);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: load.connections }, connection));
  const secondsToAnswerAll = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    entrants: keys.length,
    connections: load.connections,
    secondsToAnswerAll: Math.round(secondsToAnswerAll * 100) / 100,
    latencyMs: { p50: round2(percentile(latencies, 50)), p99: round2(percentile(latencies, 99)), max: round2(latencies.at(-1) ?? 0) },
    statuses,
    unanswered,
    samples,
    createdEntryIds,
  };
}
