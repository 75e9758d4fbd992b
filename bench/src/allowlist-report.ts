import type { AllowlistChildResult } from './allowlist-child.js';
import type { ProofLoadResult } from './allowlist-proofs.js';

/** allowlist-build: every round of each step (each in a fresh process), and their medians. */
export type BuildResults = {
  finalize: { allowlist: AllowlistChildResult[]; airdrop: AllowlistChildResult[] };
  publish: AllowlistChildResult[];
  pieces: AllowlistChildResult[];
};

export type BuildMedians = {
  finalizeAllowlistSeconds: number;
  finalizeAirdropSeconds: number;
  /** Finalizing the allowlist raffle ÷ finalizing the same raffle as an airdrop (no allowlist). */
  finalizeRatio: number;
  /** The queue upsert alone: what finalize adds for an allowlist. */
  queueMs: number;
  publishSeconds: number;
  readSeconds: number;
  hashSeconds: number;
  /** CPU seconds of the hashing: the same work whatever else runs on the machine. */
  hashCpuSeconds: number;
  writeSeconds: number;
  /** CPU seconds of the build's Node process (publishDueAllowlists). */
  publishCpuSeconds: number;
  publishMaxRssMb: number;
  publishBaselineRssMb: number;
  publishHeapPeakMb: number;
  piecesMaxRssMb: number;
  finalizeMaxRssMb: number;
};

export type AllowlistReport = {
  startedAt: string;
  environment: Record<string, string | number>;
  winners: number;
  seedSeconds: number;
  build?: BuildResults & { medians: BuildMedians; root: string; leaves: number };
  proofs?: ProofLoadResult[];
  warnings: string[];
};

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The medians the report states, from every round of each step. */
export function buildMedians(results: BuildResults): BuildMedians {
  const of = (rounds: AllowlistChildResult[], pick: (r: AllowlistChildResult) => number) => median(rounds.map(pick));
  const finalizeAllowlistSeconds = of(results.finalize.allowlist, (r) => r.seconds);
  const finalizeAirdropSeconds = of(results.finalize.airdrop, (r) => r.seconds);
  return {
    finalizeAllowlistSeconds,
    finalizeAirdropSeconds,
    finalizeRatio: finalizeAllowlistSeconds / finalizeAirdropSeconds,
    queueMs: of(results.finalize.allowlist, (r) => (r.queueSeconds ?? 0) * 1000),
    publishSeconds: of(results.publish, (r) => r.seconds),
    readSeconds: of(results.pieces, (r) => r.pieces!.readSeconds),
    hashSeconds: of(results.pieces, (r) => r.pieces!.hashSeconds),
    hashCpuSeconds: of(results.pieces, (r) => r.pieces!.hashCpuSeconds),
    publishCpuSeconds: of(results.publish, (r) => r.cpuSeconds.node),
    writeSeconds: of(results.pieces, (r) => r.pieces!.writeSeconds),
    publishMaxRssMb: of(results.publish, (r) => r.maxRssMb),
    publishBaselineRssMb: of(results.publish, (r) => r.baselineRssMb),
    publishHeapPeakMb: of(results.publish, (r) => r.sampled.heapUsedMb),
    piecesMaxRssMb: of(results.pieces, (r) => r.maxRssMb),
    finalizeMaxRssMb: of([...results.finalize.allowlist, ...results.finalize.airdrop], (r) => r.maxRssMb),
  };
}

const count = (n: number) => n.toLocaleString('en-US');
const s = (seconds: number) => seconds.toFixed(2);
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** A finalize's time; when its transition bound cancelled it, how long until then and the time with the bound raised. */
const finalizeCell = (r: AllowlistChildResult | undefined) =>
  !r ? '–' : r.timedOutAfterSeconds === undefined ? s(r.seconds) : `${s(r.seconds)} (bound hit after ${s(r.timedOutAfterSeconds)})`;

function buildSection(report: AllowlistReport): string[] {
  const build = report.build;
  if (!build) return [];
  const m = build.medians;
  const finalizeRows = build.finalize.allowlist.map((allowlist, i) => {
    const airdrop = build.finalize.airdrop[i]!;
    return `| ${i + 1} | ${finalizeCell(allowlist)} | ${finalizeCell(airdrop)} | ${(allowlist.seconds / airdrop.seconds).toFixed(2)} | ${((allowlist.queueSeconds ?? 0) * 1000).toFixed(1)} | ${allowlist.maxRssMb} / ${airdrop.maxRssMb} |`;
  });
  const buildRows = build.publish.map((publish, i) => {
    const pieces = build.pieces[i]!.pieces!;
    return `| ${i + 1} | ${s(publish.seconds)} | ${s(pieces.readSeconds)} / ${s(pieces.hashSeconds)} (CPU ${s(pieces.hashCpuSeconds)}) / ${s(pieces.writeSeconds)} | ${publish.maxRssMb} (${publish.baselineRssMb}) | ${publish.sampled.heapUsedMb} | ${publish.cpuSeconds.node} / ${publish.cpuSeconds.postgres ?? '–'} |`;
  });
  const total = m.readSeconds + m.hashSeconds + m.writeSeconds;
  return [
    '## allowlist-build',
    '',
    `A drawn raffle with ${count(report.winners)} selected winners, each with a wallet of its own; finalize makes them finalized winners and queues the allowlist; publishDueAllowlists builds it: ${count(build.leaves)} leaves, root \`${build.root}\`.`,
    '',
    '| Finalize round | allowlist raffle s | same raffle as an airdrop s | allowlist ÷ airdrop | queue upsert alone ms | peak RSS MB allowlist / airdrop |',
    '|---:|---:|---:|---:|---:|---|',
    ...finalizeRows,
    `| median | ${s(m.finalizeAllowlistSeconds)} | ${s(m.finalizeAirdropSeconds)} | ${m.finalizeRatio.toFixed(2)} | ${m.queueMs.toFixed(1)} | |`,
    '',
    '| Build round | publishDueAllowlists s | its parts: read / hash / write s | peak RSS MB (before) | heap peak MB | CPU s node / pg backend |',
    '|---:|---:|---|---:|---:|---|',
    ...buildRows,
    `| median | ${s(m.publishSeconds)} | ${s(m.readSeconds)} / ${s(m.hashSeconds)} (CPU ${s(m.hashCpuSeconds)}) / ${s(m.writeSeconds)} | ${m.publishMaxRssMb} (${m.publishBaselineRssMb}) | ${m.publishHeapPeakMb} | ${s(m.publishCpuSeconds)} / |`,
    '',
    `- **Finalize is not held up by the build**: finalizing the allowlist raffle took ${s(m.finalizeAllowlistSeconds)} s, ${m.finalizeRatio.toFixed(2)}× finalizing the same raffle as an airdrop (${s(m.finalizeAirdropSeconds)} s, no allowlist), in the same run. What finalize adds for an allowlist is one upsert into the build queue: ${m.queueMs.toFixed(1)} ms alone. The rest of either finalize is its ${count(report.winners)} wins (peak RSS of a finalize process ${m.finalizeMaxRssMb.toFixed(1)} MB).`,
    `- **The build** (publishDueAllowlists, one process per round): ${s(m.publishSeconds)} s, ${s(m.publishCpuSeconds)} s of its process's CPU. Called one by one: reading the winners ${s(m.readSeconds)} s (${pct(m.readSeconds / total)}), hashing the tree (allowlistFromWinners) ${s(m.hashSeconds)} s (${pct(m.hashSeconds / total)}; ${s(m.hashCpuSeconds)} s of CPU), writing the version and its leaves ${s(m.writeSeconds)} s (${pct(m.writeSeconds / total)}).`,
    `- **Memory**: peak RSS of the build's process ${m.publishMaxRssMb} MB, ${(m.publishMaxRssMb - m.publishBaselineRssMb).toFixed(1)} MB over its RSS before the build (${m.publishBaselineRssMb} MB: Node, tsx and the workspace's modules); heap peak (sampled every 20 ms) ${m.publishHeapPeakMb} MB.`,
    '',
  ];
}

function proofSection(report: AllowlistReport): string[] {
  const proofs = report.proofs;
  if (!proofs) return [];
  const bare = proofs.find((r) => r.id === 'bare');
  const rows = proofs.map((r) => {
    const share = bare ? pct(r.wrk.requestsPerSecond / bare.wrk.requestsPerSecond) : '–';
    const statuses = r.wrk.statuses ? Object.entries(r.wrk.statuses).map(([status, n]) => `${status}: ${count(n)}`).join(', ') : `${count(r.wrk.requests - r.wrk.errors.status)} < 400`;
    // CPU per request moves less than req/s when other work shares the machine.
    const perRequest = (percent: number | undefined) => (((percent ?? 0) * 10) / r.wrk.requestsPerSecond).toFixed(3);
    return `| ${r.label} | ${count(Math.round(r.wrk.requestsPerSecond))} | ${share} | ${r.wrk.latencyMs.p50} | ${r.wrk.latencyMs.p99} | ${count(r.wrk.bytesPerRequest)} | ${statuses} | ${perRequest(r.cpu.server)} / ${perRequest(r.cpu.postgres)} | ${r.cpu.server} / ${r.cpu.postgres} / ${r.cpu.wrk} / ${r.cpu.other} |`;
  });
  return [
    '## allowlist-proofs',
    '',
    '| Scenario | req/s | share of bare | p50 ms | p99 ms | bytes/resp | statuses | CPU ms/req: server / postgres | CPU % of a core: server / postgres / wrk / other |',
    '|---|---:|---:|---:|---:|---:|---|---|---|',
    ...rows,
    '',
  ];
}

export function renderAllowlistMarkdown(report: AllowlistReport): string {
  const env = Object.entries(report.environment)
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
  return [
    `# Allowlist benchmark, ${report.startedAt}`,
    '',
    env,
    '',
    `Seeded two drawn raffles of ${count(report.winners)} winners each (COPY) in ${report.seedSeconds} s.`,
    '',
    ...buildSection(report),
    ...proofSection(report),
    ...(report.warnings.length ? ['## Warnings', '', ...report.warnings.map((w) => `- ${w}`), ''] : []),
  ].join('\n');
}
