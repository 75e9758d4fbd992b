import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/http/create-http-client.js';
import { RaffleApiError } from '../src/http/raffle-api-error.js';
import { answerJson, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

/**
 * HttpClient.download, the transport of the CSV exports: retried like any GET until an answer
 * starts, then the body handed over unread, so neither the client's timeout nor its memory bounds
 * a file's size; the caller's signal still stops it.
 */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOf = (baseUrl: string, timeoutMs = 30_000) => createHttpClient({ baseUrl, authorization: 'Bearer k', errorCodeSource: 'body', timeoutMs });

const csvHead = { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="r-entries.csv"' };

describe('download', () => {
  it('retries a 503 before the answer starts, then hands over the body with the answer\'s info', async () => {
    server = await startScriptedServer((_request, response, index) => {
      if (index === 0) return answerJson(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'x' }, { 'retry-after': '0' });
      response.writeHead(200, csvHead).end('\uFEFFid\r\na\r\n');
    });
    const file = await clientOf(server.baseUrl).download({ method: 'GET', path: '/file.csv', headers: { accept: 'text/csv' } });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.headers.accept).toBe('text/csv');
    expect(file.lastResponse.headers.get('content-disposition')).toBe('attachment; filename="r-entries.csv"');
    expect(Buffer.from(await new Response(file).arrayBuffer()).toString('utf8')).toBe('\uFEFFid\r\na\r\n');
  });

  it('throws a refusal as RaffleApiError with its code, the body read as the error', async () => {
    server = await startScriptedServer((_request, response) => answerJson(response, 404, { code: 'RAFFLE_NOT_FOUND', message: 'no raffle' }));
    const error = await clientOf(server.baseUrl).download({ method: 'GET', path: '/file.csv' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RaffleApiError);
    expect((error as RaffleApiError).code).toBe('RAFFLE_NOT_FOUND');
  });

  it('lets a download outlast the client\'s timeout once it has started, and the caller\'s signal stop it', async () => {
    let finish: (() => void) | undefined;
    server = await startScriptedServer((_request, response) => {
      response.writeHead(200, csvHead);
      response.write('\uFEFFid\r\n');
      finish = () => response.end('late\r\n');
    });
    const controller = new AbortController();
    const file = await clientOf(server.baseUrl, 200).download({ method: 'GET', path: '/file.csv', options: { signal: controller.signal } });
    const reader = file.getReader();
    expect((await reader.read()).done).toBe(false);
    // Past the 200 ms timeout, the body is still the caller's to read.
    await new Promise((resolve) => setTimeout(resolve, 400));
    finish!();
    const rest = await reader.read();
    expect(rest.done ? '' : Buffer.from(rest.value).toString('utf8')).toBe('late\r\n');
    reader.releaseLock();

    const second = await clientOf(server.baseUrl).download({ method: 'GET', path: '/file.csv', options: { signal: controller.signal } });
    const secondReader = second.getReader();
    await secondReader.read();
    controller.abort(new Error('stop'));
    await expect(secondReader.read()).rejects.toThrow('stop');
  });
});
