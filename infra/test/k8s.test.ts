import { describe, expect, it } from 'vitest';
import { beaconOf } from '../../packages/service-kit/src/beacon-settings.js';
import { podTemplateOf, renderKustomization, selects, validateObject, type K8sObject, type PodTemplate } from './k8s-manifests.js';

// Rendered by the real `kubectl kustomize` (scripts/ensure-local-services.sh installs a kubectl
// where there is none), then checked object by object.
const base = renderKustomization('base');
const setup = renderKustomization('setup');
const all = [...base, ...setup];
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const deployments = ofKind(base, 'Deployment');
const jobs = ofKind(setup, 'Job');
const workloads = [...deployments, ...jobs];
// Both kustomizations carry the shared namespace policies: one copy of each.
const policies = [...new Map(ofKind(all, 'NetworkPolicy').map((p) => [p.metadata.name, p])).values()];

/** Settings that must come from the Secret, never written into a manifest: every database URL carries a password. */
const SECRET_SETTINGS = /SECRET|PASSWORD|DATABASE_(?:[A-Z]+_)?URL/;

/** An image reference's tag or digest ('' when it has neither, which pulls :latest). */
function imageTag(image: string): string {
  const digest = image.indexOf('@');
  if (digest >= 0) return image.slice(digest + 1);
  const name = image.slice(image.lastIndexOf('/') + 1);
  return name.includes(':') ? name.slice(name.indexOf(':') + 1) : '';
}

type Peer = { podSelector?: { matchLabels?: Record<string, string> }; namespaceSelector?: { matchLabels?: Record<string, string> }; ipBlock?: unknown };
type PolicyRule = { ports?: { port: number | string }[]; from?: Peer[]; to?: Peer[] };
type PolicySpec = { podSelector: { matchLabels?: Record<string, string> }; policyTypes: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };

const allowsPort = (rule: PolicyRule, port: number) => !rule.ports || rule.ports.some((p) => p.port === port);
/** Whether a rule's peers admit pods with these labels in the policy's own namespace (no peers: everyone). */
const admits = (peers: Peer[] | undefined, labels: Record<string, string>) =>
  !peers || peers.length === 0 || peers.some((peer) => !peer.namespaceSelector && !peer.ipBlock && peer.podSelector !== undefined && selects(peer.podSelector, labels));

describe('infra/k8s, rendered with kubectl kustomize', () => {
  it('renders the three services, the console and the two setup Jobs, all in the raffle namespace', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['console', 'data-plane', 'management', 'webhook-dispatcher']);
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(['raffle-jetstream-setup', 'raffle-migrate']);
    for (const o of all.filter((o) => o.kind !== 'Namespace')) expect((o.metadata as { namespace?: string }).namespace, `${o.kind}/${o.metadata.name}`).toBe('raffle');
  });

  it.each(all.map((o) => [`${o.kind}/${o.metadata.name}`, o] as const))('%s validates against the Kubernetes schema', async (_name, object) => {
    await expect(validateObject(object)).resolves.toBeUndefined();
  });

  it('a broken object fails the schema check (the check can fail)', async () => {
    const broken = structuredClone(deployments[0]!);
    (podTemplateOf(broken).spec.containers[0] as unknown as { ports: unknown }).ports = [{ containerPort: 'http' }];
    await expect(validateObject(broken)).rejects.toThrow(/containerPort/);
  });

  it.each(workloads.map((w) => [`${w.kind}/${w.metadata.name}`, w] as const))('%s runs as non-root, read-only, without privilege escalation, with requests and a memory limit', (_name, workload) => {
    const pod = podTemplateOf(workload);
    expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);
    for (const container of pod.spec.containers) {
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(container.resources?.limits?.memory).toBeDefined();
      for (const env of container.env ?? []) {
        if (SECRET_SETTINGS.test(env.name)) expect(env.valueFrom?.secretKeyRef, `${env.name} comes from the Secret`).toBeDefined();
      }
    }
  });

  it('the two APIs, which close raffles, read one beacon ConfigMap, and its values are a valid chain and relay list', () => {
    const [beaconMap] = ofKind(base, 'ConfigMap').filter((c) => c.metadata.name === 'raffle-beacon');
    const data = (beaconMap as unknown as { data: { BEACON_CHAIN: string; BEACON_RELAYS: string } }).data;
    expect(beaconOf(data).chain.chainHash).toMatch(/^[0-9a-f]{64}$/);
    const readers = deployments.filter((d) =>
      podTemplateOf(d).spec.containers.some((c) => (c as { envFrom?: { configMapRef?: { name: string } }[] }).envFrom?.some((e) => e.configMapRef?.name === 'raffle-beacon')),
    );
    expect(readers.map((d) => d.metadata.name).sort()).toEqual(['data-plane', 'management']);
  });

  it('no Secret is written into the manifests: they are referenced, and created out of band', () => {
    expect(ofKind(all, 'Secret')).toEqual([]);
    expect(JSON.stringify(ofKind(all, 'ConfigMap'))).not.toMatch(SECRET_SETTINGS);
  });

  it.each(deployments.map((d) => [d.metadata.name, d] as const))('%s: probes, Prometheus scraping, a PodDisruptionBudget and an autoscaler', (name, deployment) => {
    const pod = podTemplateOf(deployment);
    for (const container of pod.spec.containers) {
      expect(container.readinessProbe, 'readiness probe').toBeDefined();
      expect(container.livenessProbe, 'liveness probe').toBeDefined();
    }
    expect(pod.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' });
    expect(ofKind(base, 'PodDisruptionBudget').filter((p) => selects((p.spec as { selector: never }).selector, pod.metadata.labels))).toHaveLength(1);
    const autoscalers = ofKind(base, 'HorizontalPodAutoscaler').filter((h) => (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef.name === name);
    expect(autoscalers).toHaveLength(1);
    expect((autoscalers[0]!.spec as { minReplicas: number }).minReplicas).toBeGreaterThanOrEqual(2);
    // The autoscaler owns the replica count: a count here would be reset on every apply.
    expect((deployment.spec as { replicas?: number }).replicas).toBeUndefined();
  });

  it.each(workloads.map((w) => [`${w.kind}/${w.metadata.name}`, w] as const))('%s: a default-deny policy covers it, and a policy of its own allows its egress', (_name, workload) => {
    const labels = podTemplateOf(workload).metadata.labels;
    type Policy = { podSelector: { matchLabels?: Record<string, string> }; policyTypes: string[]; egress?: unknown[]; ingress?: unknown[] };
    const covering = policies.filter((p) => selects((p.spec as Policy).podSelector, labels));
    const denyAll = covering.filter((p) => {
      const spec = p.spec as Policy;
      return spec.policyTypes.includes('Ingress') && spec.policyTypes.includes('Egress') && !spec.ingress && !spec.egress;
    });
    expect(denyAll.map((p) => p.metadata.name)).toEqual(['raffle-default-deny']);
    const own = covering.filter((p) => (p.spec as Policy).podSelector.matchLabels?.['app.kubernetes.io/name'] === labels['app.kubernetes.io/name']);
    expect(own).toHaveLength(1);
    expect(((own[0]!.spec as Policy).egress ?? []).length).toBeGreaterThan(0);
  });

  it.each(workloads.map((w) => [`${w.kind}/${w.metadata.name}`, w] as const))('%s: every image is pinned by a tag (or digest), never :latest or untagged', (_name, workload) => {
    const pod = podTemplateOf(workload) as PodTemplate & { spec: { initContainers?: { image: string }[] } };
    for (const { image } of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) expect(imageTag(image), image).not.toMatch(/^(latest)?$/);
  });

  it('the setup Jobs run the tag the services run: the schema and stream of the same release', () => {
    const tags = (objects: K8sObject[]) => new Map(objects.flatMap((w) => podTemplateOf(w).spec.containers.map((c) => [c.image.replace(/[:@].*$/, ''), imageTag(c.image)] as const)));
    const services = tags(deployments);
    for (const [image, tag] of tags(jobs)) expect(`${image}:${tag}`).toBe(`${image}:${services.get(image)}`);
  });

  it('the image check refuses :latest and untagged images', () => {
    expect(['raffle/console', 'raffle/console:latest', 'registry.example:5000/raffle/console'].map(imageTag)).toEqual(['', 'latest', '']);
    expect(['raffle/console:1.0.0', 'registry.example:5000/raffle/console@sha256:abc'].map(imageTag)).toEqual(['1.0.0', 'sha256:abc']);
  });

  it('the Ingress sends the public host to the console, and the data plane\'s routes straight to the data plane', () => {
    const ingresses = ofKind(base, 'Ingress');
    expect(ingresses).toHaveLength(1);
    type Path = { path: string; pathType: string; backend: { service: { name: string; port: { name?: string; number?: number } } } };
    const rules = (ingresses[0]!.spec as { rules: { host?: string; http: { paths: Path[] } }[] }).rules;
    expect(rules).toHaveLength(1);
    expect(rules[0]!.host).toBeTruthy();
    const route = (path: string) => rules[0]!.http.paths.find((p) => p.path === path && p.pathType === 'Prefix')?.backend.service;
    expect(route('/')).toMatchObject({ name: 'console' });
    expect(route('/api/v1')).toMatchObject({ name: 'data-plane' });
    expect(route('/public/v1')).toMatchObject({ name: 'data-plane' });
    // Each backend is a Service of ours, on a port it has.
    for (const { backend } of rules[0]!.http.paths) {
      const service = ofKind(base, 'Service').find((s) => s.metadata.name === backend.service.name);
      expect(service, backend.service.name).toBeDefined();
      const ports = (service!.spec as { ports: { name?: string; port: number }[] }).ports;
      expect(ports.some((p) => p.name === backend.service.port.name || p.port === backend.service.port.number), `${backend.service.name}'s port`).toBe(true);
    }
  });

  it('network policies: the ingress controller reaches the console, the console reaches management and the data plane, and they admit it', () => {
    const labelsOf = (name: string) => podTemplateOf(deployments.find((d) => d.metadata.name === name)!).metadata.labels;
    const own = (name: string) => policies.find((p) => (p.spec as PolicySpec).podSelector.matchLabels?.['app.kubernetes.io/name'] === name)!.spec as PolicySpec;
    const consoleLabels = labelsOf('console');
    // From the ingress controller's namespace, on the console's port; and nothing else of the cluster but Prometheus.
    const fromControllers = (own('console').ingress ?? []).filter((rule) => allowsPort(rule, 3003) && rule.from?.some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx'));
    expect(fromControllers).toHaveLength(1);
    expect((own('console').ingress ?? []).every((rule) => rule.from && rule.from.length > 0)).toBe(true);
    for (const [upstream, port] of [['management', 3001], ['data-plane', 3000]] as const) {
      expect((own('console').egress ?? []).some((rule) => allowsPort(rule, port) && admits(rule.to, labelsOf(upstream))), `console → ${upstream}:${port}`).toBe(true);
      expect((own(upstream).ingress ?? []).some((rule) => allowsPort(rule, port) && admits(rule.from, consoleLabels)), `${upstream} admits the console`).toBe(true);
    }
    // The console has no database, NATS or Redis to reach.
    expect((own('console').egress ?? []).every((rule) => rule.to && rule.to.length > 0)).toBe(true);
  });

  it('a workload given the chains\' RPC URLs or the beacon relays (raffle-chains, raffle-beacon) may reach them: egress to 443', () => {
    const own = (name: string) => policies.find((p) => (p.spec as PolicySpec).podSelector.matchLabels?.['app.kubernetes.io/name'] === name)?.spec as PolicySpec | undefined;
    type EnvFrom = { configMapRef?: { name: string } };
    const readsOutside = deployments.filter((d) =>
      podTemplateOf(d).spec.containers.some((c) => ((c as { envFrom?: EnvFrom[] }).envFrom ?? []).some((e) => ['raffle-chains', 'raffle-beacon'].includes(e.configMapRef?.name ?? ''))),
    );
    // The data plane settles gated entries by reading the chains; management reads them and the beacon.
    expect(readsOutside.map((d) => d.metadata.name)).toEqual(expect.arrayContaining(['data-plane', 'management']));
    for (const deployment of readsOutside) {
      const egress = own(deployment.metadata.name)?.egress ?? [];
      expect(egress.some((rule) => (!rule.to || rule.to.length === 0) && allowsPort(rule, 443)), `${deployment.metadata.name} → any:443`).toBe(true);
    }
  });

  it('a workload that trusts X-Forwarded-For (TRUST_PROXY=true) admits only named peers: no one else can write the header it trusts', () => {
    const own = (name: string) => policies.find((p) => (p.spec as PolicySpec).podSelector.matchLabels?.['app.kubernetes.io/name'] === name)!.spec as PolicySpec;
    const trusting = deployments.filter((d) =>
      podTemplateOf(d).spec.containers.some((c) => (c as { env?: { name: string; value?: string }[] }).env?.some((e) => e.name === 'TRUST_PROXY' && e.value === 'true')),
    );
    // The console (behind the ingress), and the APIs behind it: each visitor counts on their own.
    expect(trusting.map((d) => d.metadata.name).sort()).toEqual(['console', 'data-plane', 'management']);
    for (const deployment of trusting) {
      const rules = own(deployment.metadata.name).ingress ?? [];
      expect(rules.length, deployment.metadata.name).toBeGreaterThan(0);
      expect(rules.every((rule) => rule.from !== undefined && rule.from.length > 0), `${deployment.metadata.name} admits only named peers`).toBe(true);
    }
  });

  it('the migration and the stream setup run the commands the images carry', () => {
    const command = (name: string) => podTemplateOf(jobs.find((j) => j.metadata.name === name)!).spec.containers[0] as unknown as { command: string[]; image: string };
    expect(command('raffle-migrate')).toMatchObject({ command: ['node', 'node_modules/@raffle/db/dist/cli/migrate.js'], image: expect.stringContaining('raffle/data-plane') });
    expect(command('raffle-jetstream-setup')).toMatchObject({ command: ['node', 'dist/cli/setup-stream.js'], image: expect.stringContaining('raffle/webhook-dispatcher') });
  });
});
