import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGEMENT_OPERATION_METHODS, RaffleManagementClient } from '../src/management/index.js';
import { startManagement, type ManagementService } from './support/management-service.js';

type Operation = { method: string; path: string; operationId: string; parameters?: Array<{ in: string; name: string }> };
type OpenApiDocument = { paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ in: string; name: string }> }>> };

const takesIdempotencyKey = (op: Operation) => op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') ?? false;

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const MANAGED = /^\/api\/(developer|dashboard)\//;

/** The document's /api/developer and /api/dashboard operations. */
function managedOperations(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method) && MANAGED.test(path))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId!, parameters: op.parameters })),
  );
}

const committedDocument = JSON.parse(readFileSync(new URL('../../../docs/openapi/management.json', import.meta.url), 'utf8')) as OpenApiDocument;

let service: ManagementService;

beforeAll(async () => {
  service = await startManagement();
});

const liveDocument = () => service.app.swagger() as unknown as OpenApiDocument;

afterAll(async () => {
  await service?.close();
});

const table = MANAGEMENT_OPERATION_METHODS as Record<string, string>;

describe('every management operation has an SDK method', () => {
  it.each([
    ['the committed document (docs/openapi/management.json)', () => committedDocument],
    ["the running service's document", liveDocument],
  ])('%s', (_name, documentOf) => {
    const operations = managedOperations(documentOf());
    expect(operations.length).toBeGreaterThan(50);
    const missing = operations.filter((op) => !(op.operationId in table)).map((op) => `${op.operationId} (${op.method} ${op.path})`);
    expect(missing, 'operations with no entry in MANAGEMENT_OPERATION_METHODS').toEqual([]);
    const stale = Object.keys(table).filter((id) => !operations.some((op) => op.operationId === id));
    expect(stale, 'table entries for operations the document no longer has').toEqual([]);
  });

  it('the operations that take an Idempotency-Key are the creates of keys, endpoints and raffles (decision 0020)', () => {
    const withKey = managedOperations(liveDocument()).filter(takesIdempotencyKey);
    expect(withKey.map((op) => op.operationId).sort()).toEqual([
      'createPersonalApiKey',
      'createPersonalWebhookEndpoint',
      'createRaffle',
      'createWorkspaceApiKey',
      'createWorkspaceWebhookEndpoint',
    ]);
  });
});

describe('each method sends its operation', () => {
  type Sent = { method: string; url: URL; idempotencyKey: string | null; authorization: string | null };
  const sent: Sent[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), idempotencyKey: headers.get('idempotency-key'), authorization: headers.get('authorization') });
    // Good enough for every method: a page for lists, an object for the rest.
    return new Response(JSON.stringify({ data: [], pagination: { nextCursor: null, hasMore: false } }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const mgmt = new RaffleManagementClient({ token: 'session-jwt', baseUrl: 'https://mgmt.example/base/', fetch: recordingFetch });

  /** The method at a dotted path, bound to its resource. */
  function methodAt(dotted: string): (...args: unknown[]) => unknown {
    const parts = dotted.split('.');
    let owner: unknown = mgmt;
    for (const part of parts.slice(0, -1)) owner = (owner as Record<string, unknown>)[part];
    const fn = (owner as Record<string, unknown>)[parts.at(-1)!];
    expect(typeof fn, dotted).toBe('function');
    return (fn as (...args: unknown[]) => unknown).bind(owner);
  }

  // Ids with every character that must not reach the path raw.
  const idFor = (name: string) => `${name} /?#%&é`;

  for (const op of managedOperations(committedDocument)) {
    const dotted = table[op.operationId];
    if (!dotted) continue; // reported by the completeness test above
    it(`${dotted} → ${op.method} ${op.path}`, async () => {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const before = sent.length;
      const result = methodAt(dotted)(...names.map(idFor));
      if (result && typeof result === 'object' && 'page' in result) await (result as { page: () => Promise<unknown> }).page();
      else await result;

      expect(sent.length - before, 'one request').toBe(1);
      const request = sent.at(-1)!;
      const expectedPath = '/base' + op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(idFor(name)));
      expect(request.method).toBe(op.method);
      expect(request.url.pathname).toBe(expectedPath);
      expect(request.authorization).toBe('Bearer session-jwt');
      // The SDK sends a key of its own exactly where the operation takes one, so exactly those writes are retried.
      if (takesIdempotencyKey(op)) expect(request.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      else expect(request.idempotencyKey).toBeNull();
    });
  }
});

describe('browser-safe', () => {
  it('the management client imports nothing from Node and uses no Node global', () => {
    const root = new URL('../src/management/', import.meta.url);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.filter((name) => /from ['"]node:|require\(|\bprocess\.|\bBuffer\b/.test(readFileSync(new URL(name, root), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
