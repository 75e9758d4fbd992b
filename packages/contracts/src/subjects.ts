/**
 * NATS subjects the services share. Management publishes `{ keyId }` here when a key is
 * revoked or its expiry changes; every data-plane instance drops that key from its cache.
 */
export const API_KEY_REVOKED_SUBJECT = 'raffle.api-keys.revoked';
export type ApiKeyRevokedMessage = { keyId: string };
