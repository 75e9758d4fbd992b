import {
  applyDeliveryAttemptResults,
  clearEndpointFailureStreaks,
  disableFailingEndpoint,
  extendEndpointFailureStreaks,
  failPendingDeliveriesOfEndpoint,
  insertDeliveryAttempts,
  type Sql,
} from '@raffle/db';
import type { AttemptOutcome } from './attempt-outcome.js';

/**
 * Writes one batch of outcomes in one transaction: every attempt of the batch, their deliveries,
 * and each endpoint's failure streak (cleared by a success, started by a failure; five days of
 * it, or one 410, disables the endpoint and fails what it still had pending). Outcomes whose
 * delivery is gone (deleted with its endpoint while its POST was in flight) are skipped by the
 * statements themselves. Returns the endpoints it disabled.
 */
export async function writeOutcomeBatch(sql: Sql, batch: readonly AttemptOutcome[], autoDisableAfterMs: number): Promise<string[]> {
  const now = batch[batch.length - 1]!.at;
  // The last outcome per endpoint decides its streak.
  const lastByEndpoint = new Map<string, AttemptOutcome>();
  for (const o of batch) lastByEndpoint.set(o.endpointId, o);
  const recovered = [...lastByEndpoint.values()].filter((o) => o.succeeded).map((o) => o.endpointId);
  const failing = [...lastByEndpoint.values()].filter((o) => !o.succeeded).map((o) => o.endpointId);
  const gone = [...new Set(batch.filter((o) => o.gone).map((o) => o.endpointId))];

  return sql.begin(async (tx) => {
    // Sent together, run in this order: one round trip instead of four while the batch's
    // transaction is open (a failed one aborts the rest, and the recorder decides what follows).
    const [, , , expired] = await Promise.all([
      insertDeliveryAttempts(tx, batch),
      applyDeliveryAttemptResults(tx, batch),
      clearEndpointFailureStreaks(tx, recovered),
      extendEndpointFailureStreaks(tx, {
        endpointIds: failing,
        at: now,
        expiredAt: new Date(now.getTime() - autoDisableAfterMs),
      }),
    ]);
    const toDisable = [
      ...gone.map((id) => ({ id, reason: 'The endpoint answered 410 Gone' })),
      ...expired.filter((id) => !gone.includes(id)).map((id) => ({ id, reason: 'Every delivery failed for 5 days' })),
    ];
    for (const { id, reason } of toDisable) {
      // A disabled endpoint keeps no pending deliveries.
      if (await disableFailingEndpoint(tx, { endpointId: id, reason, at: now })) {
        await failPendingDeliveriesOfEndpoint(tx, { endpointId: id, at: now });
      }
    }
    return toDisable.map((d) => d.id);
  });
}
