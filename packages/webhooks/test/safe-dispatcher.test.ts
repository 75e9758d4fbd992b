import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as realLookup } from 'node:dns';
import type { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkEndpointUrl, createDeliveryAgent, generateWebhookSecret, sendWebhook, signWebhook, type AddressPolicy } from '../src/index.js';
import { startSink } from './support/http-sink.js';

type Sink = Awaited<ReturnType<typeof startSink>>;

/** A resolver that answers from a table, honouring `all` like dns.lookup does. */
function fakeLookup(table: Record<string, string[]>, calls: string[] = []): typeof realLookup {
  const lookup = (hostname: string, options: LookupOptions, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    calls.push(hostname);
    const answers = (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (answers.length === 0) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return callback(null, answers);
    return callback(null, answers[0]!.address, answers[0]!.family);
  };
  return lookup as unknown as typeof realLookup;
}

const body = '{"type":"webhook.test","timestamp":"2025-01-01T00:00:00.000Z","data":{}}';
const headers = () => signWebhook({ secrets: [generateWebhookSecret()], id: 'evt_rebind', timestampSeconds: Math.floor(Date.now() / 1000), body });

describe('createDeliveryAgent: connect-time address check', () => {
  let sink: Sink;
  const agents: Agent[] = [];
  const agent = (policy: AddressPolicy, lookup: typeof realLookup) => {
    const created = createDeliveryAgent(policy, { lookup, connectTimeoutMs: 2000 });
    agents.push(created);
    return created;
  };

  beforeEach(async () => {
    sink = await startSink((_req, res) => res.end('ok'));
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.destroy()));
    await sink.close();
  });

  it('refuses a name that rebinds to 127.0.0.1 after passing registration; the server sees nothing', async () => {
    const policy: AddressPolicy = { allowHttp: true, allowedHosts: [] };
    const url = `http://rebind.test:${sink.port}/hook`;
    // Registration saw a public answer...
    expect((await checkEndpointUrl(url, policy, async () => ['93.184.216.34'])).ok).toBe(true);
    // ...the connection resolves again and gets loopback.
    const result = await sendWebhook({ agent: agent(policy, fakeLookup({ 'rebind.test': ['127.0.0.1'] })), url, headers: headers(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'blocked_address', status: null, gone: false });
    expect(sink.requests).toHaveLength(0);
  });

  it('checks every answer, not just the first one', async () => {
    const policy: AddressPolicy = { allowHttp: true, allowedHosts: [] };
    const lookup = fakeLookup({ 'rebind.test': ['93.184.216.34', '127.0.0.1'] });
    const result = await sendWebhook({ agent: agent(policy, lookup), url: `http://rebind.test:${sink.port}/`, headers: headers(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'blocked_address' });
    expect(sink.requests).toHaveLength(0);
  });

  it('refuses IP literals too, which never reach a lookup', async () => {
    const calls: string[] = [];
    const policy: AddressPolicy = { allowHttp: true, allowedHosts: [] };
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433']) {
      const result = await sendWebhook({ agent: agent(policy, fakeLookup({}, calls)), url: `http://${host}:${sink.port}/`, headers: headers(), body });
      expect(result, host).toMatchObject({ kind: 'failure', failureKind: 'blocked_address' });
    }
    expect(calls).toEqual([]);
    expect(sink.requests).toHaveLength(0);
  });

  it('refuses http when the policy does not allow it, even to an allowed address', async () => {
    const policy: AddressPolicy = { allowHttp: false, allowedHosts: ['127.0.0.1'] };
    const result = await sendWebhook({ agent: agent(policy, fakeLookup({})), url: sink.url, headers: headers(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'blocked_address' });
    expect(sink.requests).toHaveLength(0);
  });

  it.each([['127.0.0.1'], ['rebind.test'], ['127.0.0.0/8']])('delivers when allowedHosts lists %s', async (allowed) => {
    const policy: AddressPolicy = { allowHttp: true, allowedHosts: [allowed] };
    const signed = headers();
    const result = await sendWebhook({ agent: agent(policy, fakeLookup({ 'rebind.test': ['127.0.0.1'] })), url: `http://rebind.test:${sink.port}/hook`, headers: signed, body });
    expect(result).toMatchObject({ kind: 'success', status: 200, body: 'ok' });
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]).toMatchObject({ method: 'POST', body });
    expect(sink.requests[0]!.headers).toMatchObject({ ...signed, 'content-type': 'application/json', host: `rebind.test:${sink.port}` });
  });

  it('resolves the name again for every new connection', async () => {
    const calls: string[] = [];
    const policy: AddressPolicy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
    const lookup = fakeLookup({ 'rebind.test': ['127.0.0.1'] }, calls);
    const closing = await startSink((_req, res) => res.setHeader('connection', 'close').end('bye'));
    try {
      const delivery = agent(policy, lookup);
      for (let i = 0; i < 3; i++) {
        const result = await sendWebhook({ agent: delivery, url: `http://rebind.test:${closing.port}/`, headers: headers(), body });
        expect(result.kind).toBe('success');
      }
      expect(calls).toEqual(['rebind.test', 'rebind.test', 'rebind.test']);
    } finally {
      await closing.close();
    }
  });
});
