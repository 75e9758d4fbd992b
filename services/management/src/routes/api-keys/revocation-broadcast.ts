import { API_KEY_REVOKED_SUBJECT, type ApiKeyRevokedMessage } from '@raffle/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Tells every data-plane instance to forget a key (its revocation listener evicts it). Best
 * effort: the data plane's 1 s verification cache bounds revocation delay without it, so NATS
 * being down only loses the speed-up.
 */
export function broadcastRevocation(app: FastifyInstance, keyId: string): void {
  try {
    app.nats.connection()?.publish(API_KEY_REVOKED_SUBJECT, JSON.stringify({ keyId } satisfies ApiKeyRevokedMessage));
  } catch (error) {
    app.log.warn({ reason: (error as Error).message, keyId }, 'revocation broadcast failed');
  }
}
