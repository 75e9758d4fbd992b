import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { SeenResponse } from './error-invariants.js';

/**
 * `app.inject` runs every URL through WHATWG `new URL`, which resolves `..`, drops fragments and
 * re-encodes bytes, so those request targets never reach the router. These helpers put the
 * request on a real socket byte for byte (latin1: one char = one byte, so a caller passes
 * UTF-8 as its bytes), the way a hostile client would, and read back the first response.
 */
export async function listenForRawRequests(app: FastifyInstance): Promise<{ port: number }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: (app.server.address() as AddressInfo).port };
}

export type RawRequest = { method: string; target: string; headers?: Record<string, string>; body?: string | Buffer };

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The first response on the connection; the raw bytes of anything after it are in `trailing`. */
export function parseRawResponse(raw: Buffer, method: string): SeenResponse & { trailing: number } {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete HTTP response (${raw.length} bytes: ${JSON.stringify(raw.toString('latin1').slice(0, 200))})`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const statusCode = Number(status[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const rest = raw.subarray(end + 4);
  let body: Buffer;
  let consumed: number;
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) {
    body = Buffer.alloc(0);
    consumed = 0;
  } else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    body = dechunk(rest);
    consumed = rest.length;
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    body = rest.subarray(0, length);
    consumed = length;
  } else {
    body = rest;
    consumed = rest.length;
  }
  return { statusCode, headers, body: body.toString('utf8'), trailing: Math.max(0, rest.length - consumed) };
}

export function rawRequest(port: number, req: RawRequest): Promise<SeenResponse & { trailing: number }> {
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  let head = `${req.method} ${req.target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n`;
  for (const [name, value] of Object.entries(req.headers ?? {})) head += `${name}: ${value}\r\n`;
  if (body) head += `content-length: ${body.length}\r\n`;
  head += '\r\n';

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => socket.destroy(new Error(`raw request ${req.method} ${req.target} timed out`)), 5000);
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      if (raw.length === 0) return reject(error ?? new Error(`connection closed without a response to ${req.method} ${req.target}`));
      try {
        resolve(parseRawResponse(raw, req.method));
      } catch (parseError) {
        reject(parseError);
      }
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // The server may answer (413, 405...) and close before the body is written: that is not a failure.
    socket.on('error', (error) => {
      if (chunks.length === 0 && !['EPIPE', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code ?? '')) finish(error);
    });
    socket.write(Buffer.from(head, 'latin1'));
    if (body) socket.write(body);
  });
}
