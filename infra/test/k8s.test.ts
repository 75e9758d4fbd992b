import { describe, expect, it } from 'vitest';
import { podTemplateOf, renderKustomization, selects, validateObject, type K8sObject } from './k8s-manifests.js';

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

/** Settings that must come from the Secret, never written into a manifest. */
const SECRET_SETTINGS = /SECRET|PASSWORD|DATABASE_URL/;

describe('infra/k8s, rendered with kubectl kustomize', () => {
  it('renders the three services and the two setup Jobs, all in the raffle namespace', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['data-plane', 'management', 'webhook-dispatcher']);
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

  it('the migration and the stream setup run the commands the images carry', () => {
    const command = (name: string) => podTemplateOf(jobs.find((j) => j.metadata.name === name)!).spec.containers[0] as unknown as { command: string[]; image: string };
    expect(command('raffle-migrate')).toMatchObject({ command: ['node', 'node_modules/@raffle/db/dist/cli/migrate.js'], image: expect.stringContaining('raffle/data-plane') });
    expect(command('raffle-jetstream-setup')).toMatchObject({ command: ['node', 'dist/cli/setup-stream.js'], image: expect.stringContaining('raffle/webhook-dispatcher') });
  });
});
