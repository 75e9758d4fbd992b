import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateSecretKey, randomnessOf, roundAt, signRound, UNCHAINED_G1_RFC9380, type BeaconChain } from '@raffle/sdk';
import { loadOrCreateIdentity, localGroupHash, type BeaconIdentity } from './beacon-identity.js';
import { LOCAL_BEACON_ID, localBeaconChain } from './round-signer.js';

export { LOCAL_BEACON_ID } from './round-signer.js';

export type LocalBeaconOptions = {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Seconds between rounds; default 3, like quicknet. */
  period?: number;
  /** Unix seconds of round 1 for a new identity; default now. An existing key file keeps its own. */
  genesisTime?: number;
  /** Where the key (and genesis) persist; created if missing. */
  keyFile?: string;
  /** A BLS secret key (32 bytes) to use instead of a key file; with neither, a fresh key per start. */
  secretKey?: Uint8Array;
  /** Unix time in seconds; tests move the clock. */
  now?: () => number;
};

export type LocalBeacon = {
  /** The relay base URL, to give a beacon client as its only relay. */
  url: string;
  /** The chain to pin for this beacon. */
  chain: BeaconChain;
  close(): Promise<void>;
};

/**
 * A stand-in for drand where there is no internet: one BLS key signing rounds on drand's scheme,
 * served over drand's v1 HTTP API, so the platform fetches and verifies them exactly as it would
 * quicknet's. Plain node:http rather than a fastify app: it is an imitation of an external
 * service with five GET routes and no schemas, errors or metrics of ours to share.
 *
 * Rounds are not produced by a timer: a round's signature is deterministic (BLS), so the beacon
 * signs a round when asked, once its time has come; before that it answers 404 as drand relays do.
 */
export async function startLocalBeacon(options: LocalBeaconOptions = {}): Promise<LocalBeacon> {
  const now = options.now ?? (() => Date.now() / 1000);
  const period = options.period ?? 3;
  if (!Number.isSafeInteger(period) || period < 1) throw new RangeError(`period must be a whole number of seconds ≥ 1, not ${period}`);
  const identity = await resolveIdentity(options, options.genesisTime ?? Math.floor(now()));
  const chain: BeaconChain = localBeaconChain(identity.secretKey, period, identity.genesisTime);
  const { chainHash, publicKey } = chain;
  const groupHash = localGroupHash(publicKey);
  const info = {
    public_key: publicKey,
    period,
    genesis_time: identity.genesisTime,
    hash: chainHash,
    groupHash,
    schemeID: UNCHAINED_G1_RFC9380,
    metadata: { beaconID: LOCAL_BEACON_ID },
  };

  // Signing takes milliseconds; the cache is for pollers asking for the same recent rounds, and
  // bounded because a long-running beacon is asked for ever newer ones.
  const signatures = new Map<number, string>();
  function publishedRound(round: number) {
    let signature = signatures.get(round);
    if (signature === undefined) {
      signature = signRound(identity.secretKey, round);
      signatures.set(round, signature);
      if (signatures.size > 1024) signatures.delete(signatures.keys().next().value as number);
    }
    return { round, randomness: randomnessOf(signature), signature };
  }

  function answer(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://beacon').pathname.replace(/\/+$/, '');
    // drand relays serve their default chain without the hash prefix; here that is this chain.
    const route = path.startsWith(`/${chainHash}/`) || path === `/${chainHash}` ? path.slice(chainHash.length + 1) : path;
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, { error: 'method not allowed' });
    if (route === '/info') return send(response, 200, info);
    if (route === '/chains') return send(response, 200, [chainHash]);
    const latest = roundAt(chain, now());
    if (route === '/public/latest') return latest < 1 ? send(response, 404, { error: 'no round yet' }) : send(response, 200, publishedRound(latest));
    const match = /^\/public\/(\d{1,16})$/.exec(route);
    if (match !== null) {
      const round = Number(match[1]);
      if (round < 1 || round > latest) return send(response, 404, { error: 'round not published' });
      return send(response, 200, publishedRound(round));
    }
    return send(response, 404, { error: 'not found' });
  }

  const server = createServer(answer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    chain,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function resolveIdentity(options: LocalBeaconOptions, genesisTime: number): Promise<BeaconIdentity> {
  if (options.secretKey !== undefined) return { secretKey: options.secretKey, genesisTime };
  if (options.keyFile !== undefined) return loadOrCreateIdentity(options.keyFile, genesisTime);
  return { secretKey: generateSecretKey(), genesisTime };
}

function send(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}
