import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { natsServers } from '../../packages/service-kit/src/nats-servers.js';
import { renderKustomization, validateObject, type K8sObject } from './k8s-manifests.js';

// The three-node NATS cluster (docs/decisions/0035) in k8s and compose, against what the services
// read: NATS_URL names every node, and the stream's replica count is the same everywhere.
const nats = renderKustomization('nats');
const shared = renderKustomization('base').find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'raffle-config') as K8sObject & { data: Record<string, string> };
const statefulSet = nats.find((o) => o.kind === 'StatefulSet')!;
const streamFile = JSON.parse(readFileSync(new URL('../nats/raffle-events-stream.json', import.meta.url), 'utf8')) as { num_replicas: number };
const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
};

describe('infra/k8s/nats and the NATS settings', () => {
  it.each(nats.map((o) => [`${o.kind}/${o.metadata.name}`, o] as const))('%s validates against the Kubernetes schema', async (_name, object) => {
    await expect(validateObject(object)).resolves.toBeUndefined();
  });

  it("raffle-config's NATS_URL names each pod of the StatefulSet, and its replica count is the stream file's", () => {
    const replicas = (statefulSet.spec as { replicas: number; serviceName: string }).replicas;
    const service = (statefulSet.spec as { serviceName: string }).serviceName;
    const pods = Array.from({ length: replicas }, (_, i) => `nats://${statefulSet.metadata.name}-${i}.${service}:4222`);
    expect(natsServers(shared.data.NATS_URL!)).toEqual(pods);
    expect(Number(shared.data.NATS_STREAM_REPLICAS)).toBe(streamFile.num_replicas);
    expect(streamFile.num_replicas).toBe(replicas);
  });

  it("compose runs one node per NATS_URL entry, each routed to the others, and the dispatcher's replica count is the stream file's", () => {
    const nodes = Object.keys(compose.services).filter((name) => /^nats-\d+$/.test(name)).sort();
    const url = compose.services['webhook-dispatcher']!.environment!.NATS_URL!;
    expect(natsServers(url)).toEqual(nodes.map((n) => `nats://${n}:4222`));
    for (const node of nodes) {
      const command = compose.services[node]!.command!;
      expect(command[command.indexOf('--server_name') + 1]).toBe(node);
      const routes = command[command.indexOf('--routes') + 1]!.split(',');
      expect(routes.sort()).toEqual(nodes.filter((n) => n !== node).map((n) => `nats://${n}:6222`));
    }
    expect(Number(compose.services['webhook-dispatcher']!.environment!.NATS_STREAM_REPLICAS)).toBe(streamFile.num_replicas);
    expect(nodes.length).toBe(streamFile.num_replicas);
  });
});
