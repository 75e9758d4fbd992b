import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ChainUnavailable, createChainReader } from '../src/index.js';
import { startAnvil, testAccounts, type LocalChain } from '../src/local/index.js';

const funded = testAccounts(1)[0]!.address;
const INITIAL_BALANCE = 10_000n * 10n ** 18n;
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function started(port = 0): Promise<LocalChain> {
  const chain = await startAnvil({ port });
  cleanups.push(() => chain.stop());
  return chain;
}

describe('a chain that does not answer', () => {
  it('is ChainUnavailable while stopped, and answers again once restarted at the same URL', async () => {
    const chain = await started();
    const port = Number(new URL(chain.rpcUrl).port);
    const reader = createChainReader([{ name: 'anvil', rpcUrl: chain.rpcUrl }], { timeoutMs: 1_000, retries: 0, latestCacheMs: 0 });
    expect(await reader.readHoldings('anvil', [{ kind: 'native', wallet: funded }], 'latest')).toEqual([INITIAL_BALANCE]);

    await chain.stop();
    const down = reader.readHoldings('anvil', [{ kind: 'native', wallet: funded }], 'latest');
    await expect(down).rejects.toBeInstanceOf(ChainUnavailable);
    await expect(down).rejects.toMatchObject({ chain: 'anvil' });
    await expect(reader.latestBlock('anvil')).rejects.toBeInstanceOf(ChainUnavailable);

    await started(port);
    expect(await reader.readHoldings('anvil', [{ kind: 'native', wallet: funded }], 'latest')).toEqual([INITIAL_BALANCE]);
  });

  it('is ChainUnavailable when the RPC accepts the request and never answers (the timeout, not a hang)', async () => {
    const silent: Server = createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as { port: number };
    const reader = createChainReader([{ name: 'slow', rpcUrl: `http://127.0.0.1:${port}` }], { timeoutMs: 300, retries: 1 });
    const error = await reader.readHoldings('slow', [{ kind: 'erc20', contract: funded, wallet: funded }], 'latest').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnavailable);
    // Worded without the RPC URL: it may carry a provider key.
    expect((error as Error).message).not.toContain(String(port));
    await expect(reader.chainIdOf('slow')).rejects.toBeInstanceOf(ChainUnavailable);
  });
});
