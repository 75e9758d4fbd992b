import { accessSync, constants, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATEMENT_BOUNDS } from '../../packages/db/src/statement-bounds.js';
import { environmentOf, interpolate, readCompose, readEnvExample, type ComposeService } from './compose-files.js';
import { podTemplateOf, renderKustomization, selects, validateObject, type K8sObject } from './k8s-manifests.js';

// The database topology of issue 27 in compose and k8s: the services write through PgBouncer in
// transaction mode, the dispatcher's LISTEN and the migration reach the primary directly, the data
// plane reads from a streaming replica (docs/decisions/0037, 0038).

type Service = ComposeService & { command?: string[]; entrypoint?: string[]; volumes?: string[]; depends_on?: Record<string, { condition: string }> };
const { file } = readCompose();
const services = file.services as Record<string, Service>;
const example = readEnvExample();
/** .env.example with every secret filled in, as a user who followed it has it. */
const vars = new Map([...example].map(([name, value]) => [name, value === '' && /SECRET|PASSWORD/.test(name) ? 'generated0123456789' : value]));
const envOf = (service: string) => new Map([...environmentOf(services[service]!)].map(([key, raw]) => [key, interpolate(raw, vars).value]));
const urlOf = (service: string, setting: string) => new URL(envOf(service).get(setting)!);
const APPS = ['data-plane', 'management', 'webhook-dispatcher'];
const PRIMARY = example.get('POSTGRES_PRIMARY_HOST')!;

/** PgBouncer's ini as section → key → value (`;` and `#` start comments). */
function parseIni(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let current = '';
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) sections[(current = section[1]!)] = {};
    else sections[current]![line.slice(0, line.indexOf('=')).trim()] = line.slice(line.indexOf('=') + 1).trim();
  }
  return sections;
}

const readIni = (path: string) => parseIni(readFileSync(new URL(path, import.meta.url), 'utf8'));
const composeIni = readIni('../pgbouncer/pgbouncer.ini');
const k8sIni = readIni('../k8s/pgbouncer/pgbouncer.ini');
/** A [databases] entry's `key=value` pairs (a quoted value may hold spaces). */
const entryOf = (entry: string) => new Map([...entry.matchAll(/(\w+)=('(?:[^']|'')*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^'(.*)'$/, '$1').replaceAll("''", "'")]));

describe('docker-compose.yml: primary, replica, PgBouncer', () => {
  const pgbouncer = envOf('pgbouncer');

  it('the three services write through pgbouncer, in transaction mode, as the role pgbouncer knows', () => {
    const database = Object.keys(composeIni.databases!)[0];
    for (const app of APPS) {
      const url = urlOf(app, 'DATABASE_URL');
      expect(`${url.hostname}:${url.port}${url.pathname}`, app).toBe(`pgbouncer:${composeIni.pgbouncer!.listen_port}/${database}`);
      expect(decodeURIComponent(url.username), app).toBe(pgbouncer.get('DB_USER'));
      expect(envOf(app).get('DATABASE_POOL_MODE'), app).toBe('transaction');
      expect(services[app]!.depends_on?.pgbouncer?.condition, app).toBe('service_healthy');
    }
    expect(composeIni.pgbouncer!.pool_mode).toBe('transaction');
    expect(services.pgbouncer!.image).toMatch(/^edoburu\/pgbouncer:v\d+\.\d+\.\d+-p\d+$/);
  });

  it('pgbouncer runs infra/pgbouncer/pgbouncer.ini with the primary\'s host put in', () => {
    expect(entryOf(composeIni.databases!.raffle!).get('host')).toBe('@PRIMARY_HOST@');
    expect(pgbouncer.get('PRIMARY_HOST')).toBe(PRIMARY);
    expect(services.pgbouncer!.volumes).toContain('./infra/pgbouncer:/infra/pgbouncer:ro');
    // Compose reads `$$` as a literal `$`, which the shell then expands.
    const script = services.pgbouncer!.entrypoint!.join(' ').replaceAll('$$', '$');
    expect(script).toContain('sed "s/@PRIMARY_HOST@/$PRIMARY_HOST/" /infra/pgbouncer/pgbouncer.ini > /etc/pgbouncer/pgbouncer.ini');
    expect(script).toContain('exec /entrypoint.sh /usr/bin/pgbouncer /etc/pgbouncer/pgbouncer.ini');
  });

  it("every server connection carries the services' session defaults: jit off and a request's bounds (what a service in transaction mode checks at start)", () => {
    const { statementTimeoutMs, lockTimeoutMs } = STATEMENT_BOUNDS.request;
    expect(entryOf(composeIni.databases!.raffle!).get('connect_query')).toBe(`set jit = off; set statement_timeout = ${statementTimeoutMs}; set lock_timeout = ${lockTimeoutMs}`);
  });

  it('what needs a session goes to the primary directly: the relay\'s LISTEN and the migration\'s advisory lock', () => {
    const direct = urlOf('webhook-dispatcher', 'DATABASE_DIRECT_URL');
    expect(`${direct.hostname}:${direct.port}`).toBe(`${PRIMARY}:5432`);
    const migrate = urlOf('migrate', 'DATABASE_URL');
    expect(`${migrate.hostname}:${migrate.port}`).toBe(`${PRIMARY}:5432`);
    expect(decodeURIComponent(migrate.username)).toBe('raffle_owner');
    // Only the dispatcher LISTENs; the APIs have no use for a session of their own.
    expect(envOf('data-plane').has('DATABASE_DIRECT_URL')).toBe(false);
    expect(envOf('management').has('DATABASE_DIRECT_URL')).toBe(false);
  });

  it('the data plane, and only it, reads from the replica, which copies and follows the primary', () => {
    const read = urlOf('data-plane', 'DATABASE_READ_URL');
    expect(`${read.hostname}:${read.port}${read.pathname}`).toBe('postgres-replica:5432/raffle');
    expect(APPS.filter((app) => envOf(app).has('DATABASE_READ_URL'))).toEqual(['data-plane']);
    const replica = services['postgres-replica']!;
    expect(replica.image).toBe(services.postgres!.image);
    expect(envOf('postgres-replica').get('PRIMARY_HOST')).toBe(PRIMARY);
    expect(envOf('postgres-replica').get('REPLICATION_PASSWORD')).toBe(envOf('postgres').get('REPLICATION_PASSWORD'));
    expect(replica.command).toEqual(expect.arrayContaining(['hot_standby=on']));
    expect(replica.volumes).toContain(`./infra/postgres/replica-entrypoint.sh:${replica.entrypoint![0]}:ro`);
    expect(services.postgres!.volumes!.some((v) => v.startsWith('./infra/postgres/replication.sh:/docker-entrypoint-initdb.d/'))).toBe(true);
    // The read path never waits for the replica: reads fall back to the primary while it is away.
    expect(services['data-plane']!.depends_on?.['postgres-replica']).toBeUndefined();
  });

  it('the two scripts the postgres image runs are executable (the image sources a non-executable init script)', () => {
    for (const script of ['replication.sh', 'replica-entrypoint.sh']) {
      expect(() => accessSync(new URL(`../postgres/${script}`, import.meta.url), constants.X_OK), script).not.toThrow();
    }
  });
});

describe('infra/k8s/pgbouncer and the services\' database settings', () => {
  const pgbouncer = renderKustomization('pgbouncer');
  const base = renderKustomization('base');
  const ini = k8sIni;
  const deployment = pgbouncer.find((o) => o.kind === 'Deployment')!;
  const deploymentOf = (name: string) => base.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;
  const secretSettings = (object: K8sObject) =>
    podTemplateOf(object).spec.containers[0]!.env!.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);

  it.each(pgbouncer.map((o) => [`${o.kind}/${o.metadata.name}`, o] as const))('%s validates against the Kubernetes schema', async (_name, object) => {
    await expect(validateObject(object)).resolves.toBeUndefined();
  });

  it("is compose's pgbouncer.ini but for the primary's host, and runs the same image", () => {
    expect(ini.pgbouncer).toEqual(composeIni.pgbouncer);
    expect(Object.keys(ini.databases!)).toEqual(Object.keys(composeIni.databases!));
    const entry = entryOf(ini.databases!.raffle!);
    expect(entry.get('host')).toBe('raffle-db-rw');
    expect(new Map([...entry].filter(([key]) => key !== 'host'))).toEqual(new Map([...entryOf(composeIni.databases!.raffle!)].filter(([key]) => key !== 'host')));
    expect(ini.pgbouncer!.pool_mode).toBe('transaction');
    expect(services.pgbouncer!.image).toBe(podTemplateOf(deployment).spec.containers[0]!.image);
  });

  it('its Service, container and ini agree on the port, and it runs non-root, read-only, with two pods and a disruption budget', () => {
    const port = Number(ini.pgbouncer!.listen_port);
    const service = pgbouncer.find((o) => o.kind === 'Service')!;
    expect((service.spec as { ports: { port: number }[] }).ports.map((p) => p.port)).toEqual([port]);
    const pod = podTemplateOf(deployment);
    expect((pod.spec.containers[0] as unknown as { ports: { containerPort: number }[] }).ports[0]!.containerPort).toBe(port);
    expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.spec.containers[0]!.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect((deployment.spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(2);
    expect(pgbouncer.filter((o) => o.kind === 'PodDisruptionBudget' && selects((o.spec as { selector: never }).selector, pod.metadata.labels))).toHaveLength(1);
  });

  it('the services reach PgBouncer on its port, and its policy admits them', () => {
    const port = Number(ini.pgbouncer!.listen_port);
    type Rule = { ports?: { port: number }[]; from?: { podSelector?: { matchLabels?: Record<string, string> } }[] };
    const policies = base.filter((o) => o.kind === 'NetworkPolicy');
    const own = pgbouncer.find((o) => o.kind === 'NetworkPolicy')!.spec as { ingress: Rule[] };
    for (const app of APPS) {
      const labels = podTemplateOf(deploymentOf(app)).metadata.labels;
      const policy = policies.find((p) => (p.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels['app.kubernetes.io/name'] === app)!;
      expect((policy.spec as { egress: Rule[] }).egress.some((rule) => rule.ports?.some((p) => p.port === port)), `${app} → pgbouncer`).toBe(true);
      expect(own.ingress.some((rule) => rule.ports?.some((p) => p.port === port) && rule.from?.some((peer) => selects(peer.podSelector, labels))), `pgbouncer admits ${app}`).toBe(true);
    }
  });

  it('transaction mode for every service; the replica URL for the data plane and the direct URL for the dispatcher, from the Secret', () => {
    const config = base.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'raffle-config') as K8sObject & { data: Record<string, string> };
    expect(config.data.DATABASE_POOL_MODE).toBe('transaction');
    expect(secretSettings(deploymentOf('data-plane'))).toContain('DATABASE_READ_URL');
    expect(secretSettings(deploymentOf('webhook-dispatcher'))).toContain('DATABASE_DIRECT_URL');
    expect(secretSettings(deploymentOf('management'))).not.toContain('DATABASE_READ_URL');
    expect(secretSettings(deploymentOf('management'))).not.toContain('DATABASE_DIRECT_URL');
  });
});
