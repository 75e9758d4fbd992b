import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentOf, interpolate, readCompose, readEnvExample } from './compose-files.js';

type DemoService = { profiles?: string[]; build?: { target?: string }; command?: string[]; ports?: string[]; depends_on?: Record<string, unknown> };

const { file } = readCompose();
const services = file.services as Record<string, DemoService & Parameters<typeof environmentOf>[0]>;
const vars = new Map([...readEnvExample()].map(([name, value]) => [name, value || 'generated']));
const envOf = (name: string) => new Map([...environmentOf(services[name]!)].map(([key, raw]) => [key, interpolate(raw, vars).value]));
const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');

/**
 * The compose file's demo (issue 34): `docker compose --profile demo up demo` starts what
 * `pnpm start` starts — its own local beacon, anvil with the demo's contracts, the services and
 * the demo data — on the compose file's Postgres and Redis, apart from the platform's data.
 */
describe('docker-compose.yml: the demo profile', () => {
  it('runs `pnpm start` from the image stage that holds the sources and their tools, only when the demo profile is asked for', () => {
    const demo = services.demo!;
    expect(demo.profiles).toEqual(['demo']);
    expect(demo.command).toEqual(['pnpm', 'start']);
    expect(rootPackage.scripts.start).toContain('scripts/start-platform.ts');
    expect(demo.build?.target).toBe('build');
    expect(dockerfile).toMatch(/^FROM \S+ AS build$/m);
  });

  it('names no beacon chain and no RPC URLs, so start brings its own beacon and anvil with the demo contracts', () => {
    const env = envOf('demo');
    expect(env.has('BEACON_CHAIN')).toBe(false);
    expect(env.has('CHAIN_RPC_URLS')).toBe(false);
  });

  it("keeps the demo's data apart: a database of its own, a NATS of its own (same subjects), Redis's database 1", () => {
    const env = envOf('demo');
    const database = new URL(env.get('DATABASE_URL')!);
    expect(database.pathname).toBe('/raffle_demo');
    expect(new URL(envOf('data-plane').get('DATABASE_URL')!).pathname).not.toBe('/raffle_demo');
    expect(env.get('NATS_URL')).toBe('nats://demo-nats:4222');
    expect(services['demo-nats']!.profiles).toEqual(['demo']);
    expect(env.get('REDIS_URL')).toBe('redis://redis:6379/1');
    expect(Object.keys(services.demo!.depends_on ?? {}).sort()).toEqual(['demo-nats', 'postgres', 'redis']);
  });

  it('listens on every address inside its container and publishes the console and both APIs on the host', () => {
    expect(envOf('demo').get('HOST')).toBe('0.0.0.0');
    const published = (services.demo!.ports ?? []).map((port) => interpolate(port, vars).value);
    expect(published).toEqual(['127.0.0.1:4003:3003', '127.0.0.1:4000:3000', '127.0.0.1:4001:3001']);
  });
});
