import { fileURLToPath } from 'node:url';
import { startContractProxy, type ContractProxy } from '@raffle/service-kit/testing/contract-proxy';
import { freePort } from '@raffle/service-kit/testing/faults';
import { afterEach, expect } from 'vitest';

const running = new Set<ContractProxy>();

// Registered when a test file imports this (through its service support), so every test in it
// ends with "Prism saw no violation", whatever it asserted itself.
afterEach(async () => {
  const violations = (await Promise.all([...running].map((proxy) => proxy.takeViolations()))).flat();
  expect(violations, 'Prism found requests or responses that break the OpenAPI document').toEqual([]);
});

/**
 * The service at `upstream` seen through `prism proxy --errors` with its committed OpenAPI
 * document (docs/openapi/<api>.json): the SDK's tests talk to `url`, so every request they make
 * and every answer they get is checked against the document. A test that breaks the contract on
 * purpose (no credentials, a malformed parameter) talks to the service directly instead.
 */
async function behindContractProxy(api: 'data-plane' | 'management', upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const document = fileURLToPath(new URL(`../../../../docs/openapi/${api}.json`, import.meta.url));
  const proxy = await startContractProxy({ document, upstream });
  running.add(proxy);
  return {
    url: proxy.url,
    close: async () => {
      running.delete(proxy);
      const violations = await proxy.takeViolations();
      await proxy.close();
      if (violations.length > 0) throw new Error(`Prism found violations of docs/openapi/${api}.json after the last test:\n${violations.join('\n')}`);
    },
  };
}

/**
 * Starts a service with `start` (which listens on the loopback port it is given) and Prism in
 * front of it at once: Prism needs only the service's address, and its start takes seconds.
 */
export async function startBehindContractProxy<Service extends { close(): Promise<unknown> }>(
  api: 'data-plane' | 'management',
  start: (port: number) => Promise<Service>,
): Promise<{ service: Service; directUrl: string; proxy: { url: string; close(): Promise<void> } }> {
  const directUrl = `http://127.0.0.1:${await freePort()}`;
  const [service, proxy] = await Promise.allSettled([start(Number(new URL(directUrl).port)), behindContractProxy(api, directUrl)]);
  if (service.status === 'fulfilled' && proxy.status === 'fulfilled') return { service: service.value, directUrl, proxy: proxy.value };
  if (service.status === 'fulfilled') await service.value.close();
  if (proxy.status === 'fulfilled') await proxy.value.close();
  throw service.status === 'rejected' ? service.reason : (proxy as PromiseRejectedResult).reason;
}
