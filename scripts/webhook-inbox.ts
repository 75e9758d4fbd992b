import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PERSONAL_WEBHOOK_EVENTS, WORKSPACE_WEBHOOK_EVENTS } from '@raffle/contracts';
import { Webhook } from 'standardwebhooks';
import { DEV_JWT_SECRET } from '../services/management/src/config.js';
import { signDevToken } from '../services/management/src/cli/dev-token.js';

/**
 * A local webhook inbox for the running platform (`npx -y pnpm@10.34.8 start`): registers an endpoint pointing
 * here through the management API (as a demo user, with a development token), sends it a test
 * event, then prints every delivery whose Standard Webhooks signature verifies — and says so
 * loudly when one does not. Ctrl-C deletes the endpoint again.
 */
const { values: args } = parseArgs({
  options: {
    user: { type: 'string', default: 'alice' },
    workspace: { type: 'string', default: 'nebula' },
    personal: { type: 'boolean', default: false },
    port: { type: 'string', default: process.env.INBOX_PORT ?? '3009' },
  },
});

type DemoFile = {
  services: Record<string, string>;
  users: Record<string, { id: string }>;
  workspaces: Record<string, { id: string }>;
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// DEMO_KEYS names another copy of the file, as in the README's examples.
const demo = JSON.parse(readFileSync(process.env.DEMO_KEYS ?? path.join(repoRoot, '.demo-keys.json'), 'utf8')) as DemoFile;
const user = demo.users[args.user];
if (!user) throw new Error(`no demo user "${args.user}" in .demo-keys.json (try alice, bob or carol)`);
const management = demo.services.management ?? 'http://127.0.0.1:3001';
const token = signDevToken(process.env.JWT_SECRET ?? DEV_JWT_SECRET, { sub: user.id, ttlSeconds: 12 * 3600 });
const base = args.personal
  ? `${management}/api/developer/personal/webhook-endpoints`
  : `${management}/api/developer/workspaces/${demo.workspaces[args.workspace]?.id}/webhook-endpoints`;

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

let verifier: Webhook | null = null;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = req.headers as Record<string, string>;
    try {
      const event = verifier!.verify(body, headers) as { type: string; timestamp: string; data: unknown };
      console.log(`✔ ${event.type}  ${headers['webhook-id']}  ${event.timestamp}\n  ${JSON.stringify(event.data).slice(0, 300)}`);
      res.statusCode = 204;
    } catch (error) {
      console.log(`✘ signature did not verify (${(error as Error).message}); webhook-id ${headers['webhook-id'] ?? '?'}`);
      res.statusCode = 400;
    }
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(Number(args.port), '127.0.0.1', resolve));

const eventTypes = (args.personal ? PERSONAL_WEBHOOK_EVENTS : WORKSPACE_WEBHOOK_EVENTS).filter((t) => t !== 'webhook.test');
const endpoint = await call<{ id: string; secret: string }>('POST', base, {
  url: `http://127.0.0.1:${args.port}/`,
  description: 'local webhook inbox (webhook-inbox)',
  eventTypes,
});
verifier = new Webhook(endpoint.secret);
console.log(`inbox on http://127.0.0.1:${args.port}/ as endpoint ${endpoint.id} (${args.personal ? `${args.user}'s personal events` : `workspace ${args.workspace}`}); Ctrl-C removes it`);
await call('POST', `${base}/${endpoint.id}/test`);

process.on('SIGINT', () => {
  void call('DELETE', `${base}/${endpoint.id}`)
    .catch((error: unknown) => console.error(`could not delete endpoint ${endpoint.id}: ${(error as Error).message}`))
    .finally(() => process.exit(0));
});
