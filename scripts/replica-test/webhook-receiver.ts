import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook endpoint on loopback that answers 204 and counts what it received, by webhook-id. */
export async function startWebhookReceiver() {
  const receipts = new Map<string, number>();
  /** When each webhook-id first arrived (performance.now()): what a pause is measured on. */
  const firstArrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (!firstArrivals.has(id)) firstArrivals.set(id, performance.now());
      receipts.set(id, (receipts.get(id) ?? 0) + 1);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** How many of `ids` arrived at least once, and the receipts beyond the first of each. */
    tally(ids: readonly string[]) {
      const arrived = ids.filter((id) => receipts.has(id)).length;
      const duplicates = ids.reduce((n, id) => n + Math.max(0, (receipts.get(id) ?? 0) - 1), 0);
      return { arrived, lost: ids.length - arrived, duplicates };
    },
    /** The first arrival time of each webhook-id received so far. */
    firstArrivals: () => new Map(firstArrivals),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
