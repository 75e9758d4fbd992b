/**
 * The public randomness beacon a draw mixes in (product design, "Draws nobody can predict, the
 * operator included"; decision 0022): what a chain is, drand's `quicknet` pinned, and the rule
 * that fixes a raffle's round at its close. The SDK holds these because it is the published
 * verifier; @raffle/beacon (the relay client and the local beacon) builds on them.
 */

/** The only scheme verified: unchained rounds, G1 signatures, RFC 9380 hash-to-curve. */
export const UNCHAINED_G1_RFC9380 = 'bls-unchained-g1-rfc9380';

/**
 * What is pinned about a beacon chain. Verification uses these values, never what a relay or a
 * proof says about itself.
 */
export type BeaconChain = {
  /** drand's chain hash (hex): the chain's name in URLs and in a draw's proof. */
  chainHash: string;
  /** The group's BLS public key on G2, compressed (hex, 96 bytes). */
  publicKey: string;
  /** Seconds between rounds. */
  period: number;
  /** Unix seconds of round 1. */
  genesisTime: number;
  scheme: typeof UNCHAINED_G1_RFC9380;
};

/**
 * drand's `quicknet` (League of Entropy mainnet, 3 s unchained rounds). Values from drand's JS
 * client, drand/drand-client lib/defaults.ts `QUICKNET_CHAIN_INFO` (commit
 * b9572b2ef11d28d5c011144867ca8d27bece23e2), the same as drand/tlock tlock_test.go and drand's
 * docs; packages/beacon's tests recompute the chain hash from them the way drand does.
 */
export const QUICKNET: BeaconChain = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesisTime: 1692803367,
  scheme: UNCHAINED_G1_RFC9380,
};

type ChainClock = Pick<BeaconChain, 'genesisTime' | 'period'>;

/** The round current at unix second `t`: round 1 starts at genesis; before genesis there is none (0). */
export function roundAt(chain: ChainClock, t: number): number {
  if (t < chain.genesisTime) return 0;
  return Math.floor((t - chain.genesisTime) / chain.period) + 1;
}

/** The unix second at which `round` is due (relays publish it moments later). */
export function timeOfRound(chain: ChainClock, round: number): number {
  if (!Number.isSafeInteger(round) || round < 1) throw new RangeError(`not a beacon round: ${round}`);
  return chain.genesisTime + (round - 1) * chain.period;
}

/** Rounds between the one current at the close and the one a draw uses. */
export const BEACON_ROUND_OFFSET = 2;

/**
 * The round a raffle closed at `closedAt` draws with: `roundAt(closedAt) + 2`, due at least one full
 * period after the entry set was frozen, and public (in the raffle and its `raffle.closed` event)
 * before anyone can know its value.
 */
export const beaconRoundForClose = (chain: ChainClock, closedAt: Date): number =>
  roundAt(chain, Math.floor(closedAt.getTime() / 1000)) + BEACON_ROUND_OFFSET;

/** One pinned value of a chain that is not in its form, and the form it needs. */
export type ChainValueProblem = { field: 'chainHash' | 'publicKey' | 'period' | 'genesisTime'; need: string };

const hexOf = (bytes: number) => (value: unknown) => typeof value === 'string' && new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(value);

const CHAIN_VALUE_RULES: readonly { field: ChainValueProblem['field']; need: string; holds: (value: unknown) => boolean }[] = [
  { field: 'chainHash', need: '32 bytes of lowercase hex', holds: hexOf(32) },
  { field: 'publicKey', need: '96 bytes of lowercase hex (G2, compressed)', holds: hexOf(96) },
  { field: 'period', need: 'a whole number of seconds, at least 1', holds: (v) => Number.isSafeInteger(v) && (v as number) >= 1 },
  { field: 'genesisTime', need: 'a whole number of unix seconds', holds: (v) => Number.isSafeInteger(v) },
];

/**
 * Which of a chain's pinned values (hash, key, period, genesis) are not in their form: one rule
 * for a configured chain, a chain a verifier is told to trust, and the one a proof names. The
 * scheme is each reader's to check, since some forms of a chain do not state it.
 */
export const chainValueProblems = (values: Record<string, unknown>): ChainValueProblem[] =>
  CHAIN_VALUE_RULES.filter((rule) => !rule.holds(values[rule.field])).map(({ field, need }) => ({ field, need }));
