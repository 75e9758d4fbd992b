import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { createWalletLinkMessage } from '../src/index.js';

const FIELDS = {
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  chainId: 31337,
  nonce: '5c1f9b0e2a7d4c3b8e6f1a0d9c2b7e4f',
  domain: '127.0.0.1:3003',
  uri: 'http://127.0.0.1:3003',
  statement: 'Link this wallet to your Raffle account.',
  issuedAt: new Date('2026-03-14T16:00:00.000Z'),
};

describe('createWalletLinkMessage', () => {
  it('writes the EIP-4361 text that a SIWE parser reads back field for field', () => {
    const expirationTime = new Date('2026-03-14T16:10:00.000Z');
    const message = createWalletLinkMessage({ ...FIELDS, expirationTime, resources: ['https://example.com/a'] });
    expect(parseSiweMessage(message)).toEqual({ ...FIELDS, version: '1', expirationTime, resources: ['https://example.com/a'] });
  });

  it("is byte for byte viem's createSiweMessage, with and without a statement", () => {
    expect(createWalletLinkMessage(FIELDS)).toBe(createSiweMessage({ ...FIELDS, address: FIELDS.address as `0x${string}`, version: '1' }));
    const { statement: _none, ...bare } = FIELDS;
    expect(createWalletLinkMessage(bare)).toBe(createSiweMessage({ ...bare, address: FIELDS.address as `0x${string}`, version: '1' }));
  });

  it('refuses fields the format cannot carry', () => {
    expect(() => createWalletLinkMessage({ ...FIELDS, statement: 'two\nlines' })).toThrow(TypeError);
    expect(() => createWalletLinkMessage({ ...FIELDS, address: '0x1234' })).toThrow(TypeError);
    expect(() => createWalletLinkMessage({ ...FIELDS, nonce: 'short' })).toThrow(TypeError);
    expect(() => createWalletLinkMessage({ ...FIELDS, chainId: 0 })).toThrow(TypeError);
  });
});
