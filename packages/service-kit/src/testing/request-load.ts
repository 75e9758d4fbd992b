import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { Pool } from 'undici';

const TRANSPORT_ERROR_BACKOFF_MS = 250;

/** One monotonic clock for request times and fault marks alike (milliseconds). */
export const clock = () => performance.now();

export type PlannedRequest = {
  /** Reads and writes are judged apart: every acknowledged write must be found in the database afterwards. */
  kind: 'read' | 'write';
  label: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

export type RequestOutcome = {
  kind: PlannedRequest['kind'];
  label: string;
  startedAt: number;
  finishedAt: number;
  /** Null when no response came (see transportError). */
  status: number | null;
  /** undici's or the socket's error code: ECONNRESET, UND_ERR_SOCKET, ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT… */
  transportError: string | null;
  /** Response headers (a repeated header joined with ", "); empty without a response. */
  headers: Record<string, string>;
  body: unknown;
};

export type RequestLoad = {
  outcomes: RequestOutcome[];
  /** Lets the clients finish the request they are in, then closes their connections. */
  stop(): Promise<RequestOutcome[]>;
};

export type RequestLoadOptions = {
  origin: string;
  /** Concurrent clients, each on its own keep-alive connection, each sending one request at a time. */
  clients: number;
  /** Pause after each answer: bounds the rate so the load does not starve other test files of CPU. */
  pauseMs: number;
  /** A request with no answer after this long counts as unanswered (the outage latency is asserted separately). */
  timeoutMs: number;
  next: () => PlannedRequest;
};

/** Sends one planned request (its body streamed from `streamedBody` when given) and records what came back, never throwing. */
export async function sendPlanned(pool: Pool, planned: PlannedRequest, timeoutMs: number, streamedBody?: AsyncIterable<string>): Promise<RequestOutcome> {
  const startedAt = clock();
  const base = { kind: planned.kind, label: planned.label, startedAt };
  try {
    const response = await pool.request({
      method: planned.method,
      path: planned.path,
      headers: planned.headers,
      body: streamedBody ? Readable.from(streamedBody) : planned.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await response.body.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the assertion on the error body reports it as it came.
    }
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
    return { ...base, finishedAt: clock(), status: response.statusCode, transportError: null, headers, body };
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return { ...base, finishedAt: clock(), status: null, transportError: code, headers: {}, body: null };
  }
}

/** A steady, bounded request load on keep-alive connections, recording every outcome until stopped. */
export function startRequestLoad(options: RequestLoadOptions): RequestLoad {
  const pool = new Pool(options.origin, { connections: options.clients, pipelining: 1, keepAliveTimeout: 30_000 });
  const outcomes: RequestOutcome[] = [];
  let running = true;
  const clientLoop = async () => {
    while (running) {
      const outcome = await sendPlanned(pool, options.next(), options.timeoutMs);
      outcomes.push(outcome);
      // A client backs off when it cannot connect; spinning on refusals would only inflate the counts.
      const pause = outcome.transportError ? Math.max(options.pauseMs, TRANSPORT_ERROR_BACKOFF_MS) : options.pauseMs;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  const loops = Array.from({ length: options.clients }, clientLoop);
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      await pool.close();
      return outcomes;
    },
  };
}

/** The same request `count` times, one after another on one connection: a probe beside the load (e.g. of a rate limit). */
export async function sendRepeatedly(origin: string, planned: PlannedRequest, count: number, timeoutMs = 5000): Promise<RequestOutcome[]> {
  const pool = new Pool(origin, { connections: 1 });
  const outcomes: RequestOutcome[] = [];
  try {
    for (let i = 0; i < count; i++) outcomes.push(await sendPlanned(pool, planned, timeoutMs));
  } finally {
    await pool.close();
  }
  return outcomes;
}
