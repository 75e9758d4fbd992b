import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainReader, type ChainReader } from '../src/index.js';
import { deployOwnerWallet, startAnvil, testAccounts, type LocalChain } from '../src/local/index.js';

let chain: LocalChain;
let reader: ChainReader;
const [owner, stranger] = testAccounts(3).slice(1) as [ReturnType<typeof testAccounts>[number], ReturnType<typeof testAccounts>[number]];
const message = 'raffle.example wants you to sign in with your Ethereum account';

beforeAll(async () => {
  chain = await startAnvil();
  reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }]);
});

afterAll(async () => {
  await reader?.close();
  await chain?.stop();
});

describe('verifyMessage', () => {
  it('accepts an EOA signature by its signer and refuses it for another address or message', async () => {
    const signature = await owner.signMessage({ message });
    expect(await reader.verifyMessage('anvil', { address: owner.address, message, signature })).toBe(true);
    expect(await reader.verifyMessage('anvil', { address: stranger.address, message, signature })).toBe(false);
    expect(await reader.verifyMessage('anvil', { address: owner.address, message: `${message}!`, signature })).toBe(false);
  });

  it('refuses a malformed signature as invalid, not as the chain being unavailable', async () => {
    expect(await reader.verifyMessage('anvil', { address: owner.address, message, signature: '0xdeadbeef' })).toBe(false);
    expect(await reader.verifyMessage('anvil', { address: owner.address, message, signature: '0x' })).toBe(false);
  });

  it("accepts a contract wallet's signature through its ERC-1271 isValidSignature, and refuses another signer's", async () => {
    const wallet = await deployOwnerWallet(chain, owner);
    expect(await reader.verifyMessage('anvil', { address: wallet, message, signature: await owner.signMessage({ message }) })).toBe(true);
    expect(await reader.verifyMessage('anvil', { address: wallet, message, signature: await stranger.signMessage({ message }) })).toBe(false);
  });
});
