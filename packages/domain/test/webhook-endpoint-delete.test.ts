import { findWebhookEndpoint, insertWebhookEndpoint, newId, schema } from '@raffle/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteWebhookEndpoint, userPrincipal } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createWorld, type World } from './support/world.js';

let testDb: TestDatabase;
let world: World;

beforeAll(async () => {
  testDb = await createTestDatabase();
  world = await createWorld(testDb.database);
});
afterAll(() => testDb.drop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The dispatcher records an outcome by locking the delivery row and then its endpoint row. A
 * delete that cascaded from the endpoint took the two the other way round: with both in flight
 * Postgres broke the deadlock by failing one of them (a 500 from management, seen in the README
 * run). Both must now complete, one after the other.
 */
it('deletes an endpoint while the dispatcher is recording an outcome for it, without a deadlock', async () => {
  const { db, sql } = testDb.database;
  const user = await world.user();
  const endpointId = newId('webhookEndpoint');
  const deliveryId = newId('webhookDelivery');
  const owner = { kind: 'personal', userId: user.id } as const;
  await insertWebhookEndpoint(db, { id: endpointId, ownerKind: 'personal', userId: user.id, url: 'https://example.com/hook', eventTypes: ['entry.created'], secret: 'whsec_dGVzdA==' });
  await db.insert(schema.webhookDeliveries).values({ id: deliveryId, endpointId, eventId: newId('event'), eventType: 'entry.created', status: 'pending' });

  let deleting: Promise<void> | undefined;
  await sql.begin(async (recorder) => {
    await recorder`update webhook_deliveries set attempt_count = attempt_count + 1 where id = ${deliveryId}`;
    deleting = deleteWebhookEndpoint(db, { owner, actor: userPrincipal(user.id), endpointId });
    await sleep(300); // the delete is now waiting on a lock the recorder holds
    await recorder`update webhook_endpoints set failing_since = now() where id = ${endpointId}`;
  });
  await deleting;

  expect(await findWebhookEndpoint(db, owner, endpointId)).toBeNull();
  expect(await sql`select id from webhook_deliveries where id = ${deliveryId}`).toHaveLength(0);
});
