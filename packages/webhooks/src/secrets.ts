import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** product.md asks for at least 24 random bytes; shorter keys are refused so a typo cannot weaken signing. */
const MIN_SECRET_BYTES = 24;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isWebhookSecret(value: string): boolean {
  return webhookSecretKey(value) !== null;
}

/** The HMAC key inside a secret, or null when the value is not a well-formed secret. */
export function webhookSecretKey(value: string): Buffer | null {
  if (typeof value !== 'string' || !value.startsWith(SECRET_PREFIX)) return null;
  const encoded = value.slice(SECRET_PREFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  // Node's decoder is lenient; re-encoding catches non-canonical padding bits.
  if (key.toString('base64') !== encoded || key.length < MIN_SECRET_BYTES) return null;
  return key;
}
