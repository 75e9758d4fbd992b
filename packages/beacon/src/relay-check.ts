import type { BeaconChain } from '@raffle/sdk';
import { getRelayJson } from './relay-request.js';

export type RelayCheck = { relay: string; servesPinnedChain: true } | { relay: string; servesPinnedChain: false; reason: string };

/**
 * Whether each relay serves the pinned chain, by its `GET /{chainHash}/info`: for startup logs and
 * health, never for trust (rounds are verified against the pinned key whatever a relay claims).
 * A relay that serves another key under the pinned hash would fail every round; this says so
 * before a draw needs one.
 */
export async function checkRelays(chain: BeaconChain, relays: readonly string[], timeoutMs = 3000): Promise<RelayCheck[]> {
  return Promise.all(
    relays.map(async (relay): Promise<RelayCheck> => {
      const { json, reason } = await getRelayJson(`${relay.replace(/\/+$/, '')}/${chain.chainHash}/info`, timeoutMs);
      if (reason !== undefined) return { relay, servesPinnedChain: false, reason };
      const mismatch = infoMismatch(chain, json);
      return mismatch === undefined ? { relay, servesPinnedChain: true } : { relay, servesPinnedChain: false, reason: mismatch };
    }),
  );
}

function infoMismatch(chain: BeaconChain, json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return 'info is not a JSON object';
  const info = json as Record<string, unknown>;
  const expected: [string, unknown][] = [
    ['hash', chain.chainHash],
    ['public_key', chain.publicKey],
    ['period', chain.period],
    ['genesis_time', chain.genesisTime],
    ['schemeID', chain.scheme],
  ];
  const wrong = expected.filter(([field, value]) => info[field] !== value).map(([field]) => field);
  return wrong.length === 0 ? undefined : `info differs from the pinned chain in ${wrong.join(', ')}`;
}
