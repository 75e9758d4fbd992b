import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryAgent, generateWebhookSecret, sendWebhook, signWebhook, type AddressPolicy } from '../src/index.js';
import { startSink, unusedPort } from './support/http-sink.js';

const local: AddressPolicy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
const body = JSON.stringify({ type: 'webhook.test', timestamp: '2025-01-01T00:00:00.000Z', data: {} });
const secret = generateWebhookSecret();
const signed = () => signWebhook({ secrets: [secret], id: 'evt_send', timestampSeconds: Math.floor(Date.now() / 1000), body });

describe('sendWebhook', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  const agent = (): Agent => {
    const created = createDeliveryAgent(local, { connectTimeoutMs: 2000 });
    cleanups.push(() => created.destroy());
    return created;
  };
  const sink = async (handler: Parameters<typeof startSink>[0]) => {
    const started = await startSink(handler);
    cleanups.push(started.close);
    return started;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('2xx is success, with the signed request the receiver can verify and the body captured', async () => {
    const server = await sink((_req, res) => res.writeHead(202).end('{"received":true}'));
    const headers = signed();
    const result = await sendWebhook({ agent: agent(), url: server.url, headers, body });
    expect(result).toMatchObject({ kind: 'success', status: 202, body: '{"received":true}' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/hook', body });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/Raffle-Webhooks/);
    expect(() => new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).not.toThrow();
  });

  it('keeps at most 1024 bytes of a 2xx body, never cutting a character in half', async () => {
    const server = await sink((_req, res) => res.end('é'.repeat(2000)));
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body });
    expect(result.kind).toBe('success');
    expect(result.body).toBe('é'.repeat(512));
  });

  it('302 is a redirect failure and is not followed', async () => {
    const server = await sink((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end('moved'));
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'redirect', status: 302, body: 'moved', gone: false });
    expect(server.requests.map((r) => r.url)).toEqual(['/hook']);
  });

  it('410 is an http_status failure marked gone', async () => {
    const server = await sink((_req, res) => res.writeHead(410).end('endpoint removed'));
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'http_status', status: 410, body: 'endpoint removed', gone: true });
  });

  it('500 is an http_status failure, not gone', async () => {
    const server = await sink((_req, res) => res.writeHead(500).end('boom'));
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'http_status', status: 500, body: 'boom', gone: false });
  });

  it('a server that never answers is a timeout within the configured time', async () => {
    const server = await sink(() => {});
    const started = Date.now();
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body, timeoutMs: 300 });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'timeout', status: null, body: null });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.latencyMs).toBeGreaterThanOrEqual(250);
  });

  it('a refused connection is a network failure', async () => {
    const port = await unusedPort();
    const result = await sendWebhook({ agent: agent(), url: `http://127.0.0.1:${port}/`, headers: signed(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'network', status: null, body: null, gone: false });
  });

  it('never throws, even for a URL undici cannot use', async () => {
    const result = await sendWebhook({ agent: agent(), url: 'not a url', headers: signed(), body });
    expect(result).toMatchObject({ kind: 'failure', failureKind: 'network' });
  });

  it('uses the injected clock for latency', async () => {
    const server = await sink((_req, res) => res.end());
    let tick = 1000;
    const result = await sendWebhook({ agent: agent(), url: server.url, headers: signed(), body, now: () => (tick += 40) });
    expect(result).toEqual({ kind: 'success', status: 200, body: '', latencyMs: 40 });
  });

  it('stops reading a 100 MB body after 1 KB: prompt, bounded memory, the server sees the stream cut', async () => {
    const total = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let cut = false;
    // Written with back-pressure so the server, which shares this process, does not buffer 100 MB itself.
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-length': String(total) });
      res.on('close', () => {
        cut = written < total;
      });
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
    const { port } = server.address() as AddressInfo;

    const before = process.memoryUsage();
    const started = Date.now();
    const result = await sendWebhook({ agent: agent(), url: `http://127.0.0.1:${port}/big`, headers: signed(), body });
    const elapsed = Date.now() - started;
    const after = process.memoryUsage();

    expect(result.kind).toBe('success');
    expect(Buffer.byteLength(result.body ?? '')).toBeLessThanOrEqual(1024);
    expect(result.body).toBe('x'.repeat(1024));
    expect(elapsed).toBeLessThan(3000);
    expect(after.rss - before.rss).toBeLessThan(50 * 1024 * 1024);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(50 * 1024 * 1024);
    await expect.poll(() => cut).toBe(true);
    expect(written).toBeLessThan(total / 4);
  });
});
