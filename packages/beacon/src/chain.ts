import { createHash } from 'node:crypto';

/** The only scheme the platform verifies: unchained rounds, G1 signatures, RFC 9380 hash-to-curve. */
export const UNCHAINED_G1_RFC9380 = 'bls-unchained-g1-rfc9380';

/**
 * What the platform pins about a beacon chain. Verification uses these values, never what a relay
 * says about itself: a relay's `/info` is only compared against them.
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
 * docs; test/chain.test.ts recomputes the chain hash from them the way drand does.
 */
export const QUICKNET: BeaconChain = {
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesisTime: 1692803367,
  scheme: UNCHAINED_G1_RFC9380,
};

/** quicknet's group hash ("genesis seed") and beacon id: inputs of its chain hash, nothing else uses them. */
export const QUICKNET_GROUP_HASH = 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e';
export const QUICKNET_BEACON_ID = 'quicknet';

/** The chain's key and clock, and the two values drand hashes with them that nothing else needs. */
export type ChainHashInputs = Pick<BeaconChain, 'publicKey' | 'period' | 'genesisTime'> & { groupHash: string; beaconId: string };

/**
 * The chain hash exactly as drand computes it (drand/drand common/chain/info.go, `Info.Hash`):
 * sha256 of period (uint32 big-endian seconds) ‖ genesis time (int64 big-endian) ‖ public key
 * bytes ‖ group hash bytes ‖ the beacon id, which the historic `default` beacon leaves out.
 */
export function chainHashOf(inputs: ChainHashInputs): string {
  const header = Buffer.alloc(12);
  header.writeUInt32BE(inputs.period, 0);
  header.writeBigInt64BE(BigInt(inputs.genesisTime), 4);
  const hash = createHash('sha256')
    .update(header)
    .update(Buffer.from(inputs.publicKey, 'hex'))
    .update(Buffer.from(inputs.groupHash, 'hex'));
  if (inputs.beaconId !== '' && inputs.beaconId !== 'default') hash.update(inputs.beaconId, 'utf8');
  return hash.digest('hex');
}
