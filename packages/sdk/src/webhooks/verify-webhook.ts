import { base64Decode, constantTimeEqual, utf8Decode, utf8Encode } from '../crypto/encoding.js';
import { hmacSha256 } from '../crypto/hash.js';
import { isWebhookEventType, type WebhookEvent } from './webhook-event.js';
import { readSignedHeaders, type WebhookHeaders } from './webhook-headers.js';
import { webhookSecretKeys } from './webhook-secrets.js';
import { WebhookVerificationError } from './webhook-verification-error.js';

export type VerifyWebhookOptions = {
  /**
   * How far `webhook-timestamp` may be from now, either way, in seconds. Default 300. A finite
   * number, 0 or more: anything else (NaN, Infinity, a negative) throws a RangeError, since NaN or
   * Infinity would switch the replay check off.
   */
  toleranceSeconds?: number;
  /** The current time (a Date or epoch milliseconds); for tests and replays. */
  now?: () => Date | number;
};

const DEFAULT_TOLERANCE_SECONDS = 300;
const SIGNATURE_ENTRY = /^(v[0-9]+),([A-Za-z0-9+/]+={0,2})$/;

/**
 * Checks a webhook POST the Standard Webhooks way and returns its event, typed by `type`.
 * Pass the body exactly as received (parsing and re-serialising JSON changes the bytes), every
 * header, and the endpoint's secret — or its current and previous secret while rotating; any of
 * them may match. Throws WebhookVerificationError (with a `reason`) for anything else.
 * Synchronous and free of Node-only imports, so it runs in browsers and edge runtimes too.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  // Before the request is looked at: a misconfigured check must fail every call, not pass some.
  const tolerance = toleranceOf(options);
  const signed = readSignedHeaders(headers);
  const keys = webhookSecretKeys(secret);
  checkTimestamp(signed.timestamp, tolerance, options);

  const body = typeof rawBody === 'string' ? utf8Encode(rawBody) : rawBody;
  const content = concat(utf8Encode(`${signed.id}.${signed.timestamp}.`), body);
  const offered = v1Signatures(signed.signature);
  const matches = keys.some((key) => {
    const expected = hmacSha256(key, content);
    // Every offered signature is compared, in constant time each, whether or not one matched.
    return offered.reduce((found, signature) => constantTimeEqual(signature, expected) || found, false);
  });
  if (!matches) throw new WebhookVerificationError('no_matching_signature', 'no webhook-signature matches the secret');

  return parseEvent(typeof rawBody === 'string' ? rawBody : utf8Decode(rawBody));
}

/** A comparison with NaN is always false: a NaN or infinite tolerance (or clock) would accept any timestamp. */
function toleranceOf(options: VerifyWebhookOptions): number {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`verifyWebhook: toleranceSeconds must be a finite number of seconds, 0 or more (got ${String(tolerance)})`);
  }
  return tolerance;
}

function checkTimestamp(timestamp: string, tolerance: number, options: VerifyWebhookOptions): void {
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not Unix seconds');
  const now = options.now?.() ?? Date.now();
  const nowMs = typeof now === 'number' ? now : now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError(`verifyWebhook: now() must give a valid time (got ${String(now)})`);
  const nowSeconds = Math.floor(nowMs / 1000);
  const sentSeconds = Number(timestamp);
  if (nowSeconds - sentSeconds > tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is ${nowSeconds - sentSeconds} s old (tolerance ${tolerance} s)`);
  }
  if (sentSeconds - nowSeconds > tolerance) {
    throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is ${sentSeconds - nowSeconds} s ahead (tolerance ${tolerance} s)`);
  }
}

/**
 * The decoded `v1` signatures of the header. Entries of other versions are skipped (a later
 * scheme may sit beside v1); a header in which nothing parses at all is malformed.
 */
function v1Signatures(header: string): Uint8Array[] {
  const entries = header.split(' ').filter(Boolean).map((entry) => SIGNATURE_ENTRY.exec(entry));
  if (!entries.some(Boolean)) {
    throw new WebhookVerificationError('malformed_signature_header', 'webhook-signature has no "v1,<base64>" entry');
  }
  return entries.flatMap((entry) => {
    if (!entry || entry[1] !== 'v1') return [];
    const bytes = base64Decode(entry[2]!);
    return bytes ? [bytes] : [];
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Only the envelope is checked: `data` is the server's resource, trusted once the signature is. */
function parseEvent(body: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'the body is not JSON');
  }
  const envelope = event as { type?: unknown; timestamp?: unknown; data?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new WebhookVerificationError('invalid_payload', 'the body is not a JSON object');
  }
  if (!isWebhookEventType(envelope.type)) throw new WebhookVerificationError('invalid_payload', `unknown event type ${JSON.stringify(envelope.type)}`);
  if (typeof envelope.timestamp !== 'string' || typeof envelope.data !== 'object' || envelope.data === null) {
    throw new WebhookVerificationError('invalid_payload', 'the event has no timestamp or data');
  }
  return event as WebhookEvent;
}
