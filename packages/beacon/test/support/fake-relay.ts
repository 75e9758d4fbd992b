import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake relay does with one request path: answer it, or never answer at all. */
export type RelayBehaviour = (path: string) => { status: number; body: string } | 'hang';

/** An HTTP relay on 127.0.0.1 that behaves as told and counts the requests it got. */
export async function startFakeRelay(behaviour: RelayBehaviour) {
  const paths: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    paths.push(path);
    const reply = behaviour(path);
    if (reply === 'hang') {
      hanging.add(response);
      return;
    }
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `rounds` under `chainHash` as a drand relay does, 404 for every other round. */
export function servingRounds(chainHash: string, rounds: readonly { round: number; signature: string; randomness?: string }[]): RelayBehaviour {
  return (pathAndQuery) => {
    // drand-client adds a cache-busting query string.
    const path = pathAndQuery.split('?')[0] ?? '';
    const match = new RegExp(`^/${chainHash}/public/(\\d+)$`).exec(path);
    const found = match === null ? undefined : rounds.find((r) => r.round === Number(match[1]));
    if (path === `/${chainHash}/public/latest` && rounds.length > 0) return { status: 200, body: JSON.stringify(rounds.at(-1)) };
    return found === undefined ? { status: 404, body: '{"error":"not found"}' } : { status: 200, body: JSON.stringify(found) };
  };
}

/** The URL of a relay that has gone: its port was just released, so connecting is refused. */
export async function goneRelayUrl(): Promise<string> {
  const relay = await startFakeRelay(() => 'hang');
  await relay.close();
  return relay.url;
}
