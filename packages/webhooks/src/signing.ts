import { createHmac } from 'node:crypto';
import { webhookSecretKey } from './secrets.js';

export type SignedHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/**
 * Signs with every secret given (current first, then a rotated-out one still inside its 24 h): "v1,<a> v1,<b>".
 * Standard Webhooks: base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the decoded secret.
 * Throws on a malformed secret or timestamp: those are programming errors, not delivery failures.
 */
export function signWebhook(args: { secrets: readonly string[]; id: string; timestampSeconds: number; body: string }): SignedHeaders {
  const { secrets, id, timestampSeconds, body } = args;
  if (secrets.length === 0) throw new TypeError('signWebhook needs at least one secret');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new TypeError('timestampSeconds must be a whole number of Unix seconds');
  }
  // Receivers split the header on spaces and ids on nothing, so neither may hide a separator.
  if (id.length === 0 || /\s/.test(id)) throw new TypeError('webhook id must be non-empty without whitespace');
  const timestamp = String(timestampSeconds);
  const content = `${id}.${timestamp}.${body}`;
  const signatures = secrets.map((secret) => {
    const key = webhookSecretKey(secret);
    if (!key) throw new TypeError('not a webhook secret (whsec_ + base64)');
    return `v1,${createHmac('sha256', key).update(content, 'utf8').digest('base64')}`;
  });
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
