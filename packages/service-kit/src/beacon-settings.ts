import { DRAND_PUBLIC_RELAYS, QUICKNET, UNCHAINED_G1_RFC9380, type BeaconChain } from '@raffle/beacon';
import { chainValueProblems } from '@raffle/sdk';
import { Type } from '@sinclair/typebox';
import { ConfigError } from './config.js';

/**
 * The beacon chain a service pins and the relays it asks, for the services that close raffles
 * (a close fixes the round the draw will mix in) and, later, draw them. Every instance of a
 * deployment needs the same chain: a raffle's round belongs to the chain it was fixed on.
 */
export const BeaconSettings = {
  /** `quicknet` (drand's League of Entropy chain), or a chain as JSON: the local beacon prints one. */
  BEACON_CHAIN: Type.String({ minLength: 1, default: 'quicknet' }),
  /** Comma-separated relay base URLs, tried in order; untrusted transport, rounds are verified against the chain. */
  BEACON_RELAYS: Type.String({ minLength: 1, default: DRAND_PUBLIC_RELAYS.join(',') }),
};

export type BeaconConfig = { BEACON_CHAIN: string; BEACON_RELAYS: string };
export type Beacon = { chain: BeaconChain; relays: string[] };

const NAMED_CHAINS: Record<string, BeaconChain> = { quicknet: QUICKNET };

function chainProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  const chain = value as Record<string, unknown>;
  const [first] = chainValueProblems(chain);
  if (first) return `${first.field} must be ${first.need}`;
  if (chain.scheme !== UNCHAINED_G1_RFC9380) return `scheme must be ${UNCHAINED_G1_RFC9380}`;
  return null;
}

function parseChain(text: string): BeaconChain | string {
  const named = NAMED_CHAINS[text.trim()];
  if (named) return named;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `must be ${Object.keys(NAMED_CHAINS).join(' or ')}, or a chain as JSON`;
  }
  const problem = chainProblem(parsed);
  if (problem) return problem;
  const { chainHash, publicKey, period, genesisTime, scheme } = parsed as BeaconChain;
  return { chainHash, publicKey, period, genesisTime, scheme };
}

function parseRelays(text: string): string[] | string {
  const relays = text.split(',').map((r) => r.trim()).filter((r) => r !== '');
  if (relays.length === 0) return 'must list at least one relay URL';
  for (const relay of relays) {
    let url: URL;
    try {
      url = new URL(relay);
    } catch {
      return `${relay} is not a URL`;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${relay} is not an http(s) URL`;
  }
  return relays.map((r) => r.replace(/\/+$/, ''));
}

/** The pinned chain and the relays, checked; every problem is a ConfigError naming the variable. */
export function beaconOf(config: BeaconConfig): Beacon {
  const chain = parseChain(config.BEACON_CHAIN);
  const relays = parseRelays(config.BEACON_RELAYS);
  const problems = [typeof chain === 'string' && `  BEACON_CHAIN: ${chain}`, typeof relays === 'string' && `  BEACON_RELAYS: ${relays}`].filter(
    (line): line is string => Boolean(line),
  );
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.join('\n')}`);
  return { chain: chain as BeaconChain, relays: relays as string[] };
}
