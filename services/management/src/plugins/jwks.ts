import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/** The only algorithms a JWKS-verified token may use: never HS*, so HS/RS confusion cannot happen. */
export const JWKS_ALGORITHMS = ['RS256', 'ES256'] as const;
export type JwksAlgorithm = (typeof JWKS_ALGORITHMS)[number];

export const isJwksAlgorithm = (alg: unknown): alg is JwksAlgorithm =>
  typeof alg === 'string' && (JWKS_ALGORITHMS as readonly string[]).includes(alg);

/** After a successful fetch, at most one more per this interval, whatever triggers it (unknown kids included). */
export const JWKS_MIN_REFETCH_INTERVAL_MS = 30_000;
/** After a failed fetch, the next may start this long after it: doubled per failure in a row, up to the refetch interval. */
export const JWKS_RETRY_BASE_MS = 250;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_JWKS_BYTES = 512 * 1024;
const MAX_KID_LENGTH = 256;
const MIN_RSA_MODULUS_BITS = 2048;
/**
 * What fetch's cause says when the connection closed under the request: typically a pooled
 * keep-alive connection the server closed as the request went out, which undici's fetch can hand
 * out (nodejs/undici#3492). Worth one immediate retry on a new connection.
 */
const CLOSED_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export type JwksKeyStoreOptions = {
  url: string;
  /** How long a fetched key set is used before it is fetched again. */
  cacheTtlMs: number;
  log: FastifyBaseLogger;
  minRefetchIntervalMs?: number;
  /** The first wait after a failed fetch; see JWKS_RETRY_BASE_MS. */
  retryBaseMs?: number;
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
 * key callback must return). A key set is used for `cacheTtlMs`, then fetched again before a
 * lookup is answered; an unknown `kid` triggers a refetch too. Concurrent lookups share one fetch.
 *
 * - After a successful fetch, the next one (of any cause) waits at least `minRefetchIntervalMs`,
 *   so a stream of made-up kids cannot make us hammer the JWKS endpoint.
 * - After a failed one (unreachable, timed out, not 2xx, not a key set), the next may start after
 *   a short backoff: `retryBaseMs` (250 ms), doubled per failure in a row, up to
 *   `minRefetchIntervalMs`. A blip costs about a quarter of a second, not the refetch interval. A
 *   connection closed under the request is retried at once, within the same fetch.
 * - A failed fetch keeps the last good key set, stale or not: keys already known stay valid until
 *   a successful fetch no longer lists them (a key removed from the JWKS stops working once the TTL
 *   has passed and the JWKS has been fetched again).
 *
 * Failures log one warning when they start (and one per attempt once the backoff has reached the
 * refetch interval), the retries between at debug, and one info line when a fetch succeeds again.
 * Lookups never throw anything but a JwksKeyError.
 */
export class JwksKeyStore {
  private keys = new Map<string, Map<JwksAlgorithm, string>>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  /** When the next fetch may start: set after each fetch, by its outcome. */
  private nextAttemptAt = Number.NEGATIVE_INFINITY;
  private failuresInARow = 0;
  private inFlight: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly minRefetchIntervalMs: number;
  private readonly retryBaseMs: number;
  private readonly timeoutMs: number;
  /** The URL without credentials, query or fragment: what logs may show. */
  private readonly displayUrl: string;

  constructor(private readonly options: JwksKeyStoreOptions) {
    this.now = options.now ?? (() => Date.now());
    this.minRefetchIntervalMs = options.minRefetchIntervalMs ?? JWKS_MIN_REFETCH_INTERVAL_MS;
    this.retryBaseMs = Math.min(options.retryBaseMs ?? JWKS_RETRY_BASE_MS, this.minRefetchIntervalMs);
    this.timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
    const url = new URL(options.url);
    this.displayUrl = `${url.origin}${url.pathname}`;
  }

  /**
   * The PEM of key `kid` for `alg`. Fetches the key set first when it is stale or lacks that kid
   * (unless a fetch is not due yet); when that fetch fails, the last good key set answers.
   */
  async publicKeyPem(kid: string, alg: JwksAlgorithm): Promise<string> {
    if (kid.length === 0 || kid.length > MAX_KID_LENGTH) throw new JwksKeyError('invalid kid');
    if (this.isFresh()) {
      const cached = this.lookup(kid, alg);
      if (cached) return cached;
    }
    await this.refresh();
    const found = this.lookup(kid, alg);
    if (!found) throw new JwksKeyError('no usable key with that kid and algorithm');
    return found;
  }

  /** Fetches the key set unless the last fetch's outcome says to wait (see the class); joins one in flight. */
  refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.now() < this.nextAttemptAt) return Promise.resolve();
    this.inFlight = this.fetchKeys().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private isFresh(): boolean {
    return this.now() - this.fetchedAt < this.options.cacheTtlMs;
  }

  private lookup(kid: string, alg: JwksAlgorithm): string | undefined {
    return this.keys.get(kid)?.get(alg);
  }

  private async fetchKeys(): Promise<void> {
    const startedAt = this.now();
    let keys: Map<string, Map<JwksAlgorithm, string>> | null;
    try {
      keys = parseKeySet(await this.fetchDocument(), this.options.log);
      if (!keys) throw new Error('not a JSON Web Key Set ({"keys": [...]})');
    } catch (error) {
      this.failed(error instanceof Error ? error.message : String(error));
      return;
    }
    this.keys = keys;
    this.fetchedAt = this.now();
    this.nextAttemptAt = startedAt + this.minRefetchIntervalMs;
    if (this.failuresInARow > 0) {
      this.options.log.info({ jwksUrl: this.displayUrl, failedAttempts: this.failuresInARow }, 'JWKS fetched again after failed attempts');
    }
    this.failuresInARow = 0;
    this.options.log.debug({ jwksUrl: this.displayUrl, keys: [...keys.keys()] }, 'JWKS fetched');
  }

  /** The response body, parsed; one immediate retry when the connection closed under the request. */
  private async fetchDocument(): Promise<unknown> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.get(signal);
    } catch (error) {
      if (!closedConnection(error)) throw error;
      this.options.log.debug({ jwksUrl: this.displayUrl }, 'JWKS connection closed under the request; retrying at once');
      response = await this.get(signal);
    }
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
    return JSON.parse(text);
  }

  private get(signal: AbortSignal): Promise<Response> {
    return fetch(this.options.url, {
      headers: { accept: 'application/jwk-set+json, application/json' },
      redirect: 'error',
      signal,
    });
  }

  /** Schedules the retry after a failed fetch and logs it; the key set in use stays. */
  private failed(reason: string): void {
    this.failuresInARow += 1;
    const retryInMs = Math.min(this.retryBaseMs * 2 ** Math.min(this.failuresInARow - 1, 30), this.minRefetchIntervalMs);
    this.nextAttemptAt = this.now() + retryInMs;
    const known = Number.isFinite(this.fetchedAt);
    const fields = { jwksUrl: this.displayUrl, reason, failedAttempts: this.failuresInARow, retryInMs, keysInUse: this.keys.size };
    const message = known
      ? 'could not fetch the JWKS; the keys fetched before stay in use, and tokens signed by any other key are refused until it is reachable'
      : 'could not fetch the JWKS; dashboard tokens cannot be verified until it is reachable';
    if (this.failuresInARow === 1 || retryInMs >= this.minRefetchIntervalMs) this.options.log.warn(fields, message);
    else this.options.log.debug(fields, message);
  }
}

function closedConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return error instanceof TypeError && typeof code === 'string' && CLOSED_CONNECTION_CODES.has(code);
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
