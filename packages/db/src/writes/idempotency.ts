import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client.js';
import { idempotentResponseStatement, type IdempotentResponse } from './idempotent-response-statement.js';

export type { IdempotentResponse };

/**
 * Stores the response of the request holding an `Idempotency-Key`. Called inside the
 * transaction of the change it answers, the change and its saved response commit together: a
 * crash between the two can no longer leave an entry whose retry is told `ALREADY_ENTERED`.
 * The same statement as `storeIdempotentResponse`, run on the drizzle transaction, without its
 * claim token: the change commits, so its answer is the one to replay (see the statement).
 */
export async function completeIdempotentRequest(tx: DbOrTx, response: IdempotentResponse): Promise<void> {
  await tx.execute(idempotentResponseStatement(sql, response));
}
