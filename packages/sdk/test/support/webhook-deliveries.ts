import { newId, schema, type Database } from '@raffle/db';

/**
 * A failed delivery with one failed attempt, written as the dispatcher would leave it: no
 * dispatcher runs in these tests, and retry, recover and the attempt log need one to exist.
 */
export async function seedFailedDelivery(database: Database, endpointId: string, createdAt = new Date()) {
  const deliveryId = newId('webhookDelivery', createdAt.getTime());
  const eventId = newId('event', createdAt.getTime());
  const attemptId = newId('webhookAttempt', createdAt.getTime());
  await database.db.insert(schema.webhookDeliveries).values({
    id: deliveryId,
    endpointId,
    eventId,
    eventType: 'webhook.test',
    status: 'failed',
    attemptCount: 1,
    nextAttemptAt: null,
    lastAttemptAt: createdAt,
    createdAt,
    updatedAt: createdAt,
  });
  await database.db.insert(schema.webhookDeliveryAttempts).values({
    id: attemptId,
    deliveryId,
    endpointId,
    attemptNumber: 1,
    responseStatus: 503,
    failureKind: 'http_status',
    latencyMs: 120,
    responseBody: 'upstream unavailable',
    createdAt,
  });
  return { deliveryId, eventId, attemptId };
}
