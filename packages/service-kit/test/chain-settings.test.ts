import { ChainNotConfigured } from '@raffle/chain';
import { describe, expect, it } from 'vitest';
import { ChainSettings, chainReaderFromConfig, ConfigError, readConfig } from '../src/index.js';
import { Type } from '@sinclair/typebox';

const Schema = Type.Object(ChainSettings);

describe('chain settings', () => {
  it('default to no chains: a reader that knows none', async () => {
    const config = readConfig(Schema, {});
    expect(config).toEqual({ CHAIN_RPC_URLS: '', CHAIN_RPC_TIMEOUT_MS: 2_000, CHAIN_RPC_RETRIES: 1, CHAIN_LATEST_CACHE_MS: 10_000 });
    const reader = chainReaderFromConfig(config);
    expect(reader.chains).toEqual([]);
    await expect(reader.latestBlock('ethereum')).rejects.toBeInstanceOf(ChainNotConfigured);
  });

  it('name the configured chains', () => {
    const reader = chainReaderFromConfig(readConfig(Schema, { CHAIN_RPC_URLS: 'anvil=http://127.0.0.1:8545,base=https://base.example/v2/key' }));
    expect(reader.chains).toEqual(['anvil', 'base']);
  });

  it('refuse a malformed CHAIN_RPC_URLS with a ConfigError that does not echo the URL', () => {
    const config = readConfig(Schema, { CHAIN_RPC_URLS: 'Ethereum=https://eth.example/v2/secret-key' });
    expect(() => chainReaderFromConfig(config)).toThrow(ConfigError);
    expect(() => chainReaderFromConfig(config)).toThrow(/CHAIN_RPC_URLS: chain name/);
    expect(() => chainReaderFromConfig(config)).not.toThrow(/secret-key/);
  });

  it('refuse a timeout out of range', () => {
    expect(() => readConfig(Schema, { CHAIN_RPC_TIMEOUT_MS: '5' })).toThrow(ConfigError);
  });
});
