import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

/**
 * /docs opened at either address the start log may lead to: "Try it out" calls the document's
 * first server, which must be the page's own origin and allowed by the page's CSP connect-src.
 */

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** The CSP's sources for fetches: connect-src, or default-src when it has none (CSP 3). */
function connectSources(csp: string): string[] {
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
  return directives.get('connect-src') ?? directives.get('default-src') ?? [];
}

describe.each(['127.0.0.1:3000', 'localhost:3000'])('the docs page opened at http://%s/docs', (host) => {
  const page = new URL(`http://${host}/docs`);

  it('tries requests against its own origin, which its CSP allows', async () => {
    const html = await app.inject({ url: page.pathname, headers: { host } });
    expect(html.statusCode).toBe(200);
    const csp = String(html.headers['content-security-policy']);
    expect(connectSources(csp)).toContain("'self'");

    for (const url of ['/docs/json', '/openapi.json']) {
      const document = (await app.inject({ url, headers: { host } })).json() as { servers: { url: string }[] };
      const tried = new URL(document.servers[0]!.url, new URL(url, page));
      expect(tried.origin, `${url}'s first server`).toBe(page.origin);
    }
  });
});
