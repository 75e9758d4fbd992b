import fc from 'fast-check';
import { SchemaArbitraries, type JsonSchema, type SchemaArbitraryOptions } from './json-schema-arbitrary.js';

export { SchemaArbitraries, type JsonSchema, type SchemaArbitraryOptions } from './json-schema-arbitrary.js';
export * from './hostile-values.js';
export { fuzzResponseViolations, leakFindings, type ErrorBodyCheck, type FuzzResponse } from './fuzz-response-check.js';
export { describeFailures, runFuzzCampaign, type FuzzCampaignResult, type FuzzFailure } from './fuzz-campaign.js';
export { warmUpConnections } from './fuzz-warm-up.js';
export { documentedErrorCodeViolations } from './openapi-error-codes.js';

/** The parts of an OpenAPI 3.1 document the fuzzer reads (what `app.swagger()` returns). */
export type OpenApiDocument = {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, SecurityScheme> };
};
type OpenApiParameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: Array<Record<string, string[]>>;
};
type SecurityScheme = { type: string; scheme?: string; in?: string; name?: string };

/** One route of the document, as the fuzzer drives it. */
export type FuzzOperation = {
  method: string;
  /** The OpenAPI path template, `/api/v1/raffles/{slug}`. */
  path: string;
  operationId?: string;
  parameters: OpenApiParameter[];
  body?: { schema: JsonSchema; required: boolean };
  /** The security schemes the route accepts (empty: public). */
  securitySchemes: SecurityScheme[];
};

export type FuzzRequest = {
  /** `METHOD /template`: what status counts and failures are grouped by. */
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
};

export type OpenApiFuzzOptions = Omit<SchemaArbitraryOptions, 'components'> & {
  /**
   * Real credentials for a route (a valid API key of the right type, a JWT of a user who owns the
   * workspace), as headers. Half the requests to a secured route carry them, so they pass
   * authentication and reach the handler; the other half carry missing or broken ones.
   */
  credentials?: (operation: FuzzOperation) => fc.Arbitrary<Record<string, string>> | undefined;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function fuzzOperations(document: OpenApiDocument): FuzzOperation[] {
  const schemes = document.components?.securitySchemes ?? {};
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const json = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        parameters: (operation.parameters ?? []).filter((p) => p.in !== 'cookie'),
        body: json ? { schema: json, required: operation.requestBody?.required ?? false } : undefined,
        securitySchemes: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement).map((name) => schemes[name]).filter((s): s is SecurityScheme => !!s)),
      });
    }
  }
  return operations;
}

/**
 * Requests for every operation of an OpenAPI document, mostly valid-shaped: a quarter exactly as
 * the schemas allow, the rest with hostile values spliced into parameters and bodies at any
 * depth (NUL and lone surrogates, huge and fractional numbers, year 0 and 10000, deep nesting,
 * wrong types, missing and extra fields), now and then a raw body that is not JSON at all or a
 * method the route does not have.
 */
export function openApiRequests(document: OpenApiDocument, options: OpenApiFuzzOptions = {}): fc.Arbitrary<FuzzRequest> {
  const schemas = new SchemaArbitraries({ ...options, components: document.components?.schemas });
  const operations = fuzzOperations(document);
  if (operations.length === 0) throw new Error('openapi-fuzz: the document has no operations');
  return fc.oneof(...operations.map((operation) => ({ arbitrary: operationRequests(operation, schemas, options), weight: surfaceOf(operation, schemas) })));
}

/**
 * Routes with more inputs get more requests: a body of a dozen fields needs more draws than a
 * bare GET for each field to meet its hostile values.
 */
function surfaceOf(operation: FuzzOperation, schemas: SchemaArbitraries): number {
  const body = operation.body ? schemas.resolve(operation.body.schema) : undefined;
  const bodyFields = body?.properties ? Object.keys(body.properties as object).length : operation.body ? 1 : 0;
  return Math.min(1 + operation.parameters.length + bodyFields, 12);
}

function operationRequests(operation: FuzzOperation, schemas: SchemaArbitraries, options: OpenApiFuzzOptions): fc.Arbitrary<FuzzRequest> {
  const valid = requestShape(operation, (schema, name) => schemas.valid(schema, name));
  const fuzzed = requestShape(operation, (schema, name) => schemas.fuzzed(schema, name));
  const parts = fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: fuzzed, weight: 3 });
  const real = options.credentials?.(operation);
  const credentials =
    operation.securitySchemes.length === 0
      ? fc.constant({})
      : real
        ? fc.oneof(real, hostileCredentials(operation.securitySchemes))
        : hostileCredentials(operation.securitySchemes);
  const method = fc.oneof(
    { arbitrary: fc.constant(operation.method), weight: 30 },
    { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'), weight: 1 },
  );
  return fc.tuple(parts, credentials, method).map(([p, auth, m]) => ({
    operation: `${operation.method} ${operation.path}`,
    method: m,
    url: p.url,
    headers: { ...p.headers, ...auth },
    ...(p.payload === undefined ? {} : { payload: p.payload }),
  }));
}

type RequestParts = { url: string; headers: Record<string, string>; payload?: string };

function requestShape(operation: FuzzOperation, value: (schema: JsonSchema, name: string) => fc.Arbitrary<unknown>): fc.Arbitrary<RequestParts> {
  const byLocation = (location: string) => operation.parameters.filter((p) => p.in === location);
  const present = (p: OpenApiParameter) => {
    const arbitrary = value(p.schema ?? { type: 'string' }, p.name);
    // Optional parameters are left out about half the time, as clients do.
    return p.required ? arbitrary : fc.option(arbitrary, { nil: undefined, freq: 2 });
  };
  const record = (params: OpenApiParameter[]) =>
    fc.tuple(...params.map((p) => present(p).map((v) => [p.name, v] as const))).map((pairs) => pairs.filter(([, v]) => v !== undefined));
  return fc
    .tuple(record(byLocation('path')), record(byLocation('query')), record(byLocation('header')), bodyParts(operation, value), fc.option(extraQuery, { freq: 10 }))
    .map(([path, query, header, body, extra]) => {
      let url = operation.path;
      for (const [name, v] of path) url = url.replace(`{${name}}`, pathSegment(scalarText(v)));
      const search = [...query, ...(extra ? [extra] : [])].flatMap(([name, v]) =>
        (Array.isArray(v) ? v : [v]).map((item) => `${percentEncode(name)}=${percentEncode(scalarText(item))}`),
      );
      const headers: Record<string, string> = { ...body.headers };
      for (const [name, v] of header) headers[name.toLowerCase()] = headerSafe(scalarText(v));
      return { url: search.length > 0 ? `${url}?${search.join('&')}` : url, headers, ...(body.payload === undefined ? {} : { payload: body.payload }) };
    });
}

const extraQuery = fc.tuple(fc.constantFrom('limit', 'cursor', 'api_key', 'access_token', '__proto__', 'x'), fc.string({ maxLength: 20 })).map(([k, v]) => [k, v] as [string, unknown]);

/** Bodies that are not what the route parses: broken JSON, other media types, nothing at all. */
const RAW_BODIES = ['', '{', '{"a":', 'null', '[]', '"x"', '0', 'true', '{"a":1,"a":2}', '{"__proto__":{"polluted":true}}', '1e999999', '\u0000', '['.repeat(5000) + ']'.repeat(5000)];

function bodyParts(operation: FuzzOperation, value: (schema: JsonSchema, name: string) => fc.Arbitrary<unknown>): fc.Arbitrary<{ headers: Record<string, string>; payload?: string }> {
  const json = (payload: string) => ({ headers: { 'content-type': 'application/json' }, payload });
  const raw = fc.oneof(
    fc.constantFrom(...RAW_BODIES).map(json),
    fc.tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'multipart/form-data'), fc.constantFrom('a=1', '{}', 'x')).map(([type, payload]) => ({ headers: { 'content-type': type }, payload })),
  );
  const none = fc.constant({ headers: {} });
  if (!operation.body) {
    if (operation.method === 'GET' || operation.method === 'DELETE') return fc.oneof({ arbitrary: none, weight: 20 }, { arbitrary: raw, weight: 1 });
    return fc.oneof({ arbitrary: none, weight: 10 }, { arbitrary: raw, weight: 1 });
  }
  const encoded = value(operation.body.schema, '').map((body) => json(JSON.stringify(body) ?? 'null'));
  return fc.oneof({ arbitrary: encoded, weight: 16 }, { arbitrary: none, weight: 1 }, { arbitrary: raw, weight: 2 });
}

function hostileCredentials(schemes: SecurityScheme[]): fc.Arbitrary<Record<string, string>> {
  const junk = fc.oneof(
    fc.constantFrom('', ' ', 'null', 'svc_u_', 'svc_w_0000000000000000000000000000', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a.b.c', 'x'.repeat(5000)),
    fc.string({ maxLength: 60 }).map(headerSafe),
  );
  const one = (scheme: SecurityScheme) =>
    scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name
      ? junk.map((v) => ({ [scheme.name!.toLowerCase()]: v }))
      : fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'Basic ', 'Bearer  ', ''), junk).map(([prefix, v]) => ({ authorization: prefix + v }));
  return fc.oneof(fc.constant({}), ...schemes.map(one));
}

const scalarText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/**
 * A path parameter as a segment. `.` and `..` (encoded or not) are dot segments that every URL
 * parser resolves away, and an empty value leaves `…/workspaces/`, which is another operation's
 * URL (the list's), so no client can send them as a value of this one: they go out with a letter
 * after them, still hostile to a slug or id pattern.
 */
function pathSegment(text: string): string {
  return percentEncode(/^\.{0,2}$/.test(text) ? `${text}x` : text);
}

/**
 * Percent-encodes as UTF-8; a lone surrogate goes out as the three bytes a careless client would
 * send (`\ud800` → `%ED%A0%80`), which no decoder accepts as UTF-8.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** What an HTTP/1.1 peer can carry in a header value: the parser refuses NUL and other controls. */
const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/**
 * The requests of one run, drawn in batches (fixed seed per batch) so a run of 10,000 never holds
 * them all at once; request `i` is reproducible from the seed alone.
 */
export function* sampleRequests(arbitrary: fc.Arbitrary<FuzzRequest>, options: { seed: number; count: number; batchSize?: number }): Generator<FuzzRequest> {
  const batchSize = options.batchSize ?? 250;
  for (let start = 0, batch = 0; start < options.count; start += batchSize, batch++) {
    yield* fc.sample(arbitrary, { seed: options.seed + batch, numRuns: Math.min(batchSize, options.count - start) });
  }
}
