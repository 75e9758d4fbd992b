/** A response as a fuzz test saw it: `app.inject`'s result has this shape. */
export type FuzzResponse = {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
};

/** The service's own error-body rules (its schema, and `code` for the data plane): violations, or none. */
export type ErrorBodyCheck = (body: unknown, statusCode: number) => string[];

/** Stack frames, source locations and module paths: none may reach a client. */
const STACK_TRACE_PATTERNS: Array<[string, RegExp]> = [
  ['V8 stack frame', /\bat (?:async )?[^\s()]+ \([^()]*:\d+:\d+\)/],
  ['bare stack frame', /(?:^|\\n|\n)\s*at (?:async )?[^\s]+(?: \(|:\d+:\d+)/],
  ['source location', /\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/],
  ['module path', /node_modules[\\/]|file:\/\/|\/work\/main\//],
  ['error class dump', /\b(?:TypeError|ReferenceError|RangeError|PostgresError|FastifyError|DrizzleQueryError): /],
];

/** SQL and driver internals: a database failure must not describe itself to the client. */
const INTERNALS_PATTERNS: Array<[string, RegExp]> = [
  ['SQL text', /\bselect\b[\s\S]{1,200}\bfrom\b|\binsert into\b|\bupdate \w+ set\b|\bwhere \w+ =/i],
  ['postgres message', /invalid byte sequence|syntax error at or near|violates .*constraint|relation "|column "|\$\d+::|out of range for type|date\/time field value/i],
  ['driver error code', /\b(?:ECONNREFUSED|ECONNRESET|CONNECTION_(?:ENDED|CLOSED|DESTROYED)|CONNECT_TIMEOUT|22P02|22P05|22021|22003|22008|57P01)\b/],
];

/** Stack traces and SQL in a body; what the caller sent (`inputs`) may be echoed and is removed first. */
export function leakFindings(text: string, inputs: readonly string[] = []): string[] {
  let scrubbed = text;
  for (const input of inputs) if (input.length >= 4) scrubbed = scrubbed.split(input).join('');
  const found: string[] = [];
  for (const [name, pattern] of [...STACK_TRACE_PATTERNS, ...INTERNALS_PATTERNS]) {
    const m = pattern.exec(scrubbed);
    if (m) found.push(`${name}: ${JSON.stringify(m[0].slice(0, 80))}`);
  }
  return found;
}

const headerText = (res: FuzzResponse, name: string): string | undefined => {
  const value = res.headers[name];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
};

/**
 * What every response owes whatever was sent, while the database is up: no 5xx; a non-2xx body is
 * JSON in the service's error body (checked by `errorBody`), its `statusCode` the HTTP status, its
 * `requestId` the `x-request-id` header (a replayed idempotent answer keeps the first request's), its
 * `path` without the query; no stack trace or SQL in an error body.
 */
export function fuzzResponseViolations(res: FuzzResponse, check: { errorBody: ErrorBodyCheck; inputs?: readonly string[] }): string[] {
  const v: string[] = [];
  const status = res.statusCode;
  if (status >= 500) v.push(`status ${status}`);
  const isError = status < 200 || status >= 300;
  if (isError && res.body.length > 0) {
    const contentType = headerText(res, 'content-type') ?? '';
    if (!/^application\/json\b/i.test(contentType)) v.push(`error body is not JSON (content-type ${JSON.stringify(contentType)})`);
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      v.push('error body does not parse as JSON');
    }
    if (body !== undefined) {
      v.push(...check.errorBody(body, status));
      const b = (body ?? {}) as Record<string, unknown>;
      if (b.statusCode !== status) v.push(`body statusCode ${JSON.stringify(b.statusCode)} != HTTP status ${status}`);
      const requestId = headerText(res, 'x-request-id');
      if (requestId === undefined) v.push('no x-request-id header');
      // A replayed idempotent answer keeps the first request's body, its requestId included; this
      // request's id is in the header (docs/decisions/0010).
      const replayed = headerText(res, 'idempotent-replayed') === 'true';
      if (!replayed && b.requestId !== requestId) v.push(`body requestId ${JSON.stringify(b.requestId)} != x-request-id ${JSON.stringify(requestId)}`);
      if (typeof b.path === 'string' && (b.path.includes('?') || !b.path.startsWith('/'))) v.push(`body path ${JSON.stringify(b.path)} is not a bare path`);
    }
  }
  // 2xx bodies are left out: they echo stored text that earlier fuzzed requests chose.
  if (isError) for (const finding of leakFindings(res.body, check.inputs)) v.push(`body leaks ${finding}`);
  return v;
}
