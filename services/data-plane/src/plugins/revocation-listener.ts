import { API_KEY_REVOKED_SUBJECT, type ApiKeyRevokedMessage } from '@raffle/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiKeysOf } from '../decorations.js';

/**
 * Drops a key from this instance's verification cache the moment management revokes it (or
 * changes its expiry), so revocation does not wait for the cache to expire. Without NATS the
 * cache's short TTL (API_KEY_CACHE_TTL_MS) still bounds the delay.
 */
async function revocationListenerPlugin(app: FastifyInstance) {
  const apiKeys = apiKeysOf(app);
  app.nats.whenConnected((connection) => {
    const subscription = connection.subscribe(API_KEY_REVOKED_SUBJECT);
    void (async () => {
      for await (const message of subscription) {
        try {
          const { keyId } = message.json<ApiKeyRevokedMessage>();
          if (typeof keyId === 'string') apiKeys.evict(keyId);
        } catch {
          app.log.warn('ignored a malformed key revocation message');
        }
      }
    })();
  });
}

export default fp(revocationListenerPlugin, { name: 'revocation-listener', dependencies: ['nats', 'auth'] });
