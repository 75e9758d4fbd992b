import { createHmac, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventData, type WebhookVerificationFailure } from '../src/webhooks/index.js';

/**
 * verifyWebhook against signatures made here with node:crypto, an implementation independent of
 * the SDK's; services/webhook-dispatcher/test/sdk-verify-webhook.test.ts checks it against what
 * the real dispatcher sends.
 */
const secretBytes = randomBytes(32);
const secret = `whsec_${secretBytes.toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const nowSeconds = NOW / 1000;
const now = () => NOW;

const sign = (key: Buffer, id: string, timestamp: string | number, body: string | Uint8Array) =>
  `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;

const body = JSON.stringify({
  type: 'webhook.test',
  timestamp: '2026-01-01T11:59:59.000Z',
  data: { endpointId: 'whe_1', message: 'Ünïcode ✓' },
});

function headersFor(payload: string | Uint8Array = body, timestamp: number = nowSeconds, id = 'evt_01TEST') {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secretBytes, id, timestamp, payload) };
}

function reasonOf(run: () => unknown): WebhookVerificationFailure | 'no error' {
  try {
    run();
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).name).toBe('WebhookVerificationError');
    return (error as WebhookVerificationError).reason;
  }
}

describe('verifyWebhook accepts', () => {
  it('a correctly signed body, returning the parsed event', () => {
    expect(verifyWebhook(body, headersFor(), secret, { now })).toEqual(JSON.parse(body));
  });

  it('the body as bytes, headers as fetch Headers or with any name case, and a Date clock', () => {
    const bytes = new TextEncoder().encode(body);
    const headers = new Headers(headersFor());
    expect(verifyWebhook(bytes, headers, secret, { now: () => new Date(NOW) }).type).toBe('webhook.test');
    const shouted = Object.fromEntries(Object.entries(headersFor()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(body, shouted, secret, { now }).type).toBe('webhook.test');
  });

  it('the secret as plain base64 (without whsec_)', () => {
    expect(verifyWebhook(body, headersFor(), secretBytes.toString('base64'), { now }).type).toBe('webhook.test');
  });

  it('several signatures (a rotation) when any one matches, and unknown versions beside v1', () => {
    const headers = headersFor();
    const other = sign(randomBytes(32), headers['webhook-id'], headers['webhook-timestamp'], body);
    const signature = `v2,${randomBytes(32).toString('base64')} ${other} ${headers['webhook-signature']}`;
    expect(verifyWebhook(body, { ...headers, 'webhook-signature': signature }, secret, { now }).type).toBe('webhook.test');
    // A repeated header arrives as a list in Node: its signatures are pooled.
    expect(verifyWebhook(body, { ...headers, 'webhook-signature': [other, headers['webhook-signature']] }, secret, { now }).type).toBe('webhook.test');
  });

  it('several secrets, the matching one second', () => {
    expect(verifyWebhook(body, headersFor(), [otherSecret, secret], { now }).type).toBe('webhook.test');
  });

  it('a timestamp at the edges of the tolerance, both ways', () => {
    expect(reasonOf(() => verifyWebhook(body, headersFor(body, nowSeconds - 300), secret, { now }))).toBe('no error');
    expect(reasonOf(() => verifyWebhook(body, headersFor(body, nowSeconds + 300), secret, { now }))).toBe('no error');
    expect(reasonOf(() => verifyWebhook(body, headersFor(body, nowSeconds - 1000), secret, { now, toleranceSeconds: 1000 }))).toBe('no error');
  });

  it('with the real clock by default', () => {
    const current = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, headersFor(body, current), secret).type).toBe('webhook.test');
  });
});

describe('verifyWebhook refuses, with a reason', () => {
  const cases: Array<[string, () => unknown, WebhookVerificationFailure]> = [
    ['a tampered body', () => verifyWebhook(body.replace('whe_1', 'whe_2'), headersFor(), secret, { now }), 'no_matching_signature'],
    ['a wrong secret', () => verifyWebhook(body, headersFor(), otherSecret, { now }), 'no_matching_signature'],
    ['a signature of another id', () => verifyWebhook(body, { ...headersFor(), 'webhook-id': 'evt_OTHER' }, secret, { now }), 'no_matching_signature'],
    ['a replayed signature with a new timestamp', () => verifyWebhook(body, { ...headersFor(), 'webhook-timestamp': String(nowSeconds + 1) }, secret, { now }), 'no_matching_signature'],
    ['only a signature of an unknown version', () => verifyWebhook(body, { ...headersFor(), 'webhook-signature': `v2,${headersFor()['webhook-signature'].slice(3)}` }, secret, { now }), 'no_matching_signature'],
    ['a timestamp too old', () => verifyWebhook(body, headersFor(body, nowSeconds - 301), secret, { now }), 'timestamp_too_old'],
    ['a timestamp too new', () => verifyWebhook(body, headersFor(body, nowSeconds + 301), secret, { now }), 'timestamp_too_new'],
    ['a timestamp that is not seconds', () => verifyWebhook(body, { ...headersFor(), 'webhook-timestamp': '2026-01-01T12:00:00Z' }, secret, { now }), 'invalid_timestamp'],
    ['a negative timestamp', () => verifyWebhook(body, { ...headersFor(), 'webhook-timestamp': '-5' }, secret, { now }), 'invalid_timestamp'],
    ['no webhook-id', () => verifyWebhook(body, { ...headersFor(), 'webhook-id': undefined }, secret, { now }), 'missing_header'],
    ['an empty webhook-timestamp', () => verifyWebhook(body, { ...headersFor(), 'webhook-timestamp': '' }, secret, { now }), 'missing_header'],
    ['no webhook-signature in fetch Headers', () => verifyWebhook(body, new Headers({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(nowSeconds) }), secret, { now }), 'missing_header'],
    ['only svix-* headers', () => verifyWebhook(body, { 'svix-id': 'evt_1', 'svix-timestamp': String(nowSeconds), 'svix-signature': headersFor()['webhook-signature'] }, secret, { now }), 'missing_header'],
    ['two different webhook-ids', () => verifyWebhook(body, { ...headersFor(), 'webhook-id': ['evt_01TEST', 'evt_OTHER'] }, secret, { now }), 'missing_header'],
    ['a signature header without any v1,<base64>', () => verifyWebhook(body, { ...headersFor(), 'webhook-signature': 'garbage' }, secret, { now }), 'malformed_signature_header'],
    ['a signature that is not base64', () => verifyWebhook(body, { ...headersFor(), 'webhook-signature': 'v1,@@@@' }, secret, { now }), 'malformed_signature_header'],
    ['a secret that is not base64', () => verifyWebhook(body, headersFor(), 'whsec_not*base64', { now }), 'invalid_secret'],
    ['an empty secret', () => verifyWebhook(body, headersFor(), 'whsec_', { now }), 'invalid_secret'],
    ['no secret at all', () => verifyWebhook(body, headersFor(), [], { now }), 'invalid_secret'],
  ];
  for (const [name, run, reason] of cases) it(name, () => expect(reasonOf(run)).toBe(reason));

  const signedButWrong: Array<[string, string]> = [
    ['a body that is not JSON', 'not json'],
    ['a JSON array', '[]'],
    ['an unknown event type', JSON.stringify({ type: 'raffle.exploded', timestamp: '2026-01-01T00:00:00Z', data: {} })],
    ['an event without data', JSON.stringify({ type: 'raffle.drawn', timestamp: '2026-01-01T00:00:00Z' })],
    ['an event without timestamp', JSON.stringify({ type: 'raffle.drawn', data: {} })],
  ];
  for (const [name, payload] of signedButWrong) {
    it(`${name}, even correctly signed`, () => expect(reasonOf(() => verifyWebhook(payload, headersFor(payload), secret, { now }))).toBe('invalid_payload'));
  }
});

describe('verifyWebhook refuses a check that would not check', () => {
  // NaN compares false with everything: such a tolerance (or clock) would accept a replay from any time.
  for (const toleranceSeconds of [Number.NaN, Number.POSITIVE_INFINITY, -1, '300' as unknown as number]) {
    it(`toleranceSeconds ${typeof toleranceSeconds === 'string' ? `'${toleranceSeconds}' (a string)` : String(toleranceSeconds)}, even for a request that would pass`, () => {
      expect(() => verifyWebhook(body, headersFor(body, nowSeconds - 10 * 365 * 86_400), secret, { now, toleranceSeconds })).toThrow(RangeError);
      expect(() => verifyWebhook(body, headersFor(), secret, { now, toleranceSeconds })).toThrow(/toleranceSeconds must be a finite number/);
    });
  }

  it('a clock that gives no valid time', () => {
    expect(() => verifyWebhook(body, headersFor(body, 1), secret, { now: () => Number.NaN })).toThrow(RangeError);
    expect(() => verifyWebhook(body, headersFor(body, 1), secret, { now: () => new Date('not a date') })).toThrow(RangeError);
  });
});

describe('types', () => {
  it('narrows data by type', () => {
    const event = verifyWebhook(body, headersFor(), secret, { now }) as WebhookEvent;
    if (event.type === 'webhook.test') expectTypeOf(event.data).toEqualTypeOf<WebhookEventData<'webhook.test'>>();
    if (event.type === 'raffle.drawn') expectTypeOf(event.data.status).toBeString();
    if (event.type === 'winner.selected') expectTypeOf(event.data.identitySnapshot.handle).toBeString();
    expectTypeOf<WebhookEventData<'webhook.test'>>().toEqualTypeOf<{ endpointId: string; message: string }>();
  });
});

describe('browser safety', () => {
  it('imports nothing from node: on the webhook path', async () => {
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
    const files = [...(await readdir(path.join(src, 'webhooks'))).map((f) => path.join(src, 'webhooks', f)), path.join(src, 'crypto/encoding.ts'), path.join(src, 'crypto/hash.ts')];
    // A type-only `typeof import('node:crypto')` is erased from the JavaScript, so it is allowed.
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toMatch(/from ['"]node:|require\(['"]node:|(?<!typeof )import\(['"]node:/);
  });
});
