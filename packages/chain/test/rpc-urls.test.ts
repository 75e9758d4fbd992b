import { describe, expect, it } from 'vitest';
import { parseChainRpcUrls } from '../src/index.js';

describe('parseChainRpcUrls', () => {
  it('reads name=url pairs, trimming spaces and empty entries', () => {
    expect(parseChainRpcUrls(' ethereum=https://eth.example/v1/key , anvil=http://127.0.0.1:8545,')).toEqual([
      { name: 'ethereum', rpcUrl: 'https://eth.example/v1/key' },
      { name: 'anvil', rpcUrl: 'http://127.0.0.1:8545' },
    ]);
  });

  it('keeps an = inside the URL', () => {
    expect(parseChainRpcUrls('base=https://rpc.example/?key=a=b')).toEqual([{ name: 'base', rpcUrl: 'https://rpc.example/?key=a=b' }]);
  });

  it('takes empty text as no chains', () => {
    expect(parseChainRpcUrls('')).toEqual([]);
    expect(parseChainRpcUrls('  ')).toEqual([]);
  });

  it.each([
    ['https://eth.example', 'entry 1 is not name=url'],
    ['Ethereum=https://eth.example', 'must be 1-32 of a-z, 0-9, -'],
    ['=https://eth.example', 'must be 1-32 of a-z, 0-9, -'],
    [`${'a'.repeat(33)}=https://eth.example`, 'must be 1-32 of a-z, 0-9, -'],
    ['eth=ws://eth.example', 'must be http(s)'],
    ['eth=not a url', 'is not a URL'],
    ['eth=https://a.example,eth=https://b.example', 'listed twice'],
  ])('refuses %s', (text, problem) => {
    const parsed = parseChainRpcUrls(text);
    expect(typeof parsed).toBe('string');
    expect(parsed).toContain(problem);
  });

  it('never quotes a URL in a problem (it may hold a provider key)', () => {
    const parsed = parseChainRpcUrls('eth=https://eth.example/v1/secret-key,https://other.example/v1/secret-key');
    expect(parsed).toBe('entry 2 is not name=url');
  });
});
