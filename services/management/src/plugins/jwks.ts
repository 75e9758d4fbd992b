import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/** The only algorithms a JWKS-verified token may use: never HS*, so HS/RS confusion cannot happen. */
export const JWKS_ALGORITHMS = ['RS256', 'ES256'] as const;
export type JwksAlgorithm = (typeof JWKS_ALGORITHMS)[number];

export const isJwksAlgorithm = (alg: unknown): alg is JwksAlgorithm =>
  typeof alg === 'string' && (JWKS_ALGORITHMS as readonly string[]).includes(alg);

/** At most one fetch of the JWKS per this interval, whatever triggers it (unknown kids included). */
export const JWKS_MIN_REFETCH_INTERVAL_MS = 30_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_JWKS_BYTES = 512 * 1024;
const MAX_KID_LENGTH = 256;
const MIN_RSA_MODULUS_BITS = 2048;

export type JwksKeyStoreOptions = {
  url: string;
  /** How long a fetched key set is used before it is fetched again. */
  cacheTtlMs: number;
  log: FastifyBaseLogger;
  minRefetchIntervalMs?: number;
  timeoutMs?: number;
  /** The clock; tests move it to get past the refetch interval. */
  now?: () => number;
};

/** Why a token's key could not be found; every case is answered with the same 401. */
export class JwksKeyError extends Error {
  override name = 'JwksKeyError';
}

/**
 * The public keys of a JWKS URL, by `kid` and algorithm, as SPKI PEM (the form @fastify/jwt's
 * key callback must return). A key set is used for `cacheTtlMs`; an unknown `kid` triggers a
 * refetch, but fetches (successful or not) are at most one per `minRefetchIntervalMs`, so a
 * stream of made-up kids cannot make us hammer the JWKS endpoint. Concurrent lookups share one
 * fetch. A failed fetch logs one warning and fails the lookups waiting on it; it never throws
 * anything but a JwksKeyError.
 */
export class JwksKeyStore {
  private keys = new Map<string, Map<JwksAlgorithm, string>>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly minRefetchIntervalMs: number;
  private readonly timeoutMs: number;
  /** The URL without credentials, query or fragment: what logs may show. */
  private readonly displayUrl: string;

  constructor(private readonly options: JwksKeyStoreOptions) {
    this.now = options.now ?? (() => Date.now());
    this.minRefetchIntervalMs = options.minRefetchIntervalMs ?? JWKS_MIN_REFETCH_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
    const url = new URL(options.url);
    this.displayUrl = `${url.origin}${url.pathname}`;
  }

  /** The PEM of key `kid` for `alg`, fetching the key set when it is stale or lacks that kid. */
  async publicKeyPem(kid: string, alg: JwksAlgorithm): Promise<string> {
    if (kid.length === 0 || kid.length > MAX_KID_LENGTH) throw new JwksKeyError('invalid kid');
    const cached = this.lookup(kid, alg);
    if (cached) return cached;
    await this.refresh();
    const found = this.lookup(kid, alg);
    if (!found) throw new JwksKeyError('no usable key with that kid and algorithm');
    return found;
  }

  /** Fetches the key set unless a fetch was attempted within the refetch interval; joins one in flight. */
  refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const now = this.now();
    if (now - this.lastAttemptAt < this.minRefetchIntervalMs) return Promise.resolve();
    this.lastAttemptAt = now;
    this.inFlight = this.fetchKeys().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private isFresh(): boolean {
    return this.now() - this.fetchedAt < this.options.cacheTtlMs;
  }

  private lookup(kid: string, alg: JwksAlgorithm): string | undefined {
    return this.isFresh() ? this.keys.get(kid)?.get(alg) : undefined;
  }

  private async fetchKeys(): Promise<void> {
    let document: unknown;
    try {
      const response = await fetch(this.options.url, {
        headers: { accept: 'application/jwk-set+json, application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`HTTP ${response.status}`);
      }
      if (Number(response.headers.get('content-length') ?? 0) > MAX_JWKS_BYTES) {
        await response.body?.cancel().catch(() => {});
        throw new Error('the key set is too large');
      }
      const text = await response.text();
      if (text.length > MAX_JWKS_BYTES) throw new Error('the key set is too large');
      document = JSON.parse(text);
    } catch (error) {
      this.options.log.warn(
        { jwksUrl: this.displayUrl, reason: error instanceof Error ? error.message : String(error) },
        'could not fetch the JWKS; dashboard tokens cannot be verified until it is reachable',
      );
      return;
    }
    const keys = parseKeySet(document, this.options.log);
    if (!keys) {
      this.options.log.warn({ jwksUrl: this.displayUrl }, 'the JWKS is not a JSON Web Key Set ({"keys": [...]}); ignored');
      return;
    }
    this.keys = keys;
    this.fetchedAt = this.now();
    this.options.log.debug({ jwksUrl: this.displayUrl, keys: [...keys.keys()] }, 'JWKS fetched');
  }
}

/** Usable signature keys by kid and algorithm; null when `document` is not a key set at all. */
function parseKeySet(document: unknown, log: FastifyBaseLogger): Map<string, Map<JwksAlgorithm, string>> | null {
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { keys?: unknown }).keys)) return null;
  const keys = new Map<string, Map<JwksAlgorithm, string>>();
  for (const jwk of (document as { keys: unknown[] }).keys) {
    const usable = usableKey(jwk);
    if (!usable) {
      log.debug({ kid: (jwk as { kid?: unknown } | null)?.kid }, 'JWKS entry skipped: not an RS256/ES256 signature key');
      continue;
    }
    const byAlg = keys.get(usable.kid) ?? new Map<JwksAlgorithm, string>();
    if (!byAlg.has(usable.alg)) byAlg.set(usable.alg, usable.pem);
    keys.set(usable.kid, byAlg);
  }
  return keys;
}

/** An RSA (≥ 2048 bits, RS256) or P-256 (ES256) signature key with a kid; anything else is skipped. */
function usableKey(jwk: unknown): { kid: string; alg: JwksAlgorithm; pem: string } | null {
  if (typeof jwk !== 'object' || jwk === null) return null;
  const { kid, kty, crv, use, alg, key_ops: keyOps } = jwk as Record<string, unknown>;
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > MAX_KID_LENGTH) return null;
  if (use !== undefined && use !== 'sig') return null;
  if (keyOps !== undefined && !(Array.isArray(keyOps) && keyOps.includes('verify'))) return null;
  const keyAlg: JwksAlgorithm | null = kty === 'RSA' ? 'RS256' : kty === 'EC' && crv === 'P-256' ? 'ES256' : null;
  if (!keyAlg || (alg !== undefined && alg !== keyAlg)) return null;
  try {
    // Only the public members: a key set that (wrongly) publishes a private key still yields its public half.
    const publicJwk: JsonWebKey =
      kty === 'RSA'
        ? { kty, n: (jwk as JsonWebKey).n, e: (jwk as JsonWebKey).e }
        : { kty: 'EC', crv: 'P-256', x: (jwk as JsonWebKey).x, y: (jwk as JsonWebKey).y };
    const key = createPublicKey({ key: publicJwk, format: 'jwk' });
    if (keyAlg === 'RS256' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_MODULUS_BITS) return null;
    return { kid, alg: keyAlg, pem: key.export({ type: 'spki', format: 'pem' }) as string };
  } catch {
    return null;
  }
}
