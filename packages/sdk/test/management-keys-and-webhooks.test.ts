import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RaffleManagementClient } from '../src/management/index.js';
import { RaffleApiError } from '../src/http/raffle-api-error.js';
import { registerSecret } from '@raffle/service-kit/testing/log-scan';
import { collect, startManagement, type ManagementService } from './support/management-service.js';
import { seedFailedDelivery } from './support/webhook-deliveries.js';

let service: ManagementService;
let owner: RaffleManagementClient;
let workspaceId: string;
let localUrl: string;

beforeAll(async () => {
  service = await startManagement();
  owner = service.clientFor(service.tenant.owner.id);
  workspaceId = service.tenant.workspace.id;
  localUrl = service.localWebhookUrl;
});

afterAll(async () => {
  await service?.close();
});

describe('capabilities', () => {
  it('lists the scopes and event types of both owner kinds', async () => {
    const capabilities = await owner.capabilities.get();
    expect(capabilities.personalApiScopes.length).toBeGreaterThan(0);
    expect(capabilities.workspaceApiScopes.length).toBeGreaterThan(0);
    expect(capabilities.personalWebhookEvents).toContain('win.selected');
    expect(capabilities.workspaceWebhookEvents).toContain('raffle.published');
  });

  it('the event type catalogue describes every event type capabilities offers, with its audiences and schema', async () => {
    const capabilities = await owner.capabilities.get();
    const eventTypes = await collect(owner.eventTypes.list());
    const byType = new Map(eventTypes.map((e) => [e.type, e]));
    for (const type of capabilities.personalWebhookEvents) expect(byType.get(type)?.audiences, type).toContain('personal');
    for (const type of capabilities.workspaceWebhookEvents) expect(byType.get(type)?.audiences, type).toContain('workspace');
    expect(eventTypes.every((e) => e.description.length > 0 && typeof e.schema === 'object')).toBe(true);
  });
});

/** Personal and workspace keys through one set of steps: the SDK shapes differ only by the workspace id. */
const keyHolders = {
  personal: () => ({
    scopes: async () => (await owner.capabilities.get()).personalApiScopes,
    create: (body: { name: string; scopes: string[] }) => owner.personal.apiKeys.create(body),
    list: () => owner.personal.apiKeys.list(),
    roll: (keyId: string, expireOldInSeconds?: number) => owner.personal.apiKeys.roll(keyId, expireOldInSeconds === undefined ? undefined : { expireOldInSeconds }),
    revoke: (keyId: string) => owner.personal.apiKeys.revoke(keyId),
  }),
  workspace: () => ({
    scopes: async () => (await owner.capabilities.get()).workspaceApiScopes,
    create: (body: { name: string; scopes: string[] }) => owner.workspaces.apiKeys.create(workspaceId, body),
    list: () => owner.workspaces.apiKeys.list(workspaceId),
    roll: (keyId: string, expireOldInSeconds?: number) =>
      owner.workspaces.apiKeys.roll(workspaceId, keyId, expireOldInSeconds === undefined ? undefined : { expireOldInSeconds }),
    revoke: (keyId: string) => owner.workspaces.apiKeys.revoke(workspaceId, keyId),
  }),
};

describe.each(['personal', 'workspace'] as const)('%s API keys', (kind) => {
  it('create, list, roll (at once and with a grace period), revoke', async () => {
    const keys = keyHolders[kind]();
    const scopes = (await keys.scopes()).slice(0, 2);
    const created = await keys.create({ name: `sdk ${kind} key`, scopes });
    registerSecret(created.apiKey);
    expect(created).toMatchObject({ name: `sdk ${kind} key`, scopes });
    expect(created.apiKey.startsWith(created.prefix)).toBe(true);
    expect(created.apiKey.endsWith(created.lastFour)).toBe(true);

    const listed = await keys.list();
    const seen = listed.find((k) => k.id === created.id);
    expect(seen).toMatchObject({ id: created.id, name: created.name });
    expect(seen).not.toHaveProperty('apiKey');

    const rolled = await keys.roll(created.id);
    registerSecret(rolled.apiKey);
    expect(rolled).toMatchObject({ name: created.name, scopes });
    expect(rolled.id).not.toBe(created.id);
    expect(rolled.apiKey).not.toBe(created.apiKey);
    const old = (await keys.list()).find((k) => k.id === created.id)!;
    expect(old.revokedAt ?? old.expiresAt).toBeDefined();

    const graced = await keys.roll(rolled.id, 3600);
    registerSecret(graced.apiKey);
    const stillWorking = (await keys.list()).find((k) => k.id === rolled.id)!;
    expect(stillWorking.revokedAt).toBeUndefined();
    expect(Date.parse(stillWorking.expiresAt!)).toBeGreaterThan(Date.now() + 3_000_000);

    const revoked = await keys.revoke(graced.id);
    expect(revoked).toMatchObject({ id: graced.id });
    expect(revoked.revokedAt).toBeDefined();
    // Revoking again is idempotent on the server: the same record.
    expect((await keys.revoke(graced.id)).revokedAt).toBe(revoked.revokedAt);
  });
});

/** Personal and workspace webhook endpoints through one set of steps. */
const endpointOwners = {
  personal: () => {
    const endpoints = owner.personal.webhookEndpoints;
    return {
      event: 'win.selected',
      create: (body: Parameters<typeof endpoints.create>[0]) => endpoints.create(body),
      list: (limit?: number) => endpoints.list({ limit }),
      get: (id: string) => endpoints.get(id),
      update: (id: string, body: Parameters<typeof endpoints.update>[1]) => endpoints.update(id, body),
      rotateSecret: (id: string) => endpoints.rotateSecret(id),
      sendTest: (id: string) => endpoints.sendTest(id),
      listAttempts: (id: string, deliveryId?: string) => endpoints.deliveries.listAttempts(id, { deliveryId }),
      retry: (id: string, deliveryId: string) => endpoints.deliveries.retry(id, deliveryId),
      recover: (id: string, since: string) => endpoints.deliveries.recover(id, { since }),
      delete: (id: string) => endpoints.delete(id),
    };
  },
  workspace: () => {
    const endpoints = owner.workspaces.webhookEndpoints;
    return {
      event: 'raffle.published',
      create: (body: Parameters<typeof endpoints.create>[1]) => endpoints.create(workspaceId, body),
      list: (limit?: number) => endpoints.list(workspaceId, { limit }),
      get: (id: string) => endpoints.get(workspaceId, id),
      update: (id: string, body: Parameters<typeof endpoints.update>[2]) => endpoints.update(workspaceId, id, body),
      rotateSecret: (id: string) => endpoints.rotateSecret(workspaceId, id),
      sendTest: (id: string) => endpoints.sendTest(workspaceId, id),
      listAttempts: (id: string, deliveryId?: string) => endpoints.deliveries.listAttempts(workspaceId, id, { deliveryId }),
      retry: (id: string, deliveryId: string) => endpoints.deliveries.retry(workspaceId, id, deliveryId),
      recover: (id: string, since: string) => endpoints.deliveries.recover(workspaceId, id, { since }),
      delete: (id: string) => endpoints.delete(workspaceId, id),
    };
  },
};

describe.each(['personal', 'workspace'] as const)('%s webhook endpoints', (kind) => {
  it('create, list, get, update, rotate the secret, send a test, read, retry and recover deliveries, delete', async () => {
    const hooks = endpointOwners[kind]();
    const created = await hooks.create({ url: localUrl, eventTypes: [hooks.event], description: 'SDK endpoint' });
    registerSecret(created.secret);
    expect(created).toMatchObject({ url: localUrl, eventTypes: [hooks.event], enabled: true, description: 'SDK endpoint' });
    expect(created.secret).toMatch(/^whsec_/);
    const second = await hooks.create({ url: `${localUrl}/2`, eventTypes: [hooks.event], enabled: false });
    registerSecret(second.secret);
    expect(second.enabled).toBe(false);

    // Newest first, walked a page of one at a time.
    const listed = await collect(hooks.list(1));
    expect(listed.map((e) => e.id)).toEqual([second.id, created.id]);
    expect(listed[0]).not.toHaveProperty('secret');

    expect(await hooks.get(created.id)).toMatchObject({ id: created.id, url: localUrl });
    const updated = await hooks.update(created.id, { description: 'Renamed', eventTypes: [hooks.event] });
    expect(updated).toMatchObject({ id: created.id, description: 'Renamed' });

    const rotated = await hooks.rotateSecret(created.id);
    registerSecret(rotated.secret);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.secretRotatedAt).toBeDefined();

    const test = await hooks.sendTest(created.id);
    expect(test.eventId).toMatch(/^evt_/);
    // A disabled endpoint gets no test event.
    await expect(hooks.sendTest(second.id)).rejects.toMatchObject({ status: 409 });

    const failed = await seedFailedDelivery(service.testDb.database, created.id, new Date(Date.now() - 60_000));
    const other = await seedFailedDelivery(service.testDb.database, created.id, new Date(Date.now() - 30_000));
    const attempts = await collect(hooks.listAttempts(created.id));
    expect(attempts.map((a) => a.id)).toEqual([other.attemptId, failed.attemptId]);
    const narrowed = await hooks.listAttempts(created.id, failed.deliveryId).page();
    expect(narrowed.data).toHaveLength(1);
    expect(narrowed.data[0]).toMatchObject({ deliveryId: failed.deliveryId, status: 'failed', responseStatus: 503, deliveryStatus: 'failed' });

    const retried = await hooks.retry(created.id, failed.deliveryId);
    expect(retried).toMatchObject({ id: failed.deliveryId, status: 'pending' });
    const recovered = await hooks.recover(created.id, new Date(Date.now() - 3_600_000).toISOString());
    expect(recovered.requeued).toBe(1);

    await hooks.delete(second.id);
    const gone = await hooks.get(second.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(RaffleApiError);
    expect(gone).toMatchObject({ status: 404 });
    expect((await collect(hooks.list())).map((e) => e.id)).toEqual([created.id]);
    await hooks.delete(created.id);
  });
});
