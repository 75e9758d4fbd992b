import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, signWebhook } from '../src/index.js';

const body = JSON.stringify({ type: 'entry.created', timestamp: '2025-01-01T00:00:00.000Z', data: { id: 'ent_1', note: 'ünïcødé ✓' } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhook secrets', () => {
  it('generates whsec_ + base64 of 32 random bytes, all different', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
      expect(isWebhookSecret(secret)).toBe(true);
    }
  });

  it('refuses malformed or short secrets', () => {
    const secret = generateWebhookSecret();
    for (const bad of ['', 'whsec_', secret.slice(6), `whsk_${secret.slice(6)}`, `${secret}!`, secret.slice(0, -2), `whsec_${Buffer.alloc(16).toString('base64')}`]) {
      expect(isWebhookSecret(bad), bad).toBe(false);
    }
    expect(isWebhookSecret(`whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toBe(true);
  });
});

describe('signWebhook (verified by the standardwebhooks package)', () => {
  it('produces headers the reference verifier accepts', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ secrets: [secret], id: 'evt_01J', timestampSeconds: nowSeconds(), body });
    expect(headers['webhook-id']).toBe('evt_01J');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs with every secret during rotation: current and old both verify, a stranger does not', () => {
    const current = generateWebhookSecret();
    const old = generateWebhookSecret();
    const headers = signWebhook({ secrets: [current, old], id: 'evt_rot', timestampSeconds: nowSeconds(), body });
    const parts = headers['webhook-signature'].split(' ');
    expect(parts).toHaveLength(2);
    expect(parts.every((part) => part.startsWith('v1,'))).toBe(true);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
    // The current secret's signature comes first.
    expect(signWebhook({ secrets: [current], id: 'evt_rot', timestampSeconds: Number(headers['webhook-timestamp']), body })['webhook-signature']).toBe(parts[0]);
  });

  it('fails verification for a wrong secret or a tampered body', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ secrets: [secret], id: 'evt_x', timestampSeconds: nowSeconds(), body });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('ent_1', 'ent_2'), headers)).toThrow();
  });

  it('re-signs a retry with a later timestamp: same webhook-id, different signature, still valid', () => {
    const secret = generateWebhookSecret();
    const first = signWebhook({ secrets: [secret], id: 'evt_retry', timestampSeconds: nowSeconds() - 60, body });
    const retry = signWebhook({ secrets: [secret], id: 'evt_retry', timestampSeconds: nowSeconds(), body });
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
    expect(() => new Webhook(secret).verify(body, retry)).not.toThrow();
  });

  it('matches a hand-computed Standard Webhooks signature', () => {
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const headers = signWebhook({ secrets: [secret], id: 'msg_1', timestampSeconds: 1_700_000_000, body: '{}' });
    const expected = new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{}');
    expect(headers).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': expected });
  });

  it('refuses programming errors: no secret, a malformed secret, a fractional timestamp', () => {
    const secret = generateWebhookSecret();
    expect(() => signWebhook({ secrets: [], id: 'a', timestampSeconds: 1, body })).toThrow();
    expect(() => signWebhook({ secrets: ['nope'], id: 'a', timestampSeconds: 1, body })).toThrow();
    expect(() => signWebhook({ secrets: [secret], id: 'a', timestampSeconds: 1.5, body })).toThrow();
    expect(() => signWebhook({ secrets: [secret], id: 'a b', timestampSeconds: 1, body })).toThrow();
  });
});
