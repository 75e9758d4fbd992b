import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { dashboardRaffles, uniqueSlug, type DashboardRaffles } from './support/dashboard-raffles.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Issue 34, the slug oracle (decision 0042): a hidden raffle's slug reads 404 to a non-member, yet
 * publishing it elsewhere answered "a published raffle already uses this slug". A held slug is
 * still refused (slugs are global), with one answer whoever holds it, and publishes have a budget.
 */

const PUBLISH_MAX = 4;
let testDb: TestDatabase;
let app: ManagementApp;
let tenant: Tenant;
let holder: DashboardRaffles;
let prober: DashboardRaffles;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { RATE_LIMIT_RAFFLE_PUBLISH_MAX: String(PUBLISH_MAX) });
  tenant = await seedTenant(testDb.database);
  holder = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.owner.id);
  // Another workspace's owner: not a member of the holder's workspace.
  prober = dashboardRaffles(app, testDb.database, tenant.otherWorkspace.id, tenant.outsider.id);
});
afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

/** The prober's publish of a draft named `slug`: the refusal's message. */
async function refusalFor(slug: string): Promise<string> {
  const draft = await prober.draft({ slug });
  return expectManagementError(await prober.attempt(draft.id, 'publish'), 409).message as string;
}

describe('publishing a slug held elsewhere', () => {
  it('is refused with one answer whether a public, unlisted, private or cancelled raffle holds it, naming none', async () => {
    const held = {
      public: (await holder.open({ slug: uniqueSlug('pub'), visibility: 'public' })).slug,
      unlisted: (await holder.open({ slug: uniqueSlug('unl'), visibility: 'unlisted' })).slug,
      private: (await holder.open({ slug: uniqueSlug('prv'), visibility: 'private' })).slug,
      cancelled: (await holder.ok((await holder.open({ slug: uniqueSlug('cnl'), visibility: 'private' })).id, 'cancel')).slug,
    };
    // The private one is hidden from the prober...
    expect(expectManagementError(await prober.enter(held.private, tenant.outsider.id), 404).message).toMatch(/^RAFFLE_NOT_FOUND: /);
    // ...and its slug's refusal is word for word the public one's, and says nothing of a raffle.
    const messages = [];
    for (const slug of Object.values(held)) messages.push(await refusalFor(slug));
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toBe('SLUG_TAKEN: this slug is not available; choose another before publishing');
  });
});

describe('the raffle-publish budget', () => {
  it('answers a publish past RATE_LIMIT_RAFFLE_PUBLISH_MAX in a window 429, refused or not; another user keeps theirs', async () => {
    // The first test spent the prober's budget on its four refusals: the next publish, of a free slug, is refused 429.
    const draft = await prober.draft({ slug: uniqueSlug('free') });
    const res = await prober.attempt(draft.id, 'publish');
    expect(expectManagementError(res, 429).message).toMatch(/^RATE_LIMITED: the "raffle-publish" limit of 4 requests per window/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The holder published four raffles and cancelled one: their own budget, now spent too, is theirs alone.
    const other = dashboardRaffles(app, testDb.database, tenant.workspace.id, tenant.admin.id);
    expect((await other.attempt((await other.draft()).id, 'publish')).statusCode).toBe(200);
  });
});
