import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** A Redis key prefix of one test's own, so test files sharing a Redis never count on each other's keys. */
export const randomRateLimitNamespace = (service: string) => `test-${service}-rl-${randomBytes(6).toString('hex')}:`;

/** One policy's parameters in a `RateLimit` or `RateLimit-Policy` header value (`"user";r=2;t=60, "webhook-send";…`). */
export function policyParams(header: unknown, policy: string): Record<string, number> | undefined {
  for (const item of String(header ?? '').split(',')) {
    const [name, ...params] = item.trim().split(';');
    if (name !== `"${policy}"`) continue;
    return Object.fromEntries(params.map((p) => p.split('=')).map(([k, v]) => [k!, Number(v)]));
  }
  return undefined;
}

/** The policy names a `RateLimit-Policy` header lists, in order. */
export const policyNames = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((item) => /^"([^"]+)"/.exec(item.trim())?.[1])
    .filter((name): name is string => Boolean(name));

/** The value of an unlabelled-by-route metric from the app's /metrics (the first sample of that name). */
export async function metricValue(app: FastifyInstance, name: string): Promise<number> {
  const text = (await app.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  if (!line) throw new Error(`metric ${name} not exposed`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A log stream that keeps its own lines (to assert on one app's log) and passes each on (to the file's log scan). */
export function collectingLogStream(passOn: (line: string) => void): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      const line = chunk.toString();
      lines.push(line);
      passOn(line);
      done();
    },
  });
  return { stream, lines };
}

/** Polls until `condition` holds; the time it took, or an error after `timeoutMs`. */
export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}
