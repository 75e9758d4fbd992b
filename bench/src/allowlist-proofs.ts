import { fileURLToPath } from 'node:url';
import { verifyAllowlistProof } from '@raffle/sdk';
import type { EntrantKeys } from './entrant-keys.js';
import type { MonotonicWindow } from './profile-summary.js';
import type { ChildServer } from './servers.js';
import { startWrk, type Load, type WrkResult } from './wrk.js';
import { wrkWithCpu } from './wrk-cpu.js';

const KEYS_SCRIPT = fileURLToPath(new URL('./wrk-keys.lua', import.meta.url));

export type ProofScenarioId = 'bare' | 'allowlist-proof' | 'allowlist-leaves';

export type ProofScenario = {
  id: ProofScenarioId;
  label: string;
  server: 'bare' | 'data-plane';
  path: string;
  headers?: Record<string, string>;
  /** Each request as the next winner (wrk-keys.lua), instead of one fixed request. */
  rotatingKeys?: boolean;
  /** A request before the load (the probe key's): a wrong route, key or proof fails the run instead of being measured. */
  check: (status: number, body: unknown) => string | null;
};

export type ProofLoadResult = {
  id: ProofScenarioId;
  label: string;
  wrk: WrkResult;
  /** Percent of one core during the measured run, per process group. */
  cpu: Record<string, number>;
  probe: string;
  /** Every round when there were several; the fields above are the median round's. */
  rounds?: Array<{ requestsPerSecond: number; p50: number; p99: number }>;
};

type Proof = { address: string; quantity: string; proof: string[]; root: string; version: number };
type LeafPage = { data: Array<{ address: string; quantity: string; proof: string[] }>; root: string; pagination: { hasMore: boolean } };

/** A leaf checks out when the SDK's offline verification folds its proof to the published root. */
const verifies = (root: string, leaf: { address: string; quantity: string; proof: string[] }) =>
  verifyAllowlistProof({ root, address: leaf.address, quantity: BigInt(leaf.quantity), proof: leaf.proof });

/**
 * The scenarios: bare Fastify, then the data plane's two allowlist reads on the raffle whose
 * allowlist the run published (`root`): a winner's own proof (personal key, each request the next
 * winner), and the workspace's first page of leaves with their proofs (limit 100).
 */
export function proofScenarios(args: { raffle: { id: string; slug: string }; workspaceId: string; workspaceKey: string; root: string; leaves: number }): ProofScenario[] {
  const { raffle, root } = args;
  const limit = Math.min(100, args.leaves);
  return [
    { id: 'bare', label: 'bare Fastify (constant JSON)', server: 'bare', path: '/', check: (status) => (status === 200 ? null : `expected 200, got ${status}`) },
    {
      id: 'allowlist-proof',
      label: "a winner's own proof (personal key, a different winner each request)",
      server: 'data-plane',
      path: `/api/v1/raffles/${raffle.slug}/allowlist/proof`,
      rotatingKeys: true,
      check: (status, body) => {
        if (status !== 200) return `expected 200, got ${status}: ${JSON.stringify(body).slice(0, 300)}`;
        const proof = body as Proof;
        if (proof.root !== root) return `root ${proof.root}, the run published ${root}`;
        return verifies(root, proof) ? null : `the proof of ${proof.address} does not verify against ${root}`;
      },
    },
    {
      id: 'allowlist-leaves',
      label: `the workspace's first page of leaves with proofs (limit ${limit})`,
      server: 'data-plane',
      path: `/api/v1/workspaces/${args.workspaceId}/raffles/${raffle.id}/allowlist/leaves?limit=${limit}`,
      headers: { authorization: `Bearer ${args.workspaceKey}` },
      check: (status, body) => {
        if (status !== 200) return `expected 200, got ${status}: ${JSON.stringify(body).slice(0, 300)}`;
        const page = body as LeafPage;
        if (page.data.length !== limit) return `expected ${limit} leaves, got ${page.data.length}`;
        const bad = page.data.find((leaf) => !verifies(root, leaf));
        return bad ? `the proof of ${bad.address} does not verify against ${root}` : null;
      },
    },
  ];
}

export type ProofLoadContext = {
  servers: Record<ProofScenario['server'], ChildServer>;
  keys: EntrantKeys;
  postmasterPid: number;
  load: { connections: number; threads: number; warmupSeconds: number; durationSeconds: number };
};

/** One scenario: the probe, a discarded warm-up, then the measured run with the CPU of the server, Postgres and wrk. */
export async function runProofScenario(scenario: ProofScenario, context: ProofLoadContext): Promise<{ result: ProofLoadResult; window: MonotonicWindow }> {
  const server = context.servers[scenario.server];
  const url = server.url + scenario.path;
  const probeHeaders = scenario.rotatingKeys ? { authorization: `Bearer ${context.keys.probeKey}` } : scenario.headers;
  const response = await fetch(url, { headers: probeHeaders });
  const body = await response.json().catch(() => null);
  const problem = scenario.check(response.status, body);
  if (problem) throw new Error(`${scenario.label}: ${problem}`);

  const { connections, threads } = context.load;
  const load = (durationSeconds: number): Load => ({
    url,
    connections,
    threads,
    durationSeconds,
    ...(scenario.rotatingKeys
      ? { script: { path: KEYS_SCRIPT, args: [context.keys.file, String(context.keys.usable), String(threads), 'distinct', 'GET', '200'] } }
      : { headers: scenario.headers }),
  });
  await startWrk(load(context.load.warmupSeconds)).result;
  const { wrk, cpu, window } = await wrkWithCpu(load(context.load.durationSeconds), (wrkPid) => ({
    server: (p) => p.pid === server.pid,
    postgres: (p) => p.pid === context.postmasterPid || p.ppid === context.postmasterPid,
    wrk: (p) => p.pid === wrkPid,
  }));
  return { result: { id: scenario.id, label: scenario.label, wrk, cpu, probe: `${response.status}` }, window };
}

/** The round with the median req/s stands for the scenario; every round stays in the JSON. */
export function medianProofRun(rounds: ProofLoadResult[]): ProofLoadResult {
  const sorted = [...rounds].sort((a, b) => a.wrk.requestsPerSecond - b.wrk.requestsPerSecond);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  if (rounds.length === 1) return median;
  return { ...median, rounds: rounds.map((r) => ({ requestsPerSecond: r.wrk.requestsPerSecond, p50: r.wrk.latencyMs.p50, p99: r.wrk.latencyMs.p99 })) };
}
