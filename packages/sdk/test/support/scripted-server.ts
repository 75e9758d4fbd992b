import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SeenRequest = { method: string; url: string; headers: IncomingHttpHeaders };

/**
 * A real HTTP server on a loopback port whose answers a test scripts: for what the platform will
 * not do on demand (hang past a timeout, answer 503 every time). Every request is recorded.
 */
export async function startScriptedServer(answer: (request: SeenRequest, response: ServerResponse, index: number) => void) {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    seen.push(request);
    req.resume();
    req.on('end', () => answer(request, res, seen.length - 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

export const answerJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
