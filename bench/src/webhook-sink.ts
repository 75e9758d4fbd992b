import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook receivers of `pnpm bench:webhooks`, in a process of their own so their CPU is
 * counted apart from the dispatcher's. Each endpoint listens on its own port (its own origin,
 * as real receivers are: the dispatcher pools connections per origin). A healthy endpoint
 * answers 204 at once and records when each request arrived, its webhook-id and the batch its
 * event was committed in; a dead one reads the request and never answers.
 *
 * Protocol (IPC): the parent sends nothing to start; the child sends
 * { type: 'ready', healthy: port[], dead: port[] }. On { type: 'report' } it answers with
 * { type: 'report', endpoints: Receipts[], deadRequests, connections } (connections the healthy endpoints accepted).
 * On { type: 'count' } it answers { type: 'count', distinct }: the (endpoint, webhook-id) pairs
 * received so far, which is how the parent knows the deliveries drained without querying the
 * database it is measuring.
 */

export type Receipts = {
  /** performance.timeOrigin + performance.now() at the end of each request body: epoch ms, sub-ms precision. */
  at: Float64Array;
  /** The writer's batch number, read from the event's data. */
  batch: Int32Array;
  ids: string[];
};

export type SinkMessage =
  | { type: 'ready'; healthy: number[]; dead: number[] }
  | { type: 'report'; endpoints: Receipts[]; deadRequests: number; connections: number }
  | { type: 'count'; distinct: number };

const healthyCount = Number(process.env.SINK_HEALTHY ?? 5);
const deadCount = Number(process.env.SINK_DEAD ?? 0);
const BATCH = /"batch":(\d+)/;

class Recorder {
  private at = new Float64Array(1 << 16);
  private batch = new Int32Array(1 << 16);
  private ids: string[] = [];
  private n = 0;
  private readonly seen = new Set<string>();

  get distinct(): number {
    return this.seen.size;
  }

  add(at: number, batch: number, id: string) {
    this.seen.add(id);
    if (this.n === this.at.length) {
      const at2 = new Float64Array(this.n * 2);
      at2.set(this.at);
      this.at = at2;
      const batch2 = new Int32Array(this.n * 2);
      batch2.set(this.batch);
      this.batch = batch2;
    }
    this.at[this.n] = at;
    this.batch[this.n] = batch;
    this.ids.push(id);
    this.n += 1;
  }

  snapshot(): Receipts {
    return { at: this.at.slice(0, this.n), batch: this.batch.slice(0, this.n), ids: this.ids.slice() };
  }
}

const now = () => performance.timeOrigin + performance.now();
const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

let connections = 0;
const recorders = Array.from({ length: healthyCount }, () => new Recorder());
const servers: Server[] = [];
const healthyPorts: number[] = [];
for (const recorder of recorders) {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const match = BATCH.exec(body);
      recorder.add(now(), match ? Number(match[1]) : -1, String(req.headers['webhook-id'] ?? ''));
      res.statusCode = 204;
      res.end();
    });
  });
  server.on('connection', () => (connections += 1));
  servers.push(server);
  healthyPorts.push(await listen(server));
}

let deadRequests = 0;
const deadPorts: number[] = [];
for (let i = 0; i < deadCount; i++) {
  // Reads the request, then holds the connection open without a response until the sender gives up.
  const server = createServer((req) => {
    deadRequests += 1;
    req.resume();
  });
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 0;
  servers.push(server);
  deadPorts.push(await listen(server));
}

process.on('message', (message: { type?: string }) => {
  if (message.type === 'count') {
    process.send!({ type: 'count', distinct: recorders.reduce((n, r) => n + r.distinct, 0) } satisfies SinkMessage);
    return;
  }
  if (message.type !== 'report') return;
  const report: SinkMessage = { type: 'report', endpoints: recorders.map((r) => r.snapshot()), deadRequests, connections };
  process.send!(report);
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.send!({ type: 'ready', healthy: healthyPorts, dead: deadPorts } satisfies SinkMessage);
