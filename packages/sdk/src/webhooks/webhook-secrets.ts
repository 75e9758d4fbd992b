import { base64Decode } from '../crypto/encoding.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC keys of the given secrets: each `whsec_<base64>` as the dashboard shows it, or the
 * base64 part alone (how some secret stores keep it). A secret that decodes to nothing is a
 * configuration mistake, reported as such rather than as a signature mismatch.
 */
export function webhookSecretKeys(secret: string | readonly string[]): Uint8Array[] {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0) throw new WebhookVerificationError('invalid_secret', 'no webhook secret was given');
  return secrets.map((value, index) => {
    const encoded = typeof value === 'string' && value.startsWith(SECRET_PREFIX) ? value.slice(SECRET_PREFIX.length) : value;
    const key = typeof encoded === 'string' ? base64Decode(encoded) : null;
    if (!key || key.length === 0) {
      throw new WebhookVerificationError('invalid_secret', `webhook secret #${index + 1} is not "whsec_" followed by base64`);
    }
    return key;
  });
}
