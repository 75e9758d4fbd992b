import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContractProxy, type ContractProxy } from '../src/testing/contract-proxy.js';

/**
 * The contract check the README and SDK tests rely on can fail: a stub service that answers each
 * path with a known right or wrong response, behind the same Prism wrapper with a one-route
 * document, and what the wrapper reports for each.
 */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'contract check', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^thg_' } }],
        responses: {
          '200': {
            description: 'a thing',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['id', 'count'], additionalProperties: false, properties: { id: { type: 'string' }, count: { type: 'integer' } } },
              },
            },
          },
        },
      },
    },
  },
};

const ANSWERS: Record<string, { status: number; body: unknown }> = {
  '/things/thg_right': { status: 200, body: { id: 'thg_right', count: 1 } },
  '/things/thg_wrong_type': { status: 200, body: { id: 'thg_wrong_type', count: 'one' } },
  '/things/thg_extra_field': { status: 200, body: { id: 'thg_extra_field', count: 1, secret: 'x' } },
  '/things/thg_undocumented_status': { status: 418, body: { id: 'thg_undocumented_status', count: 1 } },
};

let workDir: string;
let upstream: Server;
let proxy: ContractProxy;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'contract-proxy-'));
  const document = path.join(workDir, 'openapi.json');
  writeFileSync(document, JSON.stringify(DOCUMENT));
  upstream = createServer((request, response) => {
    const answer = ANSWERS[request.url!] ?? { status: 200, body: { id: 'thg_any', count: 0 } };
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startContractProxy({ document, upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

const get = async (pathname: string) => {
  const response = await fetch(`${proxy.url}${pathname}`);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('the contract proxy (prism proxy --errors)', () => {
  it('passes a request and response the document allows, and reports nothing', async () => {
    expect(await get('/things/thg_right')).toEqual({ status: 200, body: { id: 'thg_right', count: 1 } });
    expect(await proxy.takeViolations()).toEqual([]);
    expect(proxy.requestsReceived()).toBe(1);
  });

  it.each([
    ['a field of the wrong type', '/things/thg_wrong_type', /count.*must be integer/],
    ['a field the schema does not have', '/things/thg_extra_field', /additional properties/],
  ])('answers 500 for a response with %s, and reports it', async (_what, pathname, detail) => {
    const { status, body } = await get(pathname);
    expect(status).toBe(500);
    expect(JSON.stringify(body)).toMatch(detail);
    expect(await proxy.takeViolations()).toEqual([`GET ${pathname}: Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid`]);
  });

  it('passes a response with a status the document does not list, and reports it', async () => {
    expect((await get('/things/thg_undocumented_status')).status).toBe(418);
    const violations = await proxy.takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^GET \/things\/thg_undocumented_status: Violation: response Unable to match the returned status code/);
  });

  it('reports a request the document refuses, and one for a path it does not have', async () => {
    expect((await get('/things/not-a-thing-id')).status).toBe(422);
    expect((await get('/nowhere')).status).toBe(404);
    const violations = await proxy.takeViolations();
    expect(violations.join('\n')).toMatch(/GET \/things\/not-a-thing-id: .*UNPROCESSABLE_ENTITY/);
    expect(violations.join('\n')).toMatch(/GET \/nowhere: .*NO_PATH_MATCHED/);
  });
});

describe('the contract proxy with the data plane\'s committed document', () => {
  it('reports a /api/v1/me answer that is not a Profile, and an error body that is not an ErrorBody', async () => {
    // The check the SDK and README tests run is only as strict as the real document: an upstream
    // that answers wrongly in the two shapes every route shares must not get through.
    const wrong = createServer((request, response) => {
      const body = request.url === '/api/v1/me' ? { id: 42 } : { message: 'no code' };
      response.writeHead(request.url === '/api/v1/me' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
    const document = fileURLToPath(new URL('../../../docs/openapi/data-plane.json', import.meta.url));
    const dataPlane = await startContractProxy({ document, upstream: `http://127.0.0.1:${(wrong.address() as AddressInfo).port}` });
    try {
      const headers = { authorization: 'Bearer svc_u_anything' };
      expect((await fetch(`${dataPlane.url}/api/v1/me`, { headers })).status).toBe(500);
      expect((await fetch(`${dataPlane.url}/api/v1/raffles/no-such-raffle`, { headers })).status).toBe(500);
      expect(await dataPlane.takeViolations()).toEqual([
        'GET /api/v1/me: Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid',
        'GET /api/v1/raffles/no-such-raffle: Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS: Request/Response not valid',
      ]);
    } finally {
      await dataPlane.close();
      await new Promise((resolve) => wrong.close(resolve));
    }
  });
});
