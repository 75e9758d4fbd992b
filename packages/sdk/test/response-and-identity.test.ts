import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIdentityHeaders } from '../src/http/client-identity.js';
import { rateLimitOf } from '../src/http/response-info.js';
import { RaffleClient, SDK_VERSION } from '../src/index.js';
import { newTestDatabase, seedDataPlaneTenant, startDataPlane, type DataPlane, type Tenant } from './support/data-plane-service.js';
import { startManagement, type ManagementService } from './support/management-service.js';
import { answerJson, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

let dataPlane: DataPlane;
let management: ManagementService;
let tenant: Tenant;
let scripted: ScriptedServer;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  tenant = await seedDataPlaneTenant(testDb, { publicRaffles: 2 });
  dataPlane = await startDataPlane(testDb);
  management = await startManagement();
  scripted = await startScriptedServer((_request, response) => answerJson(response, 200, { id: 'usr_1' }));
});

afterAll(async () => {
  await scripted?.close();
  await management?.close();
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

describe('lastResponse', () => {
  it('carries the request id, status, headers and rate-limit state of a successful call', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const me = await client.me.get();
    const info = me.lastResponse;
    expect(info.status).toBe(200);
    expect(info.requestId).toMatch(/^req_/);
    expect(info.requestId).toBe(info.headers.get('x-request-id'));
    expect(info.rateLimit).not.toBeNull();
    expect(info.rateLimit!.limit).toBeGreaterThan(0);
    expect(info.rateLimit!.remaining).toBeLessThan(info.rateLimit!.limit!);
    expect(info.rateLimit!.reset).toBeGreaterThan(0);
    // The README shows this very call's rateLimit: the policy it names must be the one sent.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const shown = /me\.lastResponse\.rateLimit;\s*\/\/ \{ policy: '([^']+)'/.exec(readme)?.[1];
    expect(shown, 'README: me.lastResponse.rateLimit example').toBe(info.rateLimit!.policy);
  });

  it('stays out of sight: not enumerable, not serialised', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const me = await client.me.get();
    expect(Object.keys(me)).not.toContain('lastResponse');
    expect(JSON.stringify(me)).not.toContain('lastResponse');
    expect({ ...me }).not.toHaveProperty('lastResponse');
  });

  it('is on every page of a list, and on management answers (an array included)', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const page = await client.raffles.list({ limit: 1 }).page();
    expect(page.lastResponse.status).toBe(200);
    const mgmt = management.clientFor(management.tenant.owner.id);
    const keys = await mgmt.personal.apiKeys.list();
    expect(keys.lastResponse.status).toBe(200);
    expect(keys.lastResponse.requestId).toMatch(/^req_/);
    expect(keys.lastResponse.rateLimit?.policy).toBeDefined();
  });

  it('reads the tightest of several IETF rate-limit policies', () => {
    const headers = new Headers({ ratelimit: '"key";r=599;t=60, "ip";r=12;t=30', 'ratelimit-policy': '"key";q=600;w=60, "ip";q=1200;w=60' });
    expect(rateLimitOf(headers)).toEqual({ policy: 'ip', limit: 1200, remaining: 12, reset: 30 });
    expect(rateLimitOf(new Headers())).toBeNull();
  });
});

describe('client identity', () => {
  it('sends User-Agent and X-Raffle-Client naming the SDK and the runtime', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl });
    await client.me.get();
    const expected = `raffle-sdk-js/${SDK_VERSION} node/${process.versions.node}`;
    expect(scripted.seen.at(-1)!.headers['user-agent']).toBe(expected);
    expect(scripted.seen.at(-1)!.headers['x-raffle-client']).toBe(expected);
  });

  it('a caller may name itself instead, per call', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl });
    await client.me.get({ headers: { 'User-Agent': 'my-bot/2.0' } });
    expect(scripted.seen.at(-1)!.headers['user-agent']).toBe('my-bot/2.0');
  });

  it('in a browser sends no identity header: a page may not set User-Agent, and any other header would make each public GET wait for a CORS preflight', () => {
    expect(clientIdentityHeaders({ navigator: {} })).toEqual({});
    expect(clientIdentityHeaders({ process: { versions: { node: '22.1.0', bun: '1.1.8' } } })['user-agent']).toBe(`raffle-sdk-js/${SDK_VERSION} bun/1.1.8`);
    expect(clientIdentityHeaders({ Deno: { version: { deno: '2.0.0' } }, navigator: {} })['user-agent']).toBe(`raffle-sdk-js/${SDK_VERSION} deno/2.0.0`);
  });

  it('names the version package.json has', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(manifest.version);
  });
});
