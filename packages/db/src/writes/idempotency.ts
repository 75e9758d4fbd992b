import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { idempotencyRecords } from '../schema/idempotency.js';

export type IdempotentResponse = { apiKeyId: string; key: string; status: number; body: string };

/**
 * Stores the response of the request holding an `Idempotency-Key`. Called inside the
 * transaction of the change it answers, the change and its saved response commit together: a
 * crash between the two can no longer leave an entry whose retry is told `ALREADY_ENTERED`.
 */
export async function completeIdempotentRequest(tx: DbOrTx, response: IdempotentResponse): Promise<void> {
  await tx
    .update(idempotencyRecords)
    .set({ state: 'completed', responseStatus: response.status, responseBody: response.body })
    .where(and(eq(idempotencyRecords.apiKeyId, response.apiKeyId), eq(idempotencyRecords.key, response.key), eq(idempotencyRecords.state, 'in_progress')));
}
