import { describe, expect, it } from 'vitest';
import { chainHashOf, QUICKNET, QUICKNET_BEACON_ID, QUICKNET_GROUP_HASH } from '../src/index.js';

describe('chainHashOf', () => {
  it("reproduces quicknet's published chain hash from its info, so the local beacon's hash is derived the same way", () => {
    const hash = chainHashOf({ ...QUICKNET, groupHash: QUICKNET_GROUP_HASH, beaconId: QUICKNET_BEACON_ID });
    expect(hash).toBe(QUICKNET.chainHash);
  });

  it('changes with the beacon id, which only the historic default beacon leaves out', () => {
    const inputs = { ...QUICKNET, groupHash: QUICKNET_GROUP_HASH };
    expect(chainHashOf({ ...inputs, beaconId: 'default' })).toBe(chainHashOf({ ...inputs, beaconId: '' }));
    expect(chainHashOf({ ...inputs, beaconId: 'other' })).not.toBe(QUICKNET.chainHash);
  });
});
