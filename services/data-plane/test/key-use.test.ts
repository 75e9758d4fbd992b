import { hashApiKey } from '@raffle/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyUseRecorder } from '../src/plugins/key-use-recorder.js';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let db: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
});
afterAll(async () => {
  await db?.drop();
});

async function lastUsedOf(apiKey: string): Promise<Date | null> {
  const [row] = await db.database.sql<{ last_used_at: Date | string | null }[]>`select last_used_at from api_keys where key_hash = ${hashApiKey(apiKey)}`;
  return row!.last_used_at === null ? null : new Date(row!.last_used_at);
}
async function keyIdOf(apiKey: string): Promise<string> {
  const [row] = await db.database.sql<{ id: string }[]>`select id from api_keys where key_hash = ${hashApiKey(apiKey)}`;
  return row!.id;
}

describe("keys' lastUsedAt", () => {
  it('is written for every key a request used, by the time the data plane has closed', async () => {
    const used = [tenant.keys.personalWithout['wins:read']!, tenant.keys.personalWithout['entries:read']!];
    for (const key of used) expect(await lastUsedOf(key)).toBeNull();
    const app = await buildTestApp(db.database, db.url);
    for (const key of used) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await app.close();
    for (const key of used) expect(await lastUsedOf(key)).toBeInstanceOf(Date);
    // A key this run never presented stays unused.
    expect(await lastUsedOf(tenant.keys.personalWithout['raffles:read']!)).toBeNull();
  });

  it('batches the uses noted between flushes into one statement, and notes a key again only after a minute', async () => {
    const statements: string[] = [];
    const sql = new Proxy(db.database.sql, {
      apply(target, self, args) {
        statements.push(String((args[0] as TemplateStringsArray).join('?')));
        return Reflect.apply(target, self, args);
      },
    });
    let now = Date.parse('2026-11-27T12:00:00Z');
    const recorder = createKeyUseRecorder({ sql, flushIntervalMs: 3_600_000, now: () => now });
    const keys = [tenant.keys.personalWithout['profile:read']!, tenant.keys.personalWithout['entries:write']!, tenant.keys.workspaceWithout['projects:read']!];
    const ids = await Promise.all(keys.map(keyIdOf));
    for (const id of [...ids, ...ids]) recorder.note(id);
    await recorder.flush();
    expect(statements.filter((s) => s.includes('update api_keys'))).toHaveLength(1);
    for (const key of keys) expect(await lastUsedOf(key)).toBeInstanceOf(Date);

    statements.length = 0;
    now += 30_000;
    recorder.note(ids[0]!);
    await recorder.flush();
    expect(statements).toEqual([]);
    now += 60_000;
    recorder.note(ids[0]!);
    await recorder.close();
    expect(statements.filter((s) => s.includes('update api_keys'))).toHaveLength(1);
  });
});
