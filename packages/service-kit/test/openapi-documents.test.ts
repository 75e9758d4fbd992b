import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingExamples, openApiExampleViolations } from '../src/testing/openapi-examples.js';

/**
 * The committed OpenAPI documents (docs/openapi, written by `pnpm openapi:export` and checked
 * against the code by `openapi:export --check` in the test command), read as a generator would.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const documentOf = (service: string): Json => JSON.parse(readFileSync(path.join(repoRoot, 'docs/openapi', `${service}.json`), 'utf8'));
const SERVICES = ['data-plane', 'management', 'webhook-dispatcher'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function* responsesOf(document: Json) {
  for (const [p, item] of Object.entries<Json>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const [status, response] of Object.entries<Json>(operation.responses)) yield { at: `${method.toUpperCase()} ${p} ${status}`, p, method, operation, status, response };
    }
  }
}

const headerNames = (response: Json) => Object.keys(response.headers ?? {});

/** What each requirement type's label must speak of, so an example never labels one type with another's words. */
const REQUIREMENT_LABEL_SUBJECT: Record<string, RegExp> = {
  wallet_connected: /wallet/i,
  account_age_days: /account|days|old/i,
  email_verified: /email/i,
  workspace_member: /member/i,
  holds_role: /role/i,
  token_balance: /hold|token|pass|balance/i,
  native_balance: /hold|balance|eth/i,
};

/** Every example object that is a requirement (or its result): a known type beside a label. */
function* exampleRequirements(value: unknown, at: string): Generator<{ at: string; type: string; label: string }> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* exampleRequirements(item, `${at}/${i}`);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Json;
    if (typeof record.type === 'string' && typeof record.label === 'string' && record.type in REQUIREMENT_LABEL_SUBJECT) yield { at, type: record.type, label: record.label };
    for (const [key, item] of Object.entries(record)) yield* exampleRequirements(item, `${at}/${key}`);
  }
}

describe.each(SERVICES)('the %s document', (service) => {
  const document = documentOf(service);

  it("labels every example requirement (and requirement result) as its own type, not another's", () => {
    const found = [...exampleRequirements(document.paths, '#/paths')];
    const mislabelled = found.filter(({ type, label }) => !REQUIREMENT_LABEL_SUBJECT[type]!.test(label));
    expect(mislabelled.map(({ at, type, label }) => `${at}: ${type} labelled ${JSON.stringify(label)}`)).toEqual([]);
  });

  it('says what the service is for, where it runs, and describes every tag it uses', () => {
    expect(document.info.description.length).toBeGreaterThan(40);
    expect(document.servers.length).toBeGreaterThanOrEqual(3);
    // Relative first, so /docs tries requests on whichever address it was opened at.
    expect(document.servers[0].url).toBe('/');
    expect(document.servers[1].url).toMatch(/^http:\/\/localhost:\d+$/);
    const used = new Set([...responsesOf(document)].flatMap(({ operation }) => operation.tags ?? []));
    const described = new Map<string, string>(document.tags.map((t: Json) => [t.name, t.description]));
    for (const tag of used) expect(described.get(tag), `tag ${tag}`).toMatch(/\S/);
    for (const tag of described.keys()) expect(used.has(tag) || JSON.stringify(document.webhooks ?? {}).includes(`"${tag}"`), `unused tag ${tag}`).toBe(true);
  });

  it('has an example on every parameter, request body and JSON response, each valid against its schema', () => {
    expect(missingExamples(document as never)).toEqual([]);
    expect(openApiExampleViolations(document as never)).toEqual([]);
  });

  it('describes every response for real and sends X-Request-Id on each', () => {
    for (const { at, response } of responsesOf(document)) {
      expect(response.description, at).not.toMatch(/Default Response/);
      expect(headerNames(response), at).toContain('X-Request-Id');
    }
  });

  it('documents Retry-After on every 429 and every 503 with an error body, and RateLimit on every rate-limited response', () => {
    for (const { at, status, response, operation } of responsesOf(document)) {
      const rateLimited = operation.responses['429'] !== undefined;
      if (status === '429') expect(headerNames(response), at).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']));
      if (status === '503' && operation['x-error-codes']) expect(headerNames(response), at).toContain('Retry-After');
      if (rateLimited) expect(headerNames(response), at).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
    }
  });

  it('carries only the schemas its operations and webhooks reach', () => {
    const text = JSON.stringify({ paths: document.paths, webhooks: document.webhooks, headers: document.components.headers });
    const schemas = document.components.schemas ?? {};
    const reached = new Set<string>();
    const visit = (json: string) => {
      for (const [, name] of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
        if (reached.has(name!)) continue;
        reached.add(name!);
        visit(JSON.stringify(schemas[name!] ?? {}));
      }
    };
    visit(text);
    expect(Object.keys(schemas).filter((name) => !reached.has(name))).toEqual([]);
  });
});

/** A body a client cannot leave out: it names a property that must be sent, or demands at least one. */
function bodyIsNeeded(document: Json, schema: Json): boolean {
  const resolved: Json = schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  return (resolved.required ?? []).length > 0 || (resolved.minProperties ?? 0) > 0;
}

/** The operations whose routes take no body as `{}` (config `optionalBody`): issue 23. */
const BODY_OPTIONAL_OPERATIONS = {
  'data-plane': ['enterRaffle'],
  management: [
    'rollPersonalApiKey',
    'rollWorkspaceApiKey',
    'publishRaffle',
    'openRaffle',
    'closeRaffle',
    'finalizeRaffle',
    'cancelRaffle',
    'drawRaffle',
    'rerollWin',
    'enterRaffleAsMe',
    'rotatePersonalWebhookEndpointSecret',
    'testPersonalWebhookEndpoint',
    'retryPersonalWebhookDelivery',
    'rotateWorkspaceWebhookEndpointSecret',
    'testWorkspaceWebhookEndpoint',
    'retryWorkspaceWebhookDelivery',
  ],
  'webhook-dispatcher': [],
} satisfies Record<(typeof SERVICES)[number], string[]>;

describe.each(SERVICES)('the request bodies of the %s document', (service) => {
  const document = documentOf(service);
  const withBodies = Object.entries<Json>(document.paths).flatMap(([p, item]) =>
    METHODS.filter((method) => item[method]?.requestBody).map((method) => ({ at: `${method.toUpperCase()} ${p}`, operation: item[method], body: item[method].requestBody })),
  );

  it('marks a body optional exactly where the operation lets it be omitted', () => {
    const optional = withBodies.filter(({ body }) => body.required === false).map(({ operation }) => operation.operationId);
    expect(optional.sort()).toEqual([...BODY_OPTIONAL_OPERATIONS[service]].sort());
  });

  it('keeps required every body that names required properties or demands one, and leaves none whose schema takes {} required', () => {
    for (const { at, operation, body } of withBodies) {
      expect(body.required, at).toBe(bodyIsNeeded(document, body.content['application/json'].schema));
      expect(operation, at).not.toHaveProperty('x-optional-body');
    }
  });
});

describe('the error codes of each operation', () => {
  it('data plane: every error response of an /api/v1 operation enumerates the codes of its status', () => {
    const document = documentOf('data-plane');
    let enumerated = 0;
    for (const { at, p, status, response, operation } of responsesOf(document)) {
      if (!p.startsWith('/api/v1/') || Number(status) < 400) continue;
      const codes: string[] = response['x-error-codes'];
      expect(codes, at).toBeInstanceOf(Array);
      expect(operation['x-error-codes'], at).toEqual(expect.arrayContaining(codes));
      if (codes.length === 0) continue;
      const schema = response.content['application/json'].schema;
      expect(schema.allOf[1].properties.code.enum, at).toEqual(codes);
      expect(codes, at).toContain(response.content['application/json'].example.code);
      enumerated += 1;
    }
    expect(enumerated).toBeGreaterThan(50);
  });

  it('data plane: the route-specific codes sit on the statuses the catalogue gives them', () => {
    const operation = documentOf('data-plane').paths['/api/v1/raffles/{slug}/entries'].post;
    expect(operation.responses['404']['x-error-codes']).toEqual(['ROUTE_NOT_FOUND', 'RAFFLE_NOT_FOUND']);
    expect(operation.responses['409']['x-error-codes']).toEqual(
      expect.arrayContaining(['ALREADY_ENTERED', 'RAFFLE_NOT_OPEN', 'RAFFLE_FULL', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS']),
    );
    expect(operation.responses['422']['x-error-codes']).toEqual(['REQUIREMENTS_NOT_MET']);
    expect(operation.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    // IDEMPOTENCY_KEY_IN_PROGRESS says when to send the request again.
    expect(operation.responses['409'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
  });

  it('management: error responses list their codes, and bodies keep no `code` field', () => {
    const document = documentOf('management');
    expect(document.components.schemas.ManagementErrorBody.properties.code).toBeUndefined();
    for (const { at, p, status, response } of responsesOf(document)) {
      if (!p.startsWith('/api/') || Number(status) < 400) continue;
      expect(response['x-error-codes'], at).toBeInstanceOf(Array);
      expect(response.content['application/json'].schema.$ref, at).toBe('#/components/schemas/ManagementErrorBody');
    }
  });
});
