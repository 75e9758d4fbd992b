import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RaffleConnectionError } from '../src/index.js';
import { collect, startManagement, uniqueSlug, type ManagementService } from './support/management-service.js';

let service: ManagementService;

beforeAll(async () => {
  service = await startManagement();
});

afterAll(async () => {
  await service?.close();
});

/** A fetch whose first POST reaches the server but loses its answer (a connection cut after the write); it records each POST's Idempotency-Key. */
function firstAnswerLost() {
  const keys: Array<string | null> = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await globalThis.fetch(input, init);
    if (init?.method !== 'POST') return response;
    keys.push(new Headers(init.headers).get('idempotency-key'));
    if (keys.length === 1) {
      await response.text();
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    }
    return response;
  }) as typeof fetch;
  return { fetch: fetchFn, keys };
}

describe('management creates are idempotent (a lost answer is retried and replayed)', () => {
  it('an API key: one key is created and the replay shows its plaintext', async () => {
    const user = await service.newUser();
    const lossy = firstAnswerLost();
    const mgmt = service.clientFor(user.id, { fetch: lossy.fetch });
    const created = await mgmt.personal.apiKeys.create({ name: 'lost once', scopes: ['profile:read'] });
    expect(lossy.keys).toHaveLength(2);
    expect(lossy.keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(lossy.keys[1]).toBe(lossy.keys[0]);
    expect(created.lastResponse.headers.get('idempotent-replayed')).toBe('true');
    expect(created.apiKey.startsWith('svc_u_')).toBe(true);
    const keys = await service.clientFor(user.id).personal.apiKeys.list();
    expect(keys.map((k) => k.id)).toEqual([created.id]);
  });

  it('a webhook endpoint and a raffle: one of each', async () => {
    const owner = service.tenant.owner.id;
    const workspaceId = service.tenant.workspace.id;
    const endpointFetch = firstAnswerLost();
    const endpoint = await service.clientFor(owner, { fetch: endpointFetch.fetch }).workspaces.webhookEndpoints.create(workspaceId, {
      url: service.localWebhookUrl,
      eventTypes: ['raffle.published'],
    });
    expect(endpoint.secret.startsWith('whsec_')).toBe(true);
    const endpoints = await collect(service.clientFor(owner).workspaces.webhookEndpoints.list(workspaceId));
    expect(endpoints.filter((e) => e.id === endpoint.id)).toHaveLength(1);
    expect(endpoints).toHaveLength(1);

    const raffleFetch = firstAnswerLost();
    const slug = uniqueSlug();
    const raffle = await service.clientFor(owner, { fetch: raffleFetch.fetch }).workspaces.raffles.create(workspaceId, {
      slug,
      title: 'Retried once',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      spots: 1,
    });
    const raffles = await collect(service.clientFor(owner).workspaces.raffles.list(workspaceId, { q: slug }));
    expect(raffles.map((r) => r.id)).toEqual([raffle.id]);
  });

  it('a caller-chosen key replays across calls; without one, each call is a new create', async () => {
    const user = await service.newUser();
    const mgmt = service.clientFor(user.id);
    const body = { name: 'chosen key', scopes: ['profile:read'] };
    const first = await mgmt.personal.apiKeys.create(body, { idempotencyKey: 'deploy-2026-11-27-a' });
    const again = await mgmt.personal.apiKeys.create(body, { idempotencyKey: 'deploy-2026-11-27-a' });
    expect(again.id).toBe(first.id);
    expect(again.apiKey).toBe(first.apiKey);
    const fresh = await mgmt.personal.apiKeys.create(body);
    expect(fresh.id).not.toBe(first.id);
  });

  it('a write without a key (roll) is still not retried after a lost answer', async () => {
    const user = await service.newUser();
    const key = await service.clientFor(user.id).personal.apiKeys.create({ name: 'to roll', scopes: ['profile:read'] });
    const lossy = firstAnswerLost();
    await expect(service.clientFor(user.id, { fetch: lossy.fetch }).personal.apiKeys.roll(key.id)).rejects.toBeInstanceOf(RaffleConnectionError);
    expect(lossy.keys).toEqual([null]);
  });
});
