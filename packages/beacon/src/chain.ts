import { createHash } from 'node:crypto';
import type { BeaconChain } from '@raffle/sdk';

/** The chain itself (QUICKNET, BeaconChain) is the SDK's, the published verifier's: one copy. */
export { QUICKNET, UNCHAINED_G1_RFC9380, type BeaconChain } from '@raffle/sdk';

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
