import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };

/** How the sink answers one request; `hold` keeps it open until `release()` or `close()`. */
export type SinkAnswer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hold';

/** A local webhook receiver: records every request and answers with what `respond` says. */
export async function startSink(respond: (request: Received) => SinkAnswer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const held: ServerResponse[] = [];
  let abandoned = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      for (const w of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const answer = respond(request);
      if (answer === 'hold') {
        held.push(res);
        // The sender hung up before an answer came (its timeout, or its process died).
        res.once('close', () => {
          if (!res.writableEnded) abandoned += 1;
        });
        return;
      }
      const send = () => {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => (timers.delete(timer), send()), answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Requests still held open. */
    held: () => held.length,
    /** Held requests whose sender hung up without an answer. */
    abandoned: () => abandoned,
    /** Answers every held request with `status`. */
    release(status = 204) {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(status).end();
    },
    /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sink got ${received.length} of ${count} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    /** Stops listening and cuts every connection, held requests included. */
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        held.splice(0);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A URL nothing listens on: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}
