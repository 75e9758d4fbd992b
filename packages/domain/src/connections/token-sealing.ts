import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SocialProvider } from '@raffle/social';

const SEALED_PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Which value is sealed, and whose: a sealed value opens only for the same user, provider and field. */
export type SealedField = 'access_token' | 'refresh_token' | 'code_verifier';
export type SealBinding = { userId: string; provider: SocialProvider; field: SealedField };

export type ConnectionTokenSealing = {
  seal(value: string, binding: SealBinding): string;
  /** Throws when the value was not sealed under this key for this binding (a row copied to another user, a swapped column, another key). */
  open(sealed: string, binding: SealBinding): string;
};

/**
 * OAuth tokens and PKCE verifiers at rest: AES-256-GCM under a key derived (HKDF, its own label)
 * from CONNECTION_TOKEN_KEY, with the user, the provider and the column as additional data, so a
 * leaked table opens nothing and a sealed value moved to another row fails its tag. Every
 * instance of both services needs the same key; changing it ends every link (users link again).
 */
export function createConnectionTokenSealing(secret: string): ConnectionTokenSealing {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'raffle connection tokens v1', 32));
  const aad = (binding: SealBinding) => Buffer.from(`${binding.field}\u0000${binding.provider}\u0000${binding.userId}`);

  return {
    seal(value, binding) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(binding));
      const sealed = Buffer.concat([iv, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return SEALED_PREFIX + sealed.toString('base64');
    },
    open(stored, binding) {
      if (!stored.startsWith(SEALED_PREFIX)) throw new Error('the value is not sealed');
      const sealed = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
      if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('the sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES)).setAAD(aad(binding));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
